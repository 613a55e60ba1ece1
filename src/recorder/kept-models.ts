/**
 * What the recorded folder's `models.json` holds, and which model answers it keeps and as what: model records
 * (a variant's as its base's, an alias record as an alias entry), plain aliases, providers, and the speech facts
 * of `kept-speech.ts`; each refused alone when it would make the file unloadable ({@link Refused}). Providers and
 * aliases of a model not (yet) recorded, and what discovery says of it, are held here and written once the model
 * is. How the file is written is `folder-writes.ts`'s.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import {
  ModelRecordSchema,
  type Alias,
  type ModelRecord,
  type ModelsFile,
  type ProviderEntry,
  type TranscriptionModelInfo,
} from '../core/formats/fixture-schema.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { FixtureError } from '../core/base/errors.js';
import { parseFixtures } from '../core/formats/validate-fixtures.js';
import { detailsLink, splitVariant } from '../core/catalog/variants.js';
import { isSavedCatalog, savedCatalogToModelsFile, transcriptionInfoOf } from '../core/formats/saved-catalog.js';
import { valueDepthOf } from '../core/base/json-depth.js';
import type { SpeechModelResponse } from '../core/catalog/speech-models.js';
import { loadFixtures } from '../node-platform/fixtures.js';
import { readConfigValue } from '../node-platform/read-config-file.js';
import { MeasuredEntries, prettyBytesAt } from './file-budget.js';
import { FILE_BYTES, NOT_JSON, RECORD_DEPTH, TOO_DEEP, measured, type ModelOutcome, type Outcome, type Refused, type StoppedKinds } from './refusals.js';
import { KeptSpeech } from './kept-speech.js';
import { speechEntriesOf, withDiscoveredVoices } from './speech-entries.js';
import { transcriptionEntriesOf } from './transcription-entries.js';

/** The models, aliases, providers and speech facts the folder's `models.json` holds, each measured. */
export class KeptModels {
  private readonly models = new MeasuredEntries<string, { record: ModelRecord; fromVariant: boolean }>();
  /** The ids of the models kept that output speech (each has a `speech` entry). */
  private readonly speechModels = new Set<string>();
  private readonly aliases = new MeasuredEntries<string, Alias>();
  /** The folder's own transcription entries (from the `models.json` it held), by model id. */
  private readonly transcription = new Map<string, TranscriptionModelInfo>();
  private readonly providers = new MeasuredEntries<string, ProviderEntry[]>();
  /** What the `speech` entries derive from besides the records. */
  readonly speech = new KeptSpeech();

  /** @param stopped the kinds no longer recorded, shared with the folder's other files. */
  constructor(private readonly stopped: StoppedKinds) {}

  /**
   * Reads what the folder's `models.json` (`file`, inside `dir`) holds, a saved catalog too.
   *
   * @returns whether the folder had a `models.json`.
   * @throws {FixtureError} when it is not valid.
   */
  load(file: string, dir: string): boolean {
    if (!existsSync(file)) return false;
    const value = readConfigValue(file, FixtureError, { within: dir });
    const parsed = parseFixtures(isSavedCatalog(value) ? savedCatalogToModelsFile(file, value, FixtureError, loadFixtures().speech, loadFixtures().transcription) : value, { generations: [] }, file);
    for (const record of parsed.models) this.setModel(record, false, prettyBytesAt(record, 2));
    for (const alias of parsed.aliases) this.aliases.set(alias.alias, alias, prettyBytesAt(alias, 2));
    for (const [id, info] of Object.entries(parsed.speech)) this.speech.own.set(id, info);
    for (const [id, info] of Object.entries(parsed.transcription ?? {})) this.transcription.set(id, info);
    for (const [id, entries] of Object.entries(parsed.providers ?? {})) this.providers.set(id, entries, prettyBytesAt(entries, 2, id));
    return true;
  }

  /**
   * Keeps a model record (a lookup's `data`, each of a list's `data`): a later record of an id replaces the earlier.
   * A variant's record (`<base>:free`) is kept under the base id, only while no record of the base itself was
   * recorded (its `id`, `name` suffix and `links.details` turned back into the base's; pricing as the variant's).
   * An alias record (`~author/family-latest`, with `alias_target`) becomes an alias entry. A record nesting deeper
   * than the folder limits allow, or that would take `models.json` past its bytes or records, is refused (see
   * {@link Refused}).
   */
  keepModel(value: unknown): ModelOutcome {
    const stopped = this.stopped.refusalOf('models');
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
    if (!this.models.has(kept.id) && this.models.size >= FOLDER_LIMITS.models) return this.stopped.stop('models', `models.json would hold more than ${FOLDER_LIMITS.models} model records`);
    const total = this.modelsBytes({ models: this.models.totalWith(kept.id, bytes), speaking: speaks ? kept : undefined });
    if (total > FILE_BYTES) return this.stopped.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
    this.setModel(kept, fromVariant, bytes);
    return 'recorded';
  }

  private setModel(record: ModelRecord, fromVariant: boolean, bytes: number): void {
    this.speech.bytesNow = undefined;
    this.models.set(record.id, { record, fromVariant }, bytes);
    if (record.architecture.output_modalities.includes('speech')) this.speechModels.add(record.id);
    else this.speechModels.delete(record.id);
  }

  /** Keeps `alias` unless `models.json` would then be full; @returns the refusal, or `undefined` when kept. */
  private keepAlias(alias: Alias): Refused | undefined {
    const bytes = measured(alias, 2);
    if (bytes === undefined) return NOT_JSON;
    if (this.modelsBytes({ aliases: this.aliases.totalWith(alias.alias, bytes) }) > FILE_BYTES) return this.stopped.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
    this.aliases.set(alias.alias, alias, bytes);
    return undefined;
  }

  /**
   * Keeps `alias` as another name of the model `target` (a lookup of `alias` answered `target`'s record: the
   * gateway's plain aliases), written once `target` is recorded.
   *
   * @returns `undefined` when there is nothing to keep (`alias` is `target` or a model's id).
   */
  keepPlainAlias(alias: string, target: string): Outcome | undefined {
    if (alias === target || this.models.has(alias)) return undefined;
    const refused = this.stopped.refusalOf('models') ?? this.keepAlias({ alias, target });
    if (refused !== undefined) return refused;
    return 'recorded';
  }

  /**
   * Keeps the providers of a model from its endpoints answer (replacing earlier ones); written with the model's
   * record, so held until one is recorded (and counted in the bytes of `models.json` meanwhile).
   */
  keepProviders(modelId: string, entries: readonly ProviderEntry[]): Outcome {
    const id = splitVariant(modelId)?.name ?? modelId;
    const stopped = this.stopped.refusalOf('models');
    if (stopped !== undefined) return stopped;
    const bytes = measured(entries, 2, id);
    if (bytes === undefined) return NOT_JSON;
    if (this.modelsBytes({ providers: this.providers.totalWith(id, bytes) }) > FILE_BYTES) return this.stopped.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
    this.providers.set(id, [...entries], bytes);
    this.speech.bytesNow = undefined;
    return 'recorded';
  }

  /** Keeps what speech model discovery answers say each model takes (`KeptSpeech.keepDiscovered`). */
  keepSpeechModels(answers: readonly SpeechModelResponse[]): { outcomes: Outcome[]; known: boolean } {
    return this.speech.keepDiscovered(answers, this.stopped, () => this.modelsBytes({}), (id) => this.models.has(id));
  }

  /** Whether a record of `modelId` is kept. */
  has(modelId: string): boolean {
    return this.models.has(modelId);
  }

  /**
   * The bytes of `models.json` (an upper bound): its models, aliases and providers (those held for models not yet
   * recorded too) and speech entries, with `change`'s totals in place of the current ones and `change.speaking` a
   * speech model to count.
   */
  modelsBytes(change: { models?: number; aliases?: number; providers?: number; speaking?: ModelRecord | undefined }): number {
    // The discovered voices replace records' own: counted in addition, an upper bound.
    return (change.models ?? this.models.total) + (change.aliases ?? this.aliases.total) + (change.providers ?? this.providers.total) + this.speech.discovery.total + this.speechBytes(change.speaking);
  }

  /** The bytes of the `speech` entries, with `speaking` (a speech model's record) among them when given. */
  private speechBytes(speaking?: ModelRecord): number {
    if (speaking === undefined && this.speech.bytesNow !== undefined) return this.speech.bytesNow;
    const ids = [...this.speechModels].filter((id) => id !== speaking?.id);
    const records = ids.map((id) => this.models.get(id)!.record);
    if (speaking !== undefined) records.push(speaking);
    const evidence = { own: this.speech.own, providers: this.knownProviders(records.map((r) => r.id)), formats: this.speech.formats, discovery: this.speech.discovery };
    const bytes = prettyBytesAt(speechEntriesOf(records, evidence), 1, 'speech');
    if (speaking === undefined) this.speech.bytesNow = bytes;
    return bytes;
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
    const models = [...this.models.values()].map((m) => withDiscoveredVoices(m.record, this.speech.discovery.get(m.record.id)));
    const ids = new Set(models.map((m) => m.id));
    const providers = this.knownProviders(ids);
    const speech = speechEntriesOf(models, { own: this.speech.own, providers, formats: this.speech.formats, discovery: this.speech.discovery });
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
