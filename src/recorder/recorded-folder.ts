/**
 * The recorder's picture of its `--out` folder (format: `src/core/formats/recording-schema.ts`): what the
 * folder held at start plus what was recorded since, and the files that picture becomes. Every change rewrites the
 * files it touches whole, atomically (`folder-writer.ts`), so the folder loads after any crash.
 *
 * What each file holds is chosen so that `--fixtures` (`loadFixtures` of `src/node-platform/fixtures.ts`) always loads it:
 * records are checked against their schema and against `FOLDER_LIMITS` (`src/core/formats/folder-limits.ts`: depth,
 * bytes of each file, counts, audio bytes) before they are kept, so a record that would make the folder unloadable
 * is refused alone, and once a file is full its kind is no longer recorded (warned of once). Providers and aliases
 * of a model not (yet) recorded are held in memory and written once the model is; each speech model gets a
 * `speech` entry, and what a recorded speech model discovery answer says it takes (voices, formats, speed,
 * `instructions`, inputs) is held in memory too and replaces, on writing, its record's `supported_voices` and its
 * entry's facts; each transcription model gets a `transcription` entry (`transcription-entries.ts`), and each
 * transcript an entry of `transcripts.json` (`recorded-transcripts.ts`). `models.json` is written before any other
 * file, and an audio file before the index entry naming it.
 *
 * The folder is held with a lock file (`folder-lock.ts`); when the folder is deleted while recording (its lock file
 * gone), the next recording writes every file again from memory, `models.json` first; the audio files deleted with
 * it leave the index.
 *
 * @module
 */
import { join } from 'node:path';
import type { ModelsFile, ProviderEntry } from '../core/formats/fixture-schema.js';
import { AUDIO_INDEX_FILE, RECORDED_SCENARIO_FILE, type AudioRecording } from '../core/formats/recording-schema.js';
import { parseFixtures } from '../core/formats/validate-fixtures.js';
import type { SpeechModelResponse } from '../core/catalog/speech-models.js';
import { TRANSCRIPTS_FILE, type FixtureTranscript } from '../core/formats/transcript-schema.js';
import { acquireFolderLock, type FolderLock } from './folder-lock.js';
import { removeLeftovers } from './folder-writer.js';
import { FolderWrites, type FolderFiles } from './folder-writes.js';
import { KeptModels } from './kept-models.js';
import { KeptRecords } from './kept-records.js';
import type { RecordedError } from './recorded-errors.js';
import { FILE_BYTES, StoppedKinds, type ModelOutcome, type Outcome, type Refused } from './refusals.js';

export type { RecordedError } from './recorded-errors.js';

/** Options of {@link RecordedFolder.open}. */
export interface RecordedFolderOptions {
  /** Where the folder's own warnings go (a folder deleted while recording); none by default. */
  warn?: ((message: string) => void) | undefined;
}

/**
 * The recorded folder: what it keeps, and the writes that keep its files in step. Which records are kept, and as
 * what, is decided by what `models.json` holds (`kept-models.ts`) and what the other files hold (`kept-records.ts`);
 * how they are written, by `folder-writes.ts`.
 */
export class RecordedFolder {
  readonly files: FolderFiles;
  /** Kinds no longer recorded, with what filled up. */
  private readonly stopped = new StoppedKinds();
  private readonly models = new KeptModels(this.stopped);
  private readonly records: KeptRecords;
  private readonly writes: FolderWrites;
  /** The check for a deleted folder under way ({@link RecordedFolder.restoreIfDeleted}). */
  private folderCheck: Promise<void> | undefined;

  private constructor(
    private readonly dir: string,
    upstream: string,
    private readonly lock: FolderLock,
    private readonly warn: (message: string) => void,
  ) {
    this.records = new KeptRecords(upstream, this.stopped);
    this.writes = new FolderWrites(dir, this.models, this.records);
    this.files = this.writes.files;
  }

  /**
   * Takes the folder's lock, then reads what `dir` already holds (nothing, for a new folder), so recording adds to
   * it; removes the temporary files a killed recorder left (`removeLeftovers`: its own or a dead process's).
   *
   * @param upstream the upstream's origin and path (no credentials), named in the scenario's description.
   * @throws {FolderBusyError} when another running recorder holds the folder (`folder-lock.ts`).
   * @throws {FixtureError} when `models.json`, `generations.json`, `audio/index.json` or `transcripts.json` exists
   *   and is not valid (the message names the file, the path inside it and what was expected).
   * @throws {ScenarioError} when `scenarios/recorded.yaml` exists and is not a valid scenario.
   */
  static async open(dir: string, upstream: string, options: RecordedFolderOptions = {}): Promise<RecordedFolder> {
    const lock = await acquireFolderLock(dir);
    try {
      const folder = new RecordedFolder(dir, upstream, lock, options.warn ?? (() => undefined));
      const { files } = folder;
      const owned = (name: string) => ['models.json', 'generations.json', AUDIO_INDEX_FILE, RECORDED_SCENARIO_FILE, TRANSCRIPTS_FILE].includes(name) || /^[0-9a-f]{64}\.(mp3|pcm)$/.test(name);
      await removeLeftovers(dir, owned);
      await removeLeftovers(files.audioDir, owned);
      await removeLeftovers(join(dir, 'scenarios'), owned);
      if (folder.models.load(files.models, dir)) folder.writes.modelsReady = Promise.resolve();
      folder.records.loadGenerations(files.generations, dir);
      folder.records.loadAudio(files.audioIndex, dir, (key) => folder.models.speech.noteFormat(key));
      folder.records.loadScenario(files.scenario, dir);
      folder.records.transcripts.load(dir);
      // The folder as it will be written must load: the recorder never turns a valid folder into an invalid one.
      parseFixtures(folder.modelsFile(), { generations: [...folder.records.generations.values()] }, files.models, files.generations);
      if (folder.models.modelsBytes({}) > FILE_BYTES) {
        // A models.json written compact (a saved catalog) may pass the limit once written again, indented: kept as is.
        folder.writes.modelsKept = true;
        folder.stopped.stop('models', `models.json would pass ${FILE_BYTES} bytes once written again`);
      }
      return folder;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /**
   * Keeps model records (`KeptModels.keepModel`: a lookup's `data`, each of a list's `data`). Writes `models.json`.
   *
   * @returns the outcome of each record, in order.
   */
  async addModels(records: readonly unknown[]): Promise<ModelOutcome[]> {
    await this.checkFolder();
    const outcomes = records.map((value) => this.models.keepModel(value));
    if (outcomes.some((o) => o === 'recorded' || o === 'alias')) await this.writes.writeModels();
    return outcomes;
  }

  /**
   * Keeps `alias` as another name of the model `target` (`KeptModels.keepPlainAlias`). Writes `models.json`.
   *
   * @returns `undefined` when there is nothing to keep (`alias` is `target` or a model's id).
   */
  async addAlias(alias: string, target: string): Promise<Outcome | undefined> {
    await this.checkFolder();
    const outcome = this.models.keepPlainAlias(alias, target);
    if (outcome !== 'recorded') return outcome;
    await this.writes.writeModels();
    return 'recorded';
  }

  /** Keeps the providers of a model from its endpoints answer (`KeptModels.keepProviders`). Writes `models.json`. */
  async addProviders(modelId: string, entries: readonly ProviderEntry[]): Promise<Outcome> {
    await this.checkFolder();
    const outcome = this.models.keepProviders(modelId, entries);
    if (outcome !== 'recorded') return outcome;
    await this.writes.writeModels();
    return 'recorded';
  }

  /**
   * Keeps what speech model discovery answers say each model takes (`KeptModels.keepSpeechModels`). Writes
   * `models.json` when a model it names is known.
   *
   * @returns the outcome of each answer, in order.
   */
  async addSpeechModels(answers: readonly SpeechModelResponse[]): Promise<Outcome[]> {
    await this.checkFolder();
    const { outcomes, known } = this.models.keepSpeechModels(answers);
    if (known) await this.writes.writeModels();
    return outcomes;
  }

  /** Whether `modelId`'s providers will be in `models.json` now (its record is known). */
  knowsModel(modelId: string): boolean {
    return this.models.has(modelId);
  }

  /** Keeps a generation record (`KeptRecords.keepGeneration`). Writes `generations.json` (after `models.json`). */
  async addGeneration(value: unknown): Promise<Outcome> {
    await this.checkFolder();
    const outcome = this.records.keepGeneration(value);
    if (outcome !== 'recorded') return outcome;
    await this.writes.ensureModels();
    await this.writes.writeGenerations();
    return 'recorded';
  }

  /**
   * Keeps a speech answer (`KeptRecords.keepAudio`) and writes it: its audio file before its entry in
   * `audio/index.json` (`FolderWrites.writeAudio`).
   */
  async addAudio(entry: AudioRecording, bytes: Uint8Array): Promise<Outcome> {
    await this.checkFolder();
    const wasIndexed = this.records.audio.has(entry.key) && !this.writes.audioPending.has(entry.key);
    const outcome = this.records.keepAudio(entry, bytes);
    if (outcome !== 'recorded') return outcome;
    return this.writes.writeAudio(entry, bytes, wasIndexed);
  }

  /**
   * Keeps an error answer as a rule of the `recorded` scenario (`KeptRecords.keepError`). Writes
   * `scenarios/recorded.yaml` (after `models.json`).
   *
   * @returns the rule's name, or why it was not kept.
   */
  async addError(error: RecordedError): Promise<{ rule: string } | Refused> {
    await this.checkFolder();
    const outcome = this.records.keepError(error);
    if (!('rule' in outcome)) return outcome;
    await this.writes.ensureModels();
    await this.writes.writeScenario();
    return outcome;
  }

  /**
   * Keeps the transcript of the audio whose SHA-256 is `sha256` (`KeptRecords.keepTranscript`). Writes
   * `transcripts.json` (after `models.json`).
   */
  async addTranscript(sha256: string, transcript: FixtureTranscript): Promise<Outcome> {
    await this.checkFolder();
    const outcome = this.records.keepTranscript(sha256, transcript);
    if (outcome !== 'recorded') return outcome;
    await this.writes.ensureModels();
    await this.writes.writeTranscripts();
    return 'recorded';
  }

  /** Resolves once every write asked for so far is on disk. */
  idle(): Promise<void> {
    return this.writes.idle();
  }

  /** Waits for the writes under way, writes the folder again if it was deleted, and releases the lock. */
  async close(): Promise<void> {
    await this.writes.idle();
    await this.checkFolder().catch(() => undefined);
    await this.writes.idle();
    await this.lock.release();
  }

  /** Runs {@link RecordedFolder.restoreIfDeleted}, once at a time. */
  private checkFolder(): Promise<void> {
    this.folderCheck ??= this.restoreIfDeleted().finally(() => (this.folderCheck = undefined));
    return this.folderCheck;
  }

  /**
   * When the folder was deleted while recording (its lock file is gone): writes every file again from memory
   * (`FolderWrites.rewriteAll`), and warns of it.
   */
  private async restoreIfDeleted(): Promise<void> {
    if (!(await this.lock.restoreIfMissing())) return;
    const lost = await this.writes.rewriteAll();
    this.warn(`the folder ${this.dir} was deleted while recording: written again from memory${lost > 0 ? ` (${lost} audio recordings deleted with it are no longer indexed)` : ''}`);
  }

  /** `models.json` as it is written (`KeptModels.modelsFile`). */
  modelsFile(): ModelsFile {
    return this.models.modelsFile();
  }
}
