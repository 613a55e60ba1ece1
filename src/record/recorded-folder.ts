/**
 * The recorder's picture of its `--out` folder (issue 22; format: `src/core/config/recording-schema.ts`): what the
 * folder held at start plus what was recorded since, and the files that picture becomes. Every change rewrites the
 * files it touches whole, atomically (`folder-writer.ts`), so the folder loads after any crash.
 *
 * What each file holds is chosen so that `parseFixtures` (`src/core/config/validate-fixtures.ts`) always accepts it:
 * records are checked against their schema before they are kept; providers and aliases of a model not (yet)
 * recorded are held in memory and written once the model is; each speech model gets a `speech` entry.
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
} from '../core/config/fixture-schema.js';
import {
  AUDIO_FOLDER,
  AUDIO_INDEX_FILE,
  AudioIndexSchema,
  RECORDED_SCENARIO_FILE,
  type AudioRecording,
} from '../core/config/recording-schema.js';
import { validateConfig } from '../core/config/validate-config.js';
import { FixtureError, parseFixtures } from '../core/config/validate-fixtures.js';
import { detailsLink, splitVariant } from '../core/catalog/variants.js';
import { isSavedCatalog, savedCatalogToModelsFile } from '../core/catalog/saved-catalog.js';
import { loadFixtures } from '../node/fixtures.js';
import { readConfigValue } from '../node/read-config-file.js';
import { FolderWriter, removeLeftovers } from './folder-writer.js';
import { speechEntriesOf } from './speech-entries.js';
import { RecordedErrors, type RecordedError } from './recorded-errors.js';

export type { RecordedError } from './recorded-errors.js';

/** The folder's files, by role. */
export interface FolderFiles {
  models: string;
  generations: string;
  audioDir: string;
  audioIndex: string;
  scenario: string;
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
  };
}

/** How a model record was kept, or why not. */
export type ModelOutcome = 'recorded' | 'variant-of-known-base' | 'alias' | `invalid: ${string}`;

/** The recorded folder: its state in memory and the writes that keep the files in step. */
export class RecordedFolder {
  readonly files: FolderFiles;
  private readonly writer = new FolderWriter();
  private readonly models = new Map<string, { record: ModelRecord; fromVariant: boolean }>();
  private readonly aliases = new Map<string, Alias>();
  private readonly speech = new Map<string, SpeechModelInfo>();
  private readonly providers = new Map<string, ProviderEntry[]>();
  private readonly speechFormats = new Map<string, Set<'mp3' | 'pcm'>>();
  private readonly generations = new Map<string, GenerationRecord>();
  private readonly audio = new Map<string, AudioRecording>();
  private readonly errors: RecordedErrors;
  /** Whether `models.json` exists (it did at start, or a write of it was asked for). */
  private modelsWritten = false;

  private constructor(dir: string, upstream: string) {
    this.files = folderFiles(dir);
    this.errors = new RecordedErrors(upstream);
  }

  /**
   * Reads what `dir` already holds (nothing, for a new folder), so recording adds to it; removes the temporary
   * files a killed recorder left.
   *
   * @param upstream the upstream's origin and path (no credentials), named in the scenario's description.
   * @throws {FixtureError} when `models.json`, `generations.json` or `audio/index.json` exists and is not valid
   *   (the message names the file, the path inside it and what was expected).
   * @throws {ScenarioError} when `scenarios/recorded.yaml` exists and is not a valid scenario.
   */
  static async open(dir: string, upstream: string): Promise<RecordedFolder> {
    const folder = new RecordedFolder(dir, upstream);
    const { files } = folder;
    const owned = (name: string) => ['models.json', 'generations.json', AUDIO_INDEX_FILE, RECORDED_SCENARIO_FILE].includes(name) || /^[0-9a-f]{64}\.(mp3|pcm)$/.test(name);
    await removeLeftovers(dir, owned);
    await removeLeftovers(files.audioDir, owned);
    await removeLeftovers(join(dir, 'scenarios'), owned);
    folder.loadModels();
    folder.loadGenerations();
    folder.loadAudio();
    folder.loadScenario();
    // The folder as it will be written must load: the recorder never turns a valid folder into an invalid one.
    parseFixtures(folder.modelsFile(), { generations: [...folder.generations.values()] }, files.models, files.generations);
    return folder;
  }

  private loadModels(): void {
    const file = this.files.models;
    if (!existsSync(file)) return;
    this.modelsWritten = true;
    const value = readConfigValue(file, FixtureError);
    const parsed = parseFixtures(isSavedCatalog(value) ? savedCatalogToModelsFile(file, value, FixtureError, loadFixtures().speech) : value, { generations: [] }, file);
    for (const record of parsed.models) this.models.set(record.id, { record, fromVariant: false });
    for (const alias of parsed.aliases) this.aliases.set(alias.alias, alias);
    for (const [id, info] of Object.entries(parsed.speech)) this.speech.set(id, info);
    for (const [id, entries] of Object.entries(parsed.providers ?? {})) this.providers.set(id, entries);
  }

  private loadGenerations(): void {
    const file = this.files.generations;
    if (!existsSync(file)) return;
    const parsed = parseFixtures({ models: [], aliases: [], speech: {} }, readConfigValue(file, FixtureError), 'models.json', file);
    for (const record of parsed.generations) this.generations.set(record.id, record);
  }

  private loadAudio(): void {
    const file = this.files.audioIndex;
    if (!existsSync(file)) return;
    const index = validateConfig(file, readConfigValue(file, FixtureError), AudioIndexSchema, FixtureError);
    for (const entry of index.recordings) {
      this.audio.set(entry.key, entry);
      this.noteFormat(entry.key);
    }
  }

  private loadScenario(): void {
    const file = this.files.scenario;
    if (existsSync(file)) this.errors.load(file);
  }

  /**
   * Keeps model records (a lookup's `data`, each of a list's `data`): a later record of an id replaces the earlier.
   * A variant's record (`<base>:free`) is kept under the base id, only while no record of the base itself was
   * recorded (its `id`, `name` suffix and `links.details` turned back into the base's; pricing as the variant's).
   * An alias record (`~author/family-latest`, with `alias_target`) becomes an alias entry. Writes `models.json`.
   *
   * @returns the outcome of each record, in order.
   */
  async addModels(records: readonly unknown[]): Promise<ModelOutcome[]> {
    const outcomes = records.map((value) => this.keepModel(value));
    if (outcomes.some((o) => o === 'recorded' || o === 'alias')) await this.writeModels();
    return outcomes;
  }

  private keepModel(value: unknown): ModelOutcome {
    const parsed = ModelRecordSchema.safeParse(value);
    if (!parsed.success) return `invalid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd() as ModelOutcome;
    const record = parsed.data;
    const speaks = record.architecture.output_modalities.includes('speech');
    if (speaks && (record.supported_voices === null || record.supported_voices.length === 0)) return 'invalid: a speech model without supported_voices';
    if (record.alias_target !== undefined) {
      this.aliases.set(record.id, { alias: record.id, target: record.alias_target.slug, alias_target: true });
      return 'alias';
    }
    const parts = splitVariant(record.id);
    if (parts?.variant) {
      const known = this.models.get(parts.name);
      if (known !== undefined && !known.fromVariant) return 'variant-of-known-base';
      const suffix = ` (${parts.variant})`;
      const name = record.name.endsWith(suffix) ? record.name.slice(0, -suffix.length) : record.name;
      this.models.set(parts.name, { record: { ...record, id: parts.name, name, links: { ...record.links, details: detailsLink(parts.name) } }, fromVariant: true });
      return 'recorded';
    }
    this.models.set(record.id, { record, fromVariant: false });
    return 'recorded';
  }

  /**
   * Keeps `alias` as another name of the model `target` (a lookup of `alias` answered `target`'s record: the
   * gateway's plain aliases). Written once `target` is recorded. Writes `models.json`.
   */
  async addAlias(alias: string, target: string): Promise<void> {
    if (alias === target || this.models.has(alias)) return;
    this.aliases.set(alias, { alias, target });
    await this.writeModels();
  }

  /**
   * Keeps the providers of a model from its endpoints answer (replacing earlier ones); written with the model's
   * record, so held in memory until one is recorded. Writes `models.json`.
   */
  async addProviders(modelId: string, entries: readonly ProviderEntry[]): Promise<void> {
    if (entries.length === 0) return;
    this.providers.set(splitVariant(modelId)?.name ?? modelId, [...entries]);
    await this.writeModels();
  }

  /** Whether `modelId`'s providers will be in `models.json` now (its record is known). */
  knowsModel(modelId: string): boolean {
    return this.models.has(modelId);
  }

  /** Keeps a generation record, replacing one with the same id. Writes `generations.json`. */
  async addGeneration(value: unknown): Promise<string> {
    const parsed = GenerationRecordSchema.safeParse(value);
    if (!parsed.success) return `invalid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd();
    this.generations.set(parsed.data.id, parsed.data);
    await this.ensureModels();
    await this.writer.write(this.files.generations, () => json({ generations: [...this.generations.values()] }));
    return 'recorded';
  }

  /**
   * Keeps a speech answer: its bytes in `audio/<entry.file>` first, then `models.json` (rewritten when the model is
   * known, since its `response_formats` follow the formats recorded; written empty when there is none yet), then its
   * entry in `audio/index.json` (replacing the entry of the same key): so the index never names a file that is not
   * whole, and never exists without `models.json`.
   */
  async addAudio(entry: AudioRecording, bytes: Uint8Array): Promise<void> {
    await this.writer.write(join(this.files.audioDir, entry.file), () => bytes);
    this.audio.set(entry.key, entry);
    const model = this.noteFormat(entry.key);
    await (model !== undefined && this.models.has(model) ? this.writeModels() : this.ensureModels());
    await this.writer.write(this.files.audioIndex, () => json({ recordings: [...this.audio.values()] }));
  }

  /**
   * Keeps an error answer as a rule of the `recorded` scenario (`recorded-errors.ts`). Writes
   * `scenarios/recorded.yaml`.
   *
   * @returns the rule's name.
   */
  async addError(error: RecordedError): Promise<string> {
    const name = this.errors.add(error);
    await this.ensureModels();
    await this.writer.write(this.files.scenario, () => this.errors.text());
    return name;
  }

  /** Resolves once every write asked for so far is on disk. */
  idle(): Promise<void> {
    return this.writer.idle();
  }

  /** The response format of a recorded speech key, noted for its model's `response_formats`; returns the model. */
  private noteFormat(key: string): string | undefined {
    const body = JSON.parse(key) as { model?: unknown; response_format?: unknown };
    if (typeof body.model !== 'string' || (body.response_format !== 'mp3' && body.response_format !== 'pcm')) return undefined;
    const id = splitVariant(body.model)?.name ?? body.model;
    const formats = this.speechFormats.get(id) ?? new Set();
    formats.add(body.response_format);
    this.speechFormats.set(id, formats);
    return id;
  }

  private writeModels(): Promise<void> {
    this.modelsWritten = true;
    return this.writer.write(this.files.models, () => json(this.modelsFile()));
  }

  /**
   * Writes `models.json` once when the folder has none yet, so a folder holding anything recorded loads with
   * `--fixtures` (which requires it): an empty catalog until a model record is recorded.
   */
  private ensureModels(): Promise<void> | undefined {
    return this.modelsWritten ? undefined : this.writeModels();
  }

  /**
   * `models.json` as it is written: every model kept, the aliases and providers of known models, and a `speech`
   * entry for each speech model (`speechEntriesOf` of `speech-entries.ts`).
   */
  modelsFile(): ModelsFile {
    const models = [...this.models.values()].map((m) => m.record);
    const ids = new Set(models.map((m) => m.id));
    const providers: Record<string, ProviderEntry[]> = {};
    for (const [id, entries] of this.providers) if (ids.has(id)) providers[id] = entries;
    const speech = speechEntriesOf(models, { own: this.speech, providers, formats: this.speechFormats });
    const aliases = [...this.aliases.values()].filter((a) => ids.has(a.target) && !ids.has(a.alias));
    return { models, aliases, speech, ...(Object.keys(providers).length > 0 ? { providers } : {}) };
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
