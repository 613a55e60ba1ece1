/**
 * The reference model of the discovery and account reads: `getModels` (`GET /models`), `listModelsCount`
 * (`GET /models/count`), `listEndpoints` (`GET /models/{author}/{slug}/endpoints`), `getCurrentKey` (`GET /key`)
 * and `getCredits` (`GET /credits`), from docs/api.md ("Discovery and account reads"), `docs/behaviour.md`
 * ("Discovery reads", "Keys and credits", "Where the simulator chooses") and the query parameters `@openrouter/sdk`
 * documents for `getModels`. It says which statuses a request may get and what a 200 must carry
 * (`discovery-oracle.ts` checks it). Written apart from `src/`, like `reference-model.ts`, which routes to it.
 *
 * Where the documents leave a value's fate open (an empty value, `1e2` for a whole number, a repeated parameter
 * with different values), either answer is allowed: a 200 or a 400.
 *
 * @module
 */
import { answeredModelId, catalogModels, knownModelIds } from './fixtures.js';
import { short } from './request.js';

/** The discovery and account reads. */
export type DiscoveryOperation = 'models' | 'models-count' | 'endpoints' | 'key' | 'credits';

/** The route of a discovery read; `endpoints` carries its raw (still percent-encoded) `{author}` and `{slug}`. */
export type DiscoveryRoute = { operation: Exclude<DiscoveryOperation, 'endpoints'> } | { operation: 'endpoints'; author: string; slug: string };

/** A key of a keys file (docs/api.md "Keys and credits"), as much of it as the model reads. */
export interface FuzzKey {
  key: string;
  /** A management key: it may read `GET /credits`. */
  management?: boolean;
  free_tier?: boolean;
  /** Balance in USD; none = unlimited. */
  credits?: number;
}

/**
 * The keys file of the fuzz runs with one (`GET /credits` needs a management key then): a management key, a plain
 * key and a free-tier key. Any other key is unknown to such a gateway (401).
 */
export const FUZZ_KEYS: readonly FuzzKey[] = [{ key: 'sk-fuzz-1', management: true }, { key: 'sk-fuzz-2' }, { key: 'sk-or-v1-0123456789abcdef', free_tier: true, credits: 5 }];

/** What a 200 of a discovery read must carry; a member left `undefined` is not known and not checked. */
export type DiscoveryBody =
  | {
      operation: 'models';
      /** The output modalities every listed model has one of (`all`: no filter). */
      outputs: readonly string[] | 'all' | undefined;
      /** The exact number of models listed. */
      count: number | undefined;
      /** The exact number of models matched over all pages (`total_count`). */
      total: number | undefined;
      /** Neither `offset` nor `limit`: the whole list, so no next page (`links.next` null). */
      whole: boolean;
      /** At most this many models (`limit`). */
      max: number | undefined;
      /** Every listed model's context length is at least this (`context`). */
      context: number | undefined;
      /** Every listed model's prompt price, USD per million tokens, is at least / at most this. */
      minPrice: number | undefined;
      maxPrice: number | undefined;
      /** Listed newest first (`sort=newest`). */
      newest: boolean;
    }
  | { operation: 'models-count'; count: number | undefined }
  | { operation: 'endpoints'; id: string }
  | { operation: 'key'; key: string }
  | { operation: 'credits' };

/** What the reference model expects of a discovery read that reaches its operation. */
export interface DiscoveryOutcome {
  statuses: Set<number>;
  body?: DiscoveryBody | undefined;
  /** For a 400 of a malformed query: the parameters its message may start with (`<parameter>: `). */
  messagePrefixes?: string[] | undefined;
}

/**
 * The discovery read `rest` (the path after `/api/v1`, one trailing slash removed) names, if any: `/models`,
 * `/models/count`, `/models/{author}/{slug}/endpoints` (non-empty segments), `/key`, `/credits`.
 */
export function discoveryRoute(rest: string): DiscoveryRoute | undefined {
  if (rest === '/models') return { operation: 'models' };
  if (rest === '/models/count') return { operation: 'models-count' };
  if (rest === '/key') return { operation: 'key' };
  if (rest === '/credits') return { operation: 'credits' };
  const m = /^\/models\/([^/]+)\/([^/]+)\/endpoints$/.exec(rest);
  return m ? { operation: 'endpoints', author: m[1]!, slug: m[2]! } : undefined;
}

/** How a query value fares: accepted (with what it means, when that is known), refused (400), or either. */
type Verdict = { fate: 'ok'; value?: unknown } | { fate: 'bad' } | { fate: 'either' };

/** `output_modalities` values (`@openrouter/sdk`'s description of the parameter), besides `all`. */
const MODALITIES = ['text', 'image', 'embeddings', 'audio', 'video', 'rerank', 'decisions', 'speech', 'transcription'];
/** `sort` values (`@openrouter/sdk`'s `GetModelsSort`). */
const SORTS = ['most-popular', 'newest', 'top-weekly', 'pricing-low-to-high', 'pricing-high-to-low', 'context-high-to-low', 'throughput-high-to-low', 'latency-low-to-high', 'intelligence-high-to-low', 'coding-high-to-low', 'agentic-high-to-low', 'design-arena-elo-high-to-low'];

/** Refused by any reading: no number at all (`abc`), a negative one, or (`fractional`) one with a fraction. */
function notANumber(v: string, fractional: boolean): boolean {
  const n = Number(v);
  return (v.trim() !== '' && Number.isNaN(n)) || /^\s*-\d*\.?\d*[1-9]/.test(v) || (fractional && Number.isFinite(n) && !Number.isInteger(n));
}
/** A whole number in `[min, max]` written in digits; no number, a negative or fractional one is refused. */
const whole =
  (min: number, max = Infinity) =>
  (v: string): Verdict => {
    if (/^\d+$/.test(v)) return Number(v) >= min && Number(v) <= max ? { fate: 'ok', value: Number(v) } : { fate: 'bad' };
    return notANumber(v, true) ? { fate: 'bad' } : { fate: 'either' };
  };
/** A price ≥ 0 written as a decimal number; no number or a negative one is refused. */
const price = (v: string): Verdict => (/^\d+(\.\d+)?$/.test(v) ? { fate: 'ok', value: Number(v) } : notANumber(v, false) ? { fate: 'bad' } : { fate: 'either' });
/** One of `values`; the empty value, or one with blanks around a value, either way. */
const oneOf =
  (values: readonly string[]) =>
  (v: string): Verdict =>
    values.includes(v) ? { fate: 'ok', value: v } : v.trim() === '' || values.includes(v.trim()) ? { fate: 'either' } : { fate: 'bad' };
/** `all` or a comma-separated list of {@link MODALITIES}; empty items, blanks or `all` in a list either way. */
const modalities = (v: string): Verdict => {
  if (v === 'all') return { fate: 'ok', value: 'all' };
  const items = v.split(',');
  if (items.every((m) => MODALITIES.includes(m))) return { fate: 'ok', value: items };
  return items.every((m) => m.trim() === '' || m.trim() === 'all' || MODALITIES.includes(m.trim())) ? { fate: 'either' } : { fate: 'bad' };
};
const anything = (v: string): Verdict => ({ fate: 'ok', value: v });

/** The `getModels` parameters the model states, and whether each narrows the list (so its length is not known). */
const RULES: Record<string, { verdict: (v: string) => Verdict; narrows: boolean }> = {
  output_modalities: { verdict: modalities, narrows: false },
  limit: { verdict: whole(1, 1000), narrows: false },
  offset: { verdict: whole(0), narrows: false },
  sort: { verdict: oneOf(SORTS), narrows: false },
  context: { verdict: whole(0), narrows: true },
  min_price: { verdict: price, narrows: true },
  max_price: { verdict: price, narrows: true },
  min_output_price: { verdict: price, narrows: true },
  max_output_price: { verdict: price, narrows: true },
  q: { verdict: anything, narrows: true },
  supported_parameters: { verdict: anything, narrows: true },
  model_authors: { verdict: anything, narrows: true },
  providers: { verdict: anything, narrows: true },
  arch: { verdict: anything, narrows: true },
};
/** The other documented `getModels` parameters: the model leaves them open (a 400, or a filtered list). */
const OPEN = new Set(['input_modalities', 'category', 'distillable', 'zdr', 'region', 'use_rss', 'min_age_days', 'max_age_days', 'min_intelligence_index', 'max_intelligence_index', 'min_coding_index', 'max_coding_index', 'min_agentic_index', 'max_agentic_index', 'min_tool_success_rate', 'max_tool_success_rate']);

/** The verdict on every value of a parameter: repeated with different values, which one counts is open. */
function verdictOf(values: string[], verdict: (v: string) => Verdict): Verdict {
  const distinct = [...new Set(values)].map(verdict);
  if (distinct.length === 1) return distinct[0]!;
  if (distinct.every((d) => d.fate === 'bad')) return { fate: 'bad' };
  return distinct.every((d) => d.fate === 'ok') ? { fate: 'ok' } : { fate: 'either' };
}

/**
 * The outcome of a `getModels` query, or of a `listModelsCount` one (`only` = `['output_modalities']`, the one
 * parameter it takes): unknown parameters are ignored; `output_modalities` defaults to `text`; when neither
 * `offset` nor `limit` is given the whole list comes back, else `limit` (500 by default) models from `offset`.
 */
function modelsQuery(query: string, only: readonly string[] | undefined, why: string[]): { statuses: Set<number>; values: Map<string, unknown>; exact: boolean; prefixes: string[] } {
  const params = new URLSearchParams(query);
  const values = new Map<string, unknown>();
  const bad: string[] = [];
  const open: string[] = [];
  let exact = true;
  for (const name of new Set(params.keys())) {
    if (only && !only.includes(name)) continue;
    const rule = RULES[name];
    // A parameter the gateway reads, given twice: which value counts would be a guess, so it is a 400 naming it.
    if ((rule || OPEN.has(name)) && params.getAll(name).length > 1) {
      bad.push(name);
      values.set(name, undefined);
      continue;
    }
    if (!rule) {
      if (OPEN.has(name)) {
        open.push(name);
        exact = false;
      }
      continue;
    }
    if (rule.narrows) exact = false;
    const v = verdictOf(params.getAll(name), rule.verdict);
    if (v.fate === 'bad') bad.push(name);
    else if (v.fate === 'either') open.push(name);
    values.set(name, v.fate === 'ok' ? v.value : undefined);
  }
  if (bad.length) why.push(`malformed ${bad.join(', ')}`);
  if (open.length) why.push(`open: ${open.join(', ')}`);
  const statuses = new Set(bad.length ? [400] : open.length ? [200, 400] : [200]);
  return { statuses, values, exact, prefixes: [...bad, ...open] };
}

/** The base models with one of `outputs`. */
const withOutputs = (outputs: readonly string[] | 'all') => catalogModels.filter((m) => outputs === 'all' || m.outputs.some((o) => outputs.includes(o)));

/** The `getModels` outcome: the list, filtered (`output_modalities` defaults to `text`), paged. */
function modelsOutcome(query: string, why: string[]): DiscoveryOutcome {
  const { statuses, values, exact, prefixes } = modelsQuery(query, undefined, why);
  const known = (name: string) => !values.has(name) || values.get(name) !== undefined;
  const outputs = known('output_modalities') ? ((values.get('output_modalities') as string[] | 'all' | undefined) ?? ['text']) : undefined;
  const limit = values.get('limit') as number | undefined;
  const offset = values.get('offset') as number | undefined;
  const total = exact && outputs ? withOutputs(outputs).length : undefined;
  let count: number | undefined;
  if (total !== undefined && known('limit') && known('offset')) {
    count = Math.max(0, total - (offset ?? 0));
    // Only `offset`: 500 a page.
    count = Math.min(count, limit ?? (values.has('offset') ? 500 : Infinity));
  }
  why.push(`models of ${outputs === undefined ? 'open' : outputs === 'all' ? 'any' : outputs.join('|')} output${count === undefined ? '' : `, ${count} of them`}`);
  const num = (name: string) => values.get(name) as number | undefined;
  const body: DiscoveryBody = {
    operation: 'models',
    outputs,
    count,
    total,
    whole: !values.has('offset') && !values.has('limit'),
    max: limit,
    context: num('context'),
    minPrice: num('min_price'),
    maxPrice: num('max_price'),
    newest: values.get('sort') === 'newest',
  };
  return { statuses, body, messagePrefixes: prefixes };
}

/** The `listModelsCount` outcome: the number of base models with the output modality (`text` by default). */
function countOutcome(query: string, why: string[]): DiscoveryOutcome {
  const { statuses, values, prefixes } = modelsQuery(query, ['output_modalities'], why);
  const outputs = values.has('output_modalities') ? (values.get('output_modalities') as string[] | 'all' | undefined) : ['text'];
  const count = outputs === undefined ? undefined : withOutputs(outputs).length;
  why.push(`count ${count ?? 'open'}`);
  return { statuses, body: { operation: 'models-count', count }, messagePrefixes: prefixes };
}

/**
 * The documented outcome of a discovery read that passed routing, the method and the bearer key, without a
 * scenario: the status it may get and what its 200 carries.
 *
 * @param key the bearer key, trimmed.
 * @param keys the gateway's keys file, when it has one (then only a management key reads `/credits`).
 */
export function discoveryOutcome(r: DiscoveryRoute, query: string, key: string, keys: readonly FuzzKey[] | undefined, why: string[]): DiscoveryOutcome {
  switch (r.operation) {
    case 'models':
      return modelsOutcome(query, why);
    case 'models-count':
      return countOutcome(query, why);
    case 'key':
      why.push('the key\u2019s metadata');
      return { statuses: new Set([200]), body: { operation: 'key', key } };
    case 'credits': {
      if (keys && !keys.some((k) => k.key === key && k.management === true)) {
        why.push('a keys file, and not a management key');
        return { statuses: new Set([403]) };
      }
      why.push(keys ? 'a management key' : 'no keys file: any key reads credits');
      return { statuses: new Set([200]), body: { operation: 'credits' } };
    }
    case 'endpoints': {
      let id: string;
      try {
        id = `${decodeURIComponent(r.author)}/${decodeURIComponent(r.slug)}`;
      } catch {
        why.push('broken percent-encoding in the model path');
        return { statuses: new Set([400]) };
      }
      if (!knownModelIds.has(id)) {
        why.push(`unknown model ${JSON.stringify(short(id, 60))}`);
        return { statuses: new Set([404]) };
      }
      why.push(`endpoints of known model ${id}`);
      return { statuses: new Set([200]), body: { operation: 'endpoints', id: answeredModelId(id) } };
    }
  }
}
