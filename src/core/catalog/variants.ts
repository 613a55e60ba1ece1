/**
 * Model variants: the `:free`, `:nitro`, ... suffixes of a model id (`docs/behaviour.md`, "Model lookup": a variant's
 * `id` keeps the suffix; its `canonical_slug` is the base model's).
 *
 * The real gateway documents what each variant means for routing, not how its record differs. The simulator derives a
 * variant's record from the base record with the adjustments documented on {@link VARIANTS}; every variant applies to
 * every model, speech models included.
 *
 * @module
 */
import type { ModelRecord } from '../formats/fixture-schema.js';

/**
 * The variant suffixes the gateway accepts after a colon, and what the simulator changes in the base record for each.
 * Every variant: `id` becomes `<base id>:<variant>`, `name` gets ` (<variant>)` appended, `links.details` follows the
 * new id, `canonical_slug` and everything not listed stays the base's.
 *
 * - `free`: every `pricing` value becomes `"0"` (`discount`, a number, becomes `0`). On the real gateway free variants
 *   are limited to 20 requests per minute.
 * - `nitro`: routed to the fastest providers; no other change.
 * - `floor`: routed to the cheapest providers; no other change.
 * - `online`: web search (deprecated on the real gateway); adds `pricing.web_search` = {@link ONLINE_WEB_SEARCH_PRICE}
 *   unless the base already prices it, and adds `web_search_options` to `supported_parameters`.
 * - `thinking`: extended reasoning; ensures a `reasoning` object with `mandatory: true, default_enabled: true`
 *   (the base's object is kept otherwise, or {@link DEFAULT_THINKING_REASONING} is used), and adds `reasoning` and
 *   `include_reasoning` to `supported_parameters`.
 * - `extended`: longer context; `context_length` and `top_provider.context_length` are multiplied by
 *   {@link EXTENDED_CONTEXT_FACTOR} (null stays null).
 * - `exacto`: routed to providers with the best tool-calling quality; no other change.
 */
export const VARIANTS = ['free', 'nitro', 'floor', 'online', 'thinking', 'extended', 'exacto'] as const;

/** One of {@link VARIANTS}: the part after the colon in `author/slug:variant`. */
export type Variant = (typeof VARIANTS)[number];

/** Factor applied to the context lengths by the `:extended` variant. */
export const EXTENDED_CONTEXT_FACTOR = 2;

/** `pricing.web_search` added by `:online`: USD per web search result ($4 per 1000 results). */
export const ONLINE_WEB_SEARCH_PRICE = '0.004';

/** `reasoning` given by `:thinking` to a model that has none. */
const DEFAULT_THINKING_REASONING = {
  mandatory: true,
  default_enabled: true,
  default_effort: 'high',
  supported_efforts: ['high', 'medium', 'low'],
  supports_max_tokens: true,
} as const;

const VARIANT_SET: ReadonlySet<string> = new Set(VARIANTS);

/** True when `suffix` is one of {@link VARIANTS}. */
function isVariant(suffix: string): suffix is Variant {
  return VARIANT_SET.has(suffix);
}

/**
 * Splits `author/slug:variant` into its parts.
 *
 * @returns `{ name, variant: null }` when `id` has no colon; `{ name, variant }` when the part after the last colon is a
 *   known variant; `undefined` when it is not (for example `openai/gpt-4o:turbo`).
 */
export function splitVariant(id: string): { name: string; variant: Variant | null } | undefined {
  const colon = id.lastIndexOf(':');
  if (colon < 0) return { name: id, variant: null };
  const suffix = id.slice(colon + 1);
  if (!isVariant(suffix)) return undefined;
  return { name: id.slice(0, colon), variant: suffix };
}

/** `links.details` of the record whose id is `id`: `/api/v1/models/<id>/endpoints`. */
export function detailsLink(id: string): string {
  return `/api/v1/models/${id}/endpoints`;
}

/**
 * The record of `base` with `variant` applied (see {@link VARIANTS}). `base` is not modified; the result is a new
 * object sharing nothing with it.
 */
export function applyVariant(base: ModelRecord, variant: Variant): ModelRecord {
  const record = structuredClone(base) as ModelRecord;
  const id = `${base.id}:${variant}`;
  record.id = id;
  record.name = `${base.name} (${variant})`;
  record.links = { ...record.links, details: detailsLink(id) };
  switch (variant) {
    case 'free':
      for (const key of Object.keys(record.pricing)) {
        (record.pricing as Record<string, unknown>)[key] = key === 'discount' ? 0 : '0';
      }
      break;
    case 'online':
      record.pricing.web_search ??= ONLINE_WEB_SEARCH_PRICE;
      record.supported_parameters = withParameters(record.supported_parameters, ['web_search_options']);
      break;
    case 'thinking':
      record.reasoning = record.reasoning
        ? { ...record.reasoning, mandatory: true, default_enabled: true }
        : { ...DEFAULT_THINKING_REASONING, supported_efforts: [...DEFAULT_THINKING_REASONING.supported_efforts] };
      record.supported_parameters = withParameters(record.supported_parameters, ['include_reasoning', 'reasoning']);
      break;
    case 'extended':
      if (record.context_length !== null) record.context_length *= EXTENDED_CONTEXT_FACTOR;
      if (typeof record.top_provider.context_length === 'number') {
        record.top_provider.context_length *= EXTENDED_CONTEXT_FACTOR;
      }
      break;
    case 'nitro':
    case 'floor':
    case 'exacto':
      break;
  }
  return record;
}

/** `list` plus the missing `extra` names, sorted like the gateway sorts them (alphabetically). */
function withParameters(list: readonly string[], extra: readonly string[]): string[] {
  const missing = extra.filter((name) => !list.includes(name));
  return missing.length === 0 ? [...list] : [...list, ...missing].sort();
}
