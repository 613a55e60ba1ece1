/**
 * The query of `GET /models` (the gateway's OpenAPI operation `getModels`; `docs/behaviour.md`, "Discovery reads")
 * and of `GET /models/count` (`listModelsCount`): parsing, filtering, sorting and paging the catalog's models.
 *
 * What the catalog can answer is answered: `output_modalities`, `input_modalities`, `supported_parameters`, `q`,
 * `model_authors`, `providers`, `arch`, `context`, the price ranges, the age ranges (by the simulator's clock),
 * `sort`, `offset` and `limit`. What it cannot (`category`, `distillable`, `zdr`, `region`, the Artificial
 * Analysis index ranges, the tool-success-rate range, `use_rss`) is checked for a well-formed value and then
 * ignored: every model passes. A malformed value of any of them is a 400 that names the parameter.
 *
 * @module
 */
import * as z from 'zod';
import type { ModelRecord, ProviderEntry } from '../formats/fixture-schema.js';
import { singleParam } from '../http/request.js';
import { parseOrThrow } from '../http/validate-request.js';

/** `output_modalities` values (the document's `OutputModality` enum), besides `all`. */
export const OUTPUT_MODALITIES = ['text', 'image', 'embeddings', 'audio', 'video', 'rerank', 'decisions', 'speech', 'transcription'] as const;
/** `input_modalities` values (the document's `InputModality` enum). */
export const INPUT_MODALITIES = ['text', 'image', 'audio', 'file', 'video'] as const;
/** `sort` values (the document's `GetModelsSort` enum). */
export const MODEL_SORTS = [
  'most-popular',
  'newest',
  'top-weekly',
  'pricing-low-to-high',
  'pricing-high-to-low',
  'context-high-to-low',
  'throughput-high-to-low',
  'latency-low-to-high',
  'intelligence-high-to-low',
  'coding-high-to-low',
  'agentic-high-to-low',
  'design-arena-elo-high-to-low',
] as const;
/** `category` values (the document's `GetModelsCategory` enum). */
const CATEGORIES = ['programming', 'roleplay', 'marketing', 'marketing/seo', 'technology', 'science', 'translation', 'legal', 'finance', 'health', 'trivia', 'academia'] as const;

/** Largest `limit`. */
export const MAX_LIMIT = 1000;
/** `limit` when only `offset` is given. */
export const DEFAULT_LIMIT = 500;

/** Seconds in a day, for the age ranges. */
const DAY_S = 86_400;

/** The items of a comma-separated list, trimmed, empty items dropped. */
function items(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The items of `text`, each one of `allowed`; else an issue naming the first unknown value and `expected`. */
function listItems(text: string, allowed: readonly string[], expected: string, ctx: z.RefinementCtx): string[] {
  const list = items(text);
  const unknown = list.find((item) => !allowed.includes(item));
  if (unknown !== undefined || list.length === 0) {
    ctx.addIssue({ code: 'custom', message: `${unknown === undefined ? 'empty' : `unknown value "${unknown}"`}; expected ${expected}` });
    return [];
  }
  return list;
}

/** A comma-separated list of `allowed` values. */
function listOf(allowed: readonly string[]) {
  const expected = `a comma-separated list of ${allowed.join(', ')}`;
  return z.string().transform((text, ctx) => listItems(text, allowed, expected, ctx));
}

/** A comma-separated list of `allowed` values, or `all`. */
function listOrAll(allowed: readonly string[]) {
  const expected = `a comma-separated list of ${allowed.join(', ')}, or "all"`;
  return z.string().transform((text, ctx): string[] | 'all' => (text.trim() === 'all' ? 'all' : listItems(text, allowed, expected, ctx)));
}

/** A comma-separated list of names (any value). */
const names = z.lazy(() => z.string().transform(items));

/** A decimal number (`0.5`, `10`), at least `min`. */
function decimal(min: number) {
  return z.string().transform((text, ctx) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < min) {
      ctx.addIssue({ code: 'custom', message: `expected a number${min === 0 ? ' ≥ 0' : ''}, got "${text}"` });
      return z.NEVER;
    }
    return value;
  });
}

/** A whole number in `[min, max]`. */
function whole(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z.string().transform((text, ctx) => {
    const value = Number(text);
    if (!/^\s*\d+\s*$/.test(text) || value < min || value > max) {
      ctx.addIssue({ code: 'custom', message: `expected a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, got "${text}"` });
      return z.NEVER;
    }
    return value;
  });
}

/** One of `values`. */
function oneOf(values: readonly string[]) {
  return z.string().refine((text) => values.includes(text), { error: (issue) => `expected one of ${values.join(', ')}, got "${String(issue.input)}"` });
}

/** The query parameters of `getModels`, each a string as sent; the parsed form is {@link ModelQuery}. */
const ModelQuerySchema = z.lazy(() =>
  z.object({
    output_modalities: listOrAll(OUTPUT_MODALITIES).optional(),
    input_modalities: listOf(INPUT_MODALITIES).optional(),
    supported_parameters: names.optional(),
    q: z.string().optional(),
    model_authors: names.optional(),
    providers: names.optional(),
    arch: z.string().optional(),
    context: whole(0).optional(),
    min_price: decimal(0).optional(),
    max_price: decimal(0).optional(),
    min_output_price: decimal(0).optional(),
    max_output_price: decimal(0).optional(),
    min_age_days: decimal(0).optional(),
    max_age_days: decimal(0).optional(),
    sort: oneOf(MODEL_SORTS).optional(),
    offset: whole(0).optional(),
    limit: whole(1, MAX_LIMIT).optional(),
    // Checked, then not answered (the catalog has no data for them).
    category: oneOf(CATEGORIES).optional(),
    distillable: oneOf(['true', 'false']).optional(),
    zdr: oneOf(['true']).optional(),
    region: oneOf(['eu', 'us']).optional(),
    use_rss: oneOf(['true', 'false']).optional(),
    min_intelligence_index: decimal(-Infinity).optional(),
    max_intelligence_index: decimal(-Infinity).optional(),
    min_coding_index: decimal(-Infinity).optional(),
    max_coding_index: decimal(-Infinity).optional(),
    min_agentic_index: decimal(-Infinity).optional(),
    max_agentic_index: decimal(-Infinity).optional(),
    min_tool_success_rate: decimal(0).optional(),
    max_tool_success_rate: decimal(0).optional(),
  }),
);

/** A parsed `getModels` query. Prices are USD per million tokens; ages are days. */
export type ModelQuery = z.output<typeof ModelQuerySchema>;

/** The names of {@link ModelQuerySchema}'s parameters (read on first use: the schema is built then). */
let parameters: readonly string[] | undefined;

/**
 * Parses a `getModels` query (unknown parameters are ignored). With `only`,
 * just those parameters are read (`listModelsCount` takes `output_modalities` alone).
 *
 * @throws {GatewayError} 400 `<parameter>: <problem>` for a malformed value, e.g.
 *   `limit: expected a whole number from 1 to 1000, got "0"`, or a parameter given twice (`singleParam`).
 */
export function parseModelQuery(params: URLSearchParams, only?: readonly (keyof ModelQuery)[]): ModelQuery {
  const raw: Record<string, string> = {};
  for (const name of only ?? (parameters ??= Object.keys(ModelQuerySchema.unwrap().shape))) {
    const value = singleParam(params, name);
    if (value !== null) raw[name] = value;
  }
  return parseOrThrow(ModelQuerySchema, raw);
}

/** What filtering and sorting may need besides a record: its providers and recent performance. */
export interface ModelFacts {
  readonly providers: readonly ProviderEntry[];
  /** Best latency p50 (seconds) and throughput p50 over its endpoints, computed on demand. */
  performance(): { latencyS: number; throughput: number };
}

/** USD per million tokens of a decimal price string. */
function perMillion(price: string | undefined): number {
  return Number(price ?? 0) * 1_000_000;
}

/** The author slug of an id: `openai/gpt-4o` → `openai`. */
function authorOf(id: string): string {
  return id.slice(0, id.indexOf('/')).toLowerCase();
}

/** Whether `record` passes every answered filter of `query`; `nowS` (unix seconds) ages models. */
function passes(record: ModelRecord, facts: ModelFacts, query: ModelQuery, nowS: number): boolean {
  const arch = record.architecture;
  const outputs = query.output_modalities ?? ['text'];
  if (outputs !== 'all' && !outputs.some((m) => arch.output_modalities.includes(m))) return false;
  if (query.input_modalities && !query.input_modalities.every((m) => arch.input_modalities.includes(m))) return false;
  if (query.supported_parameters && !query.supported_parameters.every((p) => record.supported_parameters.includes(p))) return false;
  if (query.q !== undefined) {
    const needle = query.q.trim().toLowerCase();
    if (!record.name.toLowerCase().includes(needle) && !record.id.toLowerCase().includes(needle)) return false;
  }
  if (query.model_authors && !query.model_authors.map((a) => a.toLowerCase()).includes(authorOf(record.id))) return false;
  if (query.providers) {
    const wanted = query.providers.map((p) => p.toLowerCase());
    const served = facts.providers.some((p) => wanted.includes(p.provider_name.toLowerCase()) || wanted.includes(p.tag.split('/')[0]!.toLowerCase()));
    if (!served) return false;
  }
  if (query.arch !== undefined && (arch.tokenizer ?? '').toLowerCase() !== query.arch.trim().toLowerCase()) return false;
  if (query.context !== undefined && (record.context_length ?? 0) < query.context) return false;
  const prompt = perMillion(record.pricing.prompt);
  const completion = perMillion(record.pricing.completion);
  if (query.min_price !== undefined && prompt < query.min_price) return false;
  if (query.max_price !== undefined && prompt > query.max_price) return false;
  if (query.min_output_price !== undefined && completion < query.min_output_price) return false;
  if (query.max_output_price !== undefined && completion > query.max_output_price) return false;
  const ageDays = (nowS - record.created) / DAY_S;
  if (query.min_age_days !== undefined && ageDays < query.min_age_days) return false;
  if (query.max_age_days !== undefined && ageDays > query.max_age_days) return false;
  return true;
}

/** Average of the prompt and completion prices, USD per token (`pricing-*` sorts). */
function averagePrice(record: ModelRecord): number {
  return (Number(record.pricing.prompt) + Number(record.pricing.completion)) / 2;
}

/**
 * Sort keys, ascending: a model without a figure (`undefined`) goes last. Sorts with no data in the catalog
 * (popularity, weekly tokens, benchmark indices) keep the catalog's order.
 */
function sortKey(sort: ModelQuery['sort'], record: ModelRecord, facts: ModelFacts): number | undefined {
  switch (sort) {
    case 'newest':
      return -record.created;
    case 'pricing-low-to-high':
      return averagePrice(record);
    case 'pricing-high-to-low':
      return -averagePrice(record);
    case 'context-high-to-low':
      return record.context_length === null ? undefined : -record.context_length;
    case 'throughput-high-to-low':
      return -facts.performance().throughput;
    case 'latency-low-to-high':
      return facts.performance().latencyS;
    default:
      return 0;
  }
}

/** What {@link selectModels} selected: one page and how many models matched in all. */
export interface ModelPage {
  /** The page: the models from `offset`, at most `limit` of them (all of them without paging). */
  data: ModelRecord[];
  /** How many models matched the filters, over all pages (`total_count`). */
  total: number;
  /** The `offset` of the next page, or `null` on the last page or without paging. */
  nextOffset: number | null;
  /** The page size used, or `null` without paging. */
  limit: number | null;
}

/**
 * The models `query` selects from `records` (the catalog's order), sorted and paged: the whole list when neither
 * `offset` nor `limit` is given, else `limit` (default {@link DEFAULT_LIMIT}) models from `offset` (default 0).
 *
 * @param factsOf the providers and performance of a record.
 * @param nowS the simulator's clock, unix seconds, for the age ranges.
 */
export function selectModels(records: readonly ModelRecord[], query: ModelQuery, factsOf: (record: ModelRecord) => ModelFacts, nowS: number): ModelPage {
  const selected = records.filter((record) => passes(record, factsOf(record), query, nowS));
  if (query.sort !== undefined) {
    const keyed = selected.map((record, index) => ({ record, index, key: sortKey(query.sort, record, factsOf(record)) }));
    keyed.sort((a, b) => {
      if (a.key === undefined || b.key === undefined) return a.key === b.key ? a.index - b.index : a.key === undefined ? 1 : -1;
      return a.key - b.key || a.index - b.index;
    });
    selected.splice(0, selected.length, ...keyed.map((k) => k.record));
  }
  const total = selected.length;
  if (query.offset === undefined && query.limit === undefined) return { data: selected, total, nextOffset: null, limit: null };
  const offset = query.offset ?? 0;
  const limit = query.limit ?? DEFAULT_LIMIT;
  return { data: selected.slice(offset, offset + limit), total, nextOffset: offset + limit < total ? offset + limit : null, limit };
}
