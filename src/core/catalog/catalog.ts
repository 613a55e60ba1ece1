/**
 * The model catalog: model lookup by id, variant suffix or alias, with the serialized answer memoized. No HTTP here;
 * the adapters call {@link Catalog.body} and write the string.
 *
 * @module
 */
import { boundedMap } from '../base/bounded-map.js';
import { entryOf, type Alias, type Fixtures, type ModelRecord, type ProviderEntry, type SpeechModelInfo, type TranscriptionModelInfo } from '../formats/fixture-schema.js';
import { applyVariant, detailsLink, splitVariant } from './variants.js';
import type { Variant } from './variants.js';

/**
 * The outcome of a successful lookup.
 *
 * All objects in it are frozen and shared between calls: copy before changing anything.
 */
export interface ResolvedModel {
  /**
   * The Model record the gateway returns in `data` for the id that was asked for (operation `getModel`;
   * `docs/behaviour.md`, "Model lookup"): the base record, the variant's record (its `id` keeps the suffix, its
   * `canonical_slug` stays the base's), or an alias's answer (a plain alias returns its target's record unchanged; a
   * `~author/family-latest` alias returns the target's record with `id` set to the alias and
   * `alias_target: { slug, name }` naming the concrete model).
   */
  record: ModelRecord;
  /** Id of the base model in `fixtures/models.json` the answer comes from (alias and variant suffix resolved). */
  baseId: string;
  /** The variant suffix that was asked for, or null. */
  variant: Variant | null;
  /**
   * Speech facts of the base model (provider, accepted formats, longest input in characters) when it is a speech
   * model (its `architecture.output_modalities` include `speech`), else null. Variants and aliases share the base's.
   */
  speech: SpeechModelInfo | null;
  /**
   * Transcription facts of the base model (provider, billing, what it takes) when it is a speech-to-text model (its
   * `architecture.output_modalities` include `transcription`), else null. Variants and aliases share the base's.
   */
  transcription: TranscriptionModelInfo | null;
}

/** Model lookup over one set of fixtures. Create it with {@link createCatalog}. */
export interface Catalog {
  /**
   * Looks a model up.
   *
   * @param id An already percent-decoded `author/slug`, optionally followed by `:<variant>` (one of `free, nitro,
   *   floor, online, thinking, extended, exacto`), or a known alias (also with an optional variant suffix). Matching
   *   is exact (case-sensitive). An id that is itself listed in `models.json` (even one containing a colon) wins over
   *   any other reading.
   * @returns The resolved model, or undefined when the id is unknown, the suffix is not a variant, or more than one
   *   suffix is given (the gateway answers 404 then; `docs/behaviour.md`, "Model lookup").
   */
  resolve(id: string): ResolvedModel | undefined;
  /**
   * The exact JSON text of the 200 answer of `GET /model/{author}/{slug}` for `id`: `{"data":<record>}`, equal to
   * `JSON.stringify({ data: resolve(id).record })`. Precomputed for base ids; computed once for a variant or alias id
   * and kept in a bounded cache, so serving it needs no per-request serialization.
   *
   * @returns The JSON text, or undefined when {@link Catalog.resolve} gives undefined.
   */
  body(id: string): string | undefined;
  /**
   * {@link Catalog.body} as UTF-8 bytes, encoded on first use and kept with the text, so an answer needs neither a
   * per-request encoding nor a scan for its length in bytes. Shared between calls: never write into it.
   *
   * @returns The bytes, or undefined when {@link Catalog.resolve} gives undefined.
   */
  bytes(id: string): Uint8Array | undefined;
  /**
   * Speech facts for the model `id` stands for (same id rules as {@link Catalog.resolve}).
   *
   * @returns The entry, or undefined when the id is unknown or the model is not a speech model.
   */
  speechModel(id: string): SpeechModelInfo | undefined;
  /** Ids of the base models, in file order (no variants, no aliases). */
  ids(): string[];
  /** The base records, in file order (frozen; the list `getModels` filters). */
  models(): readonly ModelRecord[];
  /**
   * The providers that serve the base model `baseId`, first = the one requests are routed to: its entry in the
   * `providers` map of `models.json`, else one provider named by its speech entry or by the part of its `name`
   * before `: ` (`OpenAI: GPT-4o` → `OpenAI`). Empty for an unknown id.
   */
  providers(baseId: string): readonly ProviderEntry[];
  /** The aliases, in file order. */
  aliases(): readonly Alias[];
}

/** Options of {@link createCatalog}. */
export interface CatalogOptions {
  /** Most variant and alias answers kept memoized at once (least recently used dropped first). Default 1024. */
  cacheSize?: number;
}

interface Entry {
  resolved: ResolvedModel;
  body: string;
  /** `body` as UTF-8, once asked for. */
  bytes?: Uint8Array;
}

const utf8 = new TextEncoder();

/**
 * Builds the catalog over validated fixtures (see `loadFixtures`). The fixture records are deep-copied and frozen;
 * the `fixtures` object passed in is not modified.
 */
export function createCatalog(fixtures: Fixtures, options: CatalogOptions = {}): Catalog {
  const cacheSize = Math.max(0, options.cacheSize ?? 1024);
  const base = new Map<string, Entry>();
  for (const model of fixtures.models) {
    const record = deepFreeze(structuredClone(model));
    const speech = entryOf(fixtures.speech, model.id);
    // A listed variant id (a saved real catalog lists `author/slug:free`) is served as listed, and is that variant:
    // the `:free` limit applies to it as to a derived one.
    const variant = splitVariant(model.id)?.variant ?? null;
    const transcription = entryOf(fixtures.transcription, model.id);
    base.set(model.id, entry({ record, baseId: model.id, variant, speech: speech ? deepFreeze({ ...speech }) : null, transcription: transcription ? deepFreeze({ ...transcription }) : null }));
  }
  const aliases = new Map<string, Alias>();
  for (const alias of fixtures.aliases) aliases.set(alias.alias, Object.freeze({ ...alias }));
  const aliasList = Object.freeze([...aliases.values()]);
  const records = Object.freeze([...base.values()].map((e) => e.resolved.record));
  const providers = new Map<string, readonly ProviderEntry[]>();
  for (const [id, { resolved }] of base) {
    providers.set(id, deepFreeze(structuredClone(entryOf(fixtures.providers, id) ?? [defaultProvider(resolved.record, resolved.speech ?? resolved.transcription)])));
  }
  const derived = cacheSize > 0 ? boundedMap<string, Entry>(cacheSize) : undefined;

  function lookup(id: string): Entry | undefined {
    const known = base.get(id) ?? derived?.get(id);
    if (known) return known;
    const computed = derive(id);
    if (computed) derived?.set(id, computed);
    return computed;
  }

  function derive(id: string): Entry | undefined {
    const alias = aliases.get(id);
    const parts = alias ? { name: id, variant: null } : splitVariant(id);
    if (!parts || (parts.variant === null && !alias)) return undefined;
    const { name, variant } = parts;
    const direct = base.get(name);
    if (direct) {
      // `name` is a base id, so `variant` is set (a bare base id was found by `lookup`).
      const record = variant ? deepFreeze(applyVariant(direct.resolved.record, variant)) : direct.resolved.record;
      return entry({ ...direct.resolved, record, variant });
    }
    const via = aliases.get(name);
    const target = via && base.get(via.target);
    if (!via || !target) return undefined;
    const concrete = variant ? applyVariant(target.resolved.record, variant) : target.resolved.record;
    const record = via.alias_target ? aliasRecord(id, concrete) : concrete;
    return entry({ ...target.resolved, record: Object.isFrozen(record) ? record : deepFreeze(record), variant });
  }

  return {
    resolve: (id) => lookup(id)?.resolved,
    body: (id) => lookup(id)?.body,
    bytes: (id) => {
      const found = lookup(id);
      if (found) found.bytes ??= utf8.encode(found.body);
      return found?.bytes;
    },
    speechModel: (id) => lookup(id)?.resolved.speech ?? undefined,
    ids: () => [...base.keys()],
    models: () => records,
    providers: (baseId) => providers.get(baseId) ?? [],
    aliases: () => aliasList,
  };
}

/**
 * The answer for a `~author/family-latest` alias: the concrete record with `id` set to the alias (suffix included),
 * `links.details` following that id, and `alias_target` naming the concrete model
 * (SDK `ModelAliasTarget`: `slug` = the routable id of the concrete target, `name` = its display name).
 */
function aliasRecord(id: string, concrete: ModelRecord): ModelRecord {
  const { links, ...rest } = concrete;
  return {
    ...structuredClone(rest),
    id,
    alias_target: { slug: concrete.id, name: concrete.name },
    links: { ...links, details: detailsLink(id) },
  };
}

/** The one provider of a model the fixtures give none for: its speech or transcription provider, or its author's display name. */
function defaultProvider(record: ModelRecord, audio: { provider_name: string } | null): ProviderEntry {
  const colon = record.name.indexOf(': ');
  const name = audio?.provider_name ?? (colon > 0 ? record.name.slice(0, colon) : record.id.split('/')[0]!);
  return { provider_name: name, tag: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), quantization: 'unknown' };
}

function entry(resolved: ResolvedModel): Entry {
  return { resolved: Object.freeze(resolved), body: JSON.stringify({ data: resolved.record }) };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
