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
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  GenerationRecordSchema,
  ModelRecordSchema,
  type Alias,
  type GenerationRecord,
  type ModelRecord,
  type ModelsFile,
  type ProviderEntry,
  type SpeechModelInfo,
  type TranscriptionModelInfo,
} from '../core/formats/fixture-schema.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import {
  AUDIO_FOLDER,
  AUDIO_INDEX_FILE,
  AudioIndexSchema,
  RECORDED_SCENARIO_FILE,
  type AudioRecording,
} from '../core/formats/recording-schema.js';
import { validateConfig } from '../core/base/validate-config.js';
import { FixtureError } from '../core/base/errors.js';
import { parseFixtures } from '../core/formats/validate-fixtures.js';
import { detailsLink, splitVariant } from '../core/catalog/variants.js';
import { isSavedCatalog, savedCatalogToModelsFile, transcriptionInfoOf } from '../core/formats/saved-catalog.js';
import { jsonDepthOf, valueDepthOf } from '../core/base/json-depth.js';
import { loadFixtures } from '../node-platform/fixtures.js';
import { readConfigValue } from '../node-platform/read-config-file.js';
import { MeasuredEntries, prettyBytesAt } from './file-budget.js';
import { acquireFolderLock, type FolderLock } from './folder-lock.js';
import { FolderWriter, removeLeftovers } from './folder-writer.js';
import { discoveryOf, speechEntriesOf, withDiscoveredVoices, type SpeechDiscovery } from './speech-entries.js';
import { transcriptionEntriesOf } from './transcription-entries.js';
import type { SpeechModelResponse } from '../core/catalog/speech-models.js';
import { RecordedErrors, type RecordedError } from './recorded-errors.js';
import { RecordedTranscripts } from './recorded-transcripts.js';
import { TRANSCRIPTS_FILE, type FixtureTranscript } from '../core/formats/transcript-schema.js';

export type { RecordedError } from './recorded-errors.js';

/** The folder's files, by role. */
export interface FolderFiles {
  models: string;
  generations: string;
  audioDir: string;
  audioIndex: string;
  scenario: string;
  transcripts: string;
}

/** The paths of the files of the recorded folder `dir`. */
export function folderFiles(dir: string): FolderFiles {
  const audioDir = join(dir, AUDIO_FOLDER);
  return {
    models: join(dir, 'models.json'),
    generations: join(dir, 'generations.json'),
    audioDir,
    audioIndex: join(audioDir, AUDIO_INDEX_FILE),
    scenario: join(dir, 'scenarios', RECORDED_SCENARIO_FILE),
    transcripts: join(dir, TRANSCRIPTS_FILE),
  };
}

/**
 * Why the folder did not keep something. `warn` marks what the recorder warns of: each record refused for what it
 * is (too deep, too large, not writable), and the first refusal of a kind whose file is full; later refusals of a
 * full kind are not warned of again.
 */
export interface Refused {
  refused: string;
  warn: boolean;
}

/** How a model record was kept, or why not. */
export type ModelOutcome = 'recorded' | 'variant-of-known-base' | 'alias' | `invalid: ${string}` | Refused;

/** How a generation, a speech answer, providers or an error answer were kept, or why not. */
export type Outcome = 'recorded' | `invalid: ${string}` | Refused;

/** The kinds of recording, each stopped on its own once its file (or the audio) is full. */
type Kind = 'models' | 'generations' | 'audio' | 'errors' | 'transcripts';

/** How deep a record may nest: it sits 2 deep in its file (`{"models": [<record>]}`). */
const RECORD_DEPTH = FOLDER_LIMITS.depth - 2;

/**
 * The bytes a file may take: `FOLDER_LIMITS.fileBytes` less room for what grows without a new record (a speech
 * entry's `response_formats`, a rule's `times`) and for the file's own braces and names.
 */
const FILE_BYTES = FOLDER_LIMITS.fileBytes - 64 * 1024;

/** The bytes `value` takes in its file ({@link prettyBytesAt}), or `undefined` when it cannot be written as JSON. */
function measured(value: unknown, level: number, name?: string): number | undefined {
  try {
    return prettyBytesAt(value, level, name);
  } catch {
    return undefined;
  }
}

const NOT_JSON: Refused = { refused: 'cannot be written as JSON', warn: true };
const TOO_DEEP: Refused = { refused: `nests deeper than the ${FOLDER_LIMITS.depth} levels a file may hold`, warn: true };

/** Options of {@link RecordedFolder.open}. */
export interface RecordedFolderOptions {
  /** Where the folder's own warnings go (a folder deleted while recording); none by default. */
  warn?: ((message: string) => void) | undefined;
}

/** The recorded folder: its state in memory and the writes that keep the files in step. */
export class RecordedFolder {
  readonly files: FolderFiles;
  private readonly writer = new FolderWriter();
  private readonly models = new MeasuredEntries<string, { record: ModelRecord; fromVariant: boolean }>();
  /** The ids of the models kept that output speech (each has a `speech` entry). */
  private readonly speechModels = new Set<string>();
  private readonly aliases = new MeasuredEntries<string, Alias>();
  private readonly speech = new Map<string, SpeechModelInfo>();
  /** The folder's own transcription entries (from the `models.json` it held), by model id. */
  private readonly transcription = new Map<string, TranscriptionModelInfo>();
  private readonly providers = new MeasuredEntries<string, ProviderEntry[]>();
  private readonly speechFormats = new Map<string, Set<'mp3' | 'pcm'>>();
  /** What the speech model discovery answers recorded say, by model id (measured: a voice list may be long). */
  private readonly discovery = new MeasuredEntries<string, SpeechDiscovery>();
  private readonly generations = new MeasuredEntries<string, GenerationRecord>();
  private readonly audio = new MeasuredEntries<string, AudioRecording>();
  /** Keys of speech answers whose file is being written: not in the index until it is. */
  private readonly audioPending = new Set<string>();
  /** The bytes of the audio files the index names (or will, once written). */
  private audioBytes = 0;
  private readonly errors: RecordedErrors;
  private readonly transcripts = new RecordedTranscripts();
  /** Kinds no longer recorded, with what filled up. */
  private readonly stopped = new Map<Kind, string>();
  /** The first write of `models.json` (resolved when the folder had one), which every other file waits for. */
  private modelsReady: Promise<void> | undefined;
  /** The check for a deleted folder under way ({@link RecordedFolder.restoreIfDeleted}). */
  private folderCheck: Promise<void> | undefined;
  /** The bytes of the `speech` entries as they stand, once measured (forgotten when what they derive from changes). */
  private speechBytesNow: number | undefined;
  /** Whether `models.json` is left as the folder had it (it would pass the limit once written again). */
  private modelsKept = false;

  private constructor(
    private readonly dir: string,
    upstream: string,
    private readonly lock: FolderLock,
    private readonly warn: (message: string) => void,
  ) {
    this.files = folderFiles(dir);
    this.errors = new RecordedErrors(upstream);
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
      folder.loadModels();
      folder.loadGenerations();
      folder.loadAudio();
      folder.loadScenario();
      folder.transcripts.load(dir);
      // The folder as it will be written must load: the recorder never turns a valid folder into an invalid one.
      parseFixtures(folder.modelsFile(), { generations: [...folder.generations.values()] }, files.models, files.generations);
      if (folder.modelsBytes({}) > FILE_BYTES) {
        // A models.json written compact (a saved catalog) may pass the limit once written again, indented: kept as is.
        folder.modelsKept = true;
        folder.stopped.set('models', `models.json would pass ${FILE_BYTES} bytes once written again`);
      }
      return folder;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private loadModels(): void {
    const file = this.files.models;
    if (!existsSync(file)) return;
    this.modelsReady = Promise.resolve();
    const value = readConfigValue(file, FixtureError, { within: this.dir });
    const parsed = parseFixtures(isSavedCatalog(value) ? savedCatalogToModelsFile(file, value, FixtureError, loadFixtures().speech, loadFixtures().transcription) : value, { generations: [] }, file);
    for (const record of parsed.models) this.setModel(record, false, prettyBytesAt(record, 2));
    for (const alias of parsed.aliases) this.aliases.set(alias.alias, alias, prettyBytesAt(alias, 2));
    for (const [id, info] of Object.entries(parsed.speech)) this.speech.set(id, info);
    for (const [id, info] of Object.entries(parsed.transcription ?? {})) this.transcription.set(id, info);
    for (const [id, entries] of Object.entries(parsed.providers ?? {})) this.providers.set(id, entries, prettyBytesAt(entries, 2, id));
  }

  private loadGenerations(): void {
    const file = this.files.generations;
    if (!existsSync(file)) return;
    const parsed = parseFixtures({ models: [], aliases: [], speech: {} }, readConfigValue(file, FixtureError, { within: this.dir }), 'models.json', file);
    for (const record of parsed.generations) this.generations.set(record.id, record, prettyBytesAt(record, 2));
  }

  private loadAudio(): void {
    const file = this.files.audioIndex;
    if (!existsSync(file)) return;
    const index = validateConfig(file, readConfigValue(file, FixtureError, { within: this.dir }), AudioIndexSchema, FixtureError);
    for (const entry of index.recordings) {
      this.setAudio(entry, prettyBytesAt(entry, 2));
      this.noteFormat(entry.key);
    }
  }

  private loadScenario(): void {
    const file = this.files.scenario;
    if (existsSync(file)) this.errors.load(file, this.dir);
  }

  /**
   * Keeps model records (a lookup's `data`, each of a list's `data`): a later record of an id replaces the earlier.
   * A variant's record (`<base>:free`) is kept under the base id, only while no record of the base itself was
   * recorded (its `id`, `name` suffix and `links.details` turned back into the base's; pricing as the variant's).
   * An alias record (`~author/family-latest`, with `alias_target`) becomes an alias entry. A record nesting deeper
   * than the folder limits allow, or that would take `models.json` past its bytes or records, is refused (see
   * {@link Refused}). Writes `models.json`.
   *
   * @returns the outcome of each record, in order.
   */
  async addModels(records: readonly unknown[]): Promise<ModelOutcome[]> {
    await this.checkFolder();
    const outcomes = records.map((value) => this.keepModel(value));
    if (outcomes.some((o) => o === 'recorded' || o === 'alias')) await this.writeModels();
    return outcomes;
  }

  private keepModel(value: unknown): ModelOutcome {
    const stopped = this.refusalOfStopped('models');
    if (stopped !== undefined) return stopped;
    if (valueDepthOf(value, RECORD_DEPTH) > RECORD_DEPTH) return TOO_DEEP;
    const parsed = ModelRecordSchema.safeParse(value);
    if (!parsed.success) return `invalid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd() as ModelOutcome;
    const record = parsed.data;
    const speaks = record.architecture.output_modalities.includes('speech');
    // `null`: any voice id (`{type: "unknown"}` of the discovery reads); an empty list is refused by `--fixtures`.
    if (speaks && record.supported_voices !== null && record.supported_voices.length === 0) return 'invalid: a speech model without supported_voices';
    if (record.alias_target !== undefined) {
      const alias: Alias = { alias: record.id, target: record.alias_target.slug, alias_target: true };
      return this.keepAlias(alias) ?? 'alias';
    }
    const parts = splitVariant(record.id);
    let kept = record;
    let fromVariant = false;
    if (parts?.variant) {
      const known = this.models.get(parts.name);
      if (known !== undefined && !known.fromVariant) return 'variant-of-known-base';
      const suffix = ` (${parts.variant})`;
      const name = record.name.endsWith(suffix) ? record.name.slice(0, -suffix.length) : record.name;
      kept = { ...record, id: parts.name, name, links: { ...record.links, details: detailsLink(parts.name) } };
      fromVariant = true;
    }
    // A transcription model's entry in `transcription` is counted with its record.
    let bytes = measured(kept, 2);
    if (bytes === undefined) return NOT_JSON;
    if (kept.architecture.output_modalities.includes('transcription')) {
      bytes += prettyBytesAt(this.transcription.get(kept.id) ?? transcriptionInfoOf(kept, loadFixtures().transcription), 2, kept.id);
    }
    if (!this.models.has(kept.id) && this.models.size >= FOLDER_LIMITS.models) return this.stop('models', `models.json would hold more than ${FOLDER_LIMITS.models} model records`);
    const total = this.modelsBytes({ models: this.models.totalWith(kept.id, bytes), speaking: speaks ? kept : undefined });
    if (total > FILE_BYTES) return this.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
    this.setModel(kept, fromVariant, bytes);
    return 'recorded';
  }

  private setModel(record: ModelRecord, fromVariant: boolean, bytes: number): void {
    this.speechBytesNow = undefined;
    this.models.set(record.id, { record, fromVariant }, bytes);
    if (record.architecture.output_modalities.includes('speech')) this.speechModels.add(record.id);
    else this.speechModels.delete(record.id);
  }

  /** Keeps `alias` unless `models.json` would then be full; @returns the refusal, or `undefined` when kept. */
  private keepAlias(alias: Alias): Refused | undefined {
    const bytes = measured(alias, 2);
    if (bytes === undefined) return NOT_JSON;
    if (this.modelsBytes({ aliases: this.aliases.totalWith(alias.alias, bytes) }) > FILE_BYTES) return this.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
    this.aliases.set(alias.alias, alias, bytes);
    return undefined;
  }

  /**
   * Keeps `alias` as another name of the model `target` (a lookup of `alias` answered `target`'s record: the
   * gateway's plain aliases). Written once `target` is recorded. Writes `models.json`.
   *
   * @returns `undefined` when there is nothing to keep (`alias` is `target` or a model's id).
   */
  async addAlias(alias: string, target: string): Promise<Outcome | undefined> {
    await this.checkFolder();
    if (alias === target || this.models.has(alias)) return undefined;
    const refused = this.refusalOfStopped('models') ?? this.keepAlias({ alias, target });
    if (refused !== undefined) return refused;
    await this.writeModels();
    return 'recorded';
  }

  /**
   * Keeps the providers of a model from its endpoints answer (replacing earlier ones); written with the model's
   * record, so held in memory until one is recorded (and counted in the bytes of `models.json` meanwhile). Writes
   * `models.json`.
   */
  async addProviders(modelId: string, entries: readonly ProviderEntry[]): Promise<Outcome> {
    await this.checkFolder();
    const id = splitVariant(modelId)?.name ?? modelId;
    const stopped = this.refusalOfStopped('models');
    if (stopped !== undefined) return stopped;
    const bytes = measured(entries, 2, id);
    if (bytes === undefined) return NOT_JSON;
    if (this.modelsBytes({ providers: this.providers.totalWith(id, bytes) }) > FILE_BYTES) return this.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
    this.providers.set(id, [...entries], bytes);
    this.speechBytesNow = undefined;
    await this.writeModels();
    return 'recorded';
  }

  /**
   * Keeps what speech model discovery answers (`GET /audio/speech/models`, `.../{author}/{slug}`) say each model
   * takes ({@link discoveryOf}), replacing what an earlier answer said of it; held in memory (counted in the bytes
   * of `models.json`) and applied, on writing, to the model's record (`supported_voices`) and `speech` entry once
   * its record is recorded. Writes `models.json` when a model it names is known.
   *
   * @returns the outcome of each answer, in order.
   */
  async addSpeechModels(answers: readonly SpeechModelResponse[]): Promise<Outcome[]> {
    await this.checkFolder();
    let known = false;
    const outcomes = answers.map((answer): Outcome => {
      const stopped = this.refusalOfStopped('models');
      if (stopped !== undefined) return stopped;
      const id = splitVariant(answer.id)?.name ?? answer.id;
      const discovery = discoveryOf(answer);
      const bytes = measured(discovery.voices, 2, 'supported_voices');
      if (bytes === undefined) return NOT_JSON;
      if (!this.discovery.has(id) && this.discovery.size >= FOLDER_LIMITS.models) return this.stop('models', `more than ${FOLDER_LIMITS.models} speech models were listed`);
      const before = this.discovery.get(id);
      this.discovery.set(id, discovery, bytes);
      this.speechBytesNow = undefined;
      if (this.modelsBytes({}) > FILE_BYTES) {
        if (before === undefined) this.discovery.delete(id);
        else this.discovery.set(id, before, measured(before.voices, 2, 'supported_voices') ?? 0);
        this.speechBytesNow = undefined;
        return this.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
      }
      known ||= this.models.has(id);
      return 'recorded';
    });
    if (known) await this.writeModels();
    return outcomes;
  }

  /** Whether `modelId`'s providers will be in `models.json` now (its record is known). */
  knowsModel(modelId: string): boolean {
    return this.models.has(modelId);
  }

  /**
   * Keeps a generation record, replacing one with the same id, unless it nests too deep or `generations.json`
   * would pass its bytes or records. Writes `generations.json` (after `models.json`).
   */
  async addGeneration(value: unknown): Promise<Outcome> {
    await this.checkFolder();
    const stopped = this.refusalOfStopped('generations');
    if (stopped !== undefined) return stopped;
    if (valueDepthOf(value, RECORD_DEPTH) > RECORD_DEPTH) return TOO_DEEP;
    const parsed = GenerationRecordSchema.safeParse(value);
    if (!parsed.success) return `invalid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd() as Outcome;
    const record = parsed.data;
    const bytes = measured(record, 2);
    if (bytes === undefined) return NOT_JSON;
    if (!this.generations.has(record.id) && this.generations.size >= FOLDER_LIMITS.generations) {
      return this.stop('generations', `generations.json would hold more than ${FOLDER_LIMITS.generations} records`);
    }
    if (this.generations.totalWith(record.id, bytes) > FILE_BYTES) return this.stop('generations', `generations.json would pass ${FILE_BYTES} bytes`);
    this.generations.set(record.id, record, bytes);
    await this.ensureModels();
    await this.writeGenerations();
    return 'recorded';
  }

  /**
   * Keeps a speech answer: `models.json` first when the folder has none, then its bytes in `audio/<entry.file>`,
   * then `models.json` (rewritten when the model is known, since its `response_formats` follow the formats
   * recorded), then its entry in `audio/index.json` (replacing the entry of the same key, which leaves the index
   * while its file is rewritten): so the index never names a file that is not whole. Refused when the request nests
   * too deep, the file would pass `FOLDER_LIMITS.audioFileBytes`, or the audio, the recordings or the index would
   * pass theirs.
   */
  async addAudio(entry: AudioRecording, bytes: Uint8Array): Promise<Outcome> {
    await this.checkFolder();
    const stopped = this.refusalOfStopped('audio');
    if (stopped !== undefined) return stopped;
    if (jsonDepthOf(entry.key, FOLDER_LIMITS.depth) > FOLDER_LIMITS.depth) return { refused: `its request nests deeper than the ${FOLDER_LIMITS.depth} levels a file may hold`, warn: true };
    if (bytes.length > FOLDER_LIMITS.audioFileBytes) return { refused: `${bytes.length} bytes of audio, more than the ${FOLDER_LIMITS.audioFileBytes} bytes a recorded file may hold`, warn: true };
    const indexBytes = measured(entry, 2);
    if (indexBytes === undefined) return NOT_JSON;
    const known = this.audio.get(entry.key);
    if (known === undefined && this.audio.size >= FOLDER_LIMITS.recordings) return this.stop('audio', `audio/index.json would hold more than ${FOLDER_LIMITS.recordings} recordings`);
    if (this.audioBytes - (known?.bytes ?? 0) + bytes.length > FOLDER_LIMITS.audioTotalBytes) return this.stop('audio', `the audio would pass ${FOLDER_LIMITS.audioTotalBytes} bytes in all`);
    if (this.audio.totalWith(entry.key, indexBytes) > FILE_BYTES) return this.stop('audio', `audio/index.json would pass ${FILE_BYTES} bytes`);
    const wasIndexed = known !== undefined && !this.audioPending.has(entry.key);
    this.setAudio(entry, indexBytes);
    this.audioPending.add(entry.key);
    const ours = () => this.audio.get(entry.key) === entry;
    try {
      await this.ensureModels();
      // The entry of the same key leaves the index before its file changes under it.
      if (wasIndexed) await this.writeIndex();
      await this.writer.write(join(this.files.audioDir, entry.file), () => bytes);
    } catch (error) {
      if (ours()) {
        this.audioPending.delete(entry.key);
        this.deleteAudio(entry.key);
      }
      throw error;
    }
    if (ours()) this.audioPending.delete(entry.key);
    const model = this.noteFormat(entry.key);
    if (model !== undefined && this.models.has(model)) await this.writeModels();
    await this.writeIndex();
    return 'recorded';
  }

  private setAudio(entry: AudioRecording, indexBytes: number): void {
    this.audioBytes += entry.bytes - (this.audio.get(entry.key)?.bytes ?? 0);
    this.audio.set(entry.key, entry, indexBytes);
  }

  private deleteAudio(key: string): void {
    this.audioBytes -= this.audio.get(key)?.bytes ?? 0;
    this.audio.delete(key);
  }

  /**
   * Keeps an error answer as a rule of the `recorded` scenario (`recorded-errors.ts`), unless the rule is not one
   * the scenario format takes or the file would pass its bytes. Writes `scenarios/recorded.yaml` (after
   * `models.json`).
   *
   * @returns the rule's name, or why it was not kept.
   */
  async addError(error: RecordedError): Promise<{ rule: string } | Refused> {
    await this.checkFolder();
    const stopped = this.refusalOfStopped('errors');
    if (stopped !== undefined) return stopped;
    const outcome = this.errors.add(error, FILE_BYTES);
    if ('problem' in outcome) return outcome.full ? this.stop('errors', outcome.problem) : { refused: outcome.problem, warn: true };
    await this.ensureModels();
    await this.writeScenario();
    return { rule: outcome.name };
  }

  /**
   * Keeps the transcript of the audio whose SHA-256 is `sha256` (`recorded-transcripts.ts`), unless
   * `transcripts.json` would pass its entries or bytes. Writes `transcripts.json` (after `models.json`).
   */
  async addTranscript(sha256: string, transcript: FixtureTranscript): Promise<Outcome> {
    await this.checkFolder();
    const stopped = this.refusalOfStopped('transcripts');
    if (stopped !== undefined) return stopped;
    const outcome = this.transcripts.add(sha256, transcript, FILE_BYTES);
    if (outcome !== 'recorded') return outcome.full ? this.stop('transcripts', outcome.problem) : { refused: outcome.problem, warn: true };
    await this.ensureModels();
    await this.writeTranscripts();
    return 'recorded';
  }

  /** Resolves once every write asked for so far is on disk. */
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** Waits for the writes under way, writes the folder again if it was deleted, and releases the lock. */
  async close(): Promise<void> {
    await this.writer.idle();
    await this.checkFolder().catch(() => undefined);
    await this.writer.idle();
    await this.lock.release();
  }

  /** The refusal for a kind no longer recorded (not warned of again), or `undefined` while it is recorded. */
  private refusalOfStopped(kind: Kind): Refused | undefined {
    const full = this.stopped.get(kind);
    return full === undefined ? undefined : { refused: `${full}; ${kind} are no longer recorded in this run`, warn: false };
  }

  /** Stops recording `kind`, because `full`; the refusal warned of. */
  private stop(kind: Kind, full: string): Refused {
    this.stopped.set(kind, full);
    return { refused: `${full} (the most --fixtures reads); ${kind} are no longer recorded in this run`, warn: true };
  }

  /**
   * The bytes of `models.json` (an upper bound): its models, aliases and providers (those held for models not yet
   * recorded too) and speech entries, with `change`'s totals in place of the current ones and `change.speaking` a
   * speech model to count.
   */
  private modelsBytes(change: { models?: number; aliases?: number; providers?: number; speaking?: ModelRecord | undefined }): number {
    // The discovered voices replace records' own: counted in addition, an upper bound.
    return (change.models ?? this.models.total) + (change.aliases ?? this.aliases.total) + (change.providers ?? this.providers.total) + this.discovery.total + this.speechBytes(change.speaking);
  }

  /** The bytes of the `speech` entries, with `speaking` (a speech model's record) among them when given. */
  private speechBytes(speaking?: ModelRecord): number {
    if (speaking === undefined && this.speechBytesNow !== undefined) return this.speechBytesNow;
    const ids = [...this.speechModels].filter((id) => id !== speaking?.id);
    const records = ids.map((id) => this.models.get(id)!.record);
    if (speaking !== undefined) records.push(speaking);
    const evidence = { own: this.speech, providers: this.knownProviders(records.map((r) => r.id)), formats: this.speechFormats, discovery: this.discovery };
    const bytes = prettyBytesAt(speechEntriesOf(records, evidence), 1, 'speech');
    if (speaking === undefined) this.speechBytesNow = bytes;
    return bytes;
  }

  /** The response format of a recorded speech key, noted for its model's `response_formats`; returns the model. */
  private noteFormat(key: string): string | undefined {
    const body = JSON.parse(key) as { model?: unknown; response_format?: unknown };
    if (typeof body.model !== 'string' || (body.response_format !== 'mp3' && body.response_format !== 'pcm')) return undefined;
    const id = splitVariant(body.model)?.name ?? body.model;
    const formats = this.speechFormats.get(id) ?? new Set();
    if (!formats.has(body.response_format)) this.speechBytesNow = undefined;
    formats.add(body.response_format);
    this.speechFormats.set(id, formats);
    return id;
  }

  private writeModels(): Promise<void> {
    if (this.modelsKept) return Promise.resolve();
    const written = this.writer.write(this.files.models, () => json(this.modelsFile()));
    if (this.modelsReady === undefined) {
      this.modelsReady = written;
      written.catch(() => {
        if (this.modelsReady === written) this.modelsReady = undefined;
      });
    }
    return written;
  }

  /**
   * Resolves once `models.json` is on disk, writing it when the folder has none yet, so that a folder holding
   * anything recorded loads with `--fixtures` (which requires it): an empty catalog until a model is recorded.
   */
  private ensureModels(): Promise<void> {
    return this.modelsReady ?? this.writeModels();
  }

  private writeGenerations(): Promise<void> {
    return this.writer.write(this.files.generations, () => json({ generations: [...this.generations.values()] }));
  }

  private writeIndex(): Promise<void> {
    return this.writer.write(this.files.audioIndex, () => json({ recordings: [...this.audio.entries()].filter(([key]) => !this.audioPending.has(key)).map(([, entry]) => entry) }));
  }

  private writeScenario(): Promise<void> {
    return this.writer.write(this.files.scenario, () => this.errors.text());
  }

  private writeTranscripts(): Promise<void> {
    return this.writer.write(this.files.transcripts, () => this.transcripts.text());
  }

  /** Runs {@link RecordedFolder.restoreIfDeleted}, once at a time. */
  private checkFolder(): Promise<void> {
    this.folderCheck ??= this.restoreIfDeleted().finally(() => (this.folderCheck = undefined));
    return this.folderCheck;
  }

  /**
   * When the folder was deleted while recording (its lock file is gone): writes every file again from memory,
   * `models.json` first, the audio whose file was deleted with it dropped from the index.
   */
  private async restoreIfDeleted(): Promise<void> {
    if (!(await this.lock.restoreIfMissing())) return;
    this.modelsReady = undefined;
    // A models.json left as the folder had it is written again as compact as it came.
    if (this.modelsKept) this.modelsReady = this.writer.write(this.files.models, () => JSON.stringify(this.modelsFile()));
    await this.ensureModels();
    let lost = 0;
    for (const [key, entry] of [...this.audio.entries()]) {
      if (this.audioPending.has(key) || existsSync(join(this.files.audioDir, entry.file))) continue;
      this.deleteAudio(key);
      lost++;
    }
    await Promise.all([
      this.generations.size > 0 ? this.writeGenerations() : undefined,
      this.errors.size > 0 ? this.writeScenario() : undefined,
      this.transcripts.size > 0 ? this.writeTranscripts() : undefined,
      this.audio.size > 0 || lost > 0 ? this.writeIndex() : undefined,
    ]);
    this.warn(`the folder ${this.dir} was deleted while recording: written again from memory${lost > 0 ? ` (${lost} audio recordings deleted with it are no longer indexed)` : ''}`);
  }

  /** The providers held for those of `ids` that are models kept (or will be: `ids` may name a candidate). */
  private knownProviders(ids: Iterable<string>): Record<string, ProviderEntry[]> {
    // No prototype: a model id such as `__proto__` is a key like any other.
    const providers = Object.create(null) as Record<string, ProviderEntry[]>;
    for (const id of ids) {
      const entries = this.providers.get(id);
      if (entries !== undefined) providers[id] = entries;
    }
    return providers;
  }

  /**
   * `models.json` as it is written: every model kept, the aliases and providers of known models, a `speech`
   * entry for each speech model (`speechEntriesOf` of `speech-entries.ts`) and a `transcription` entry for each
   * speech-to-text model (`transcriptionEntriesOf` of `transcription-entries.ts`, when there is one); a speech model
   * whose discovery answer was recorded with its voices as that answer lists them.
   */
  modelsFile(): ModelsFile {
    const models = [...this.models.values()].map((m) => withDiscoveredVoices(m.record, this.discovery.get(m.record.id)));
    const ids = new Set(models.map((m) => m.id));
    const providers = this.knownProviders(ids);
    const speech = speechEntriesOf(models, { own: this.speech, providers, formats: this.speechFormats, discovery: this.discovery });
    const transcription = transcriptionEntriesOf(models, this.transcription, providers);
    const aliases = [...this.aliases.values()].filter((a) => ids.has(a.target) && !ids.has(a.alias));
    return {
      models,
      aliases,
      speech,
      ...(Object.keys(transcription).length > 0 ? { transcription } : {}),
      ...(Object.keys(providers).length > 0 ? { providers } : {}),
    };
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
