/**
 * The part of the oracle (`oracle.ts`) for a 200 of a discovery or account read: the body must carry what the
 * reference model (`discovery.ts`) says:
 * - `GET /models`: `data` is an array of distinct base models of the catalog (no variant, no alias), each with one
 *   of the output modalities asked for (`text` by default), within `limit`, as many as the model counted when it
 *   could, passing `context` and the prompt price range, newest first for `sort=newest`; `total_count` a whole
 *   number, the model's count of matches when it has one; `links.next` a string or null, null for the whole list;
 * - `GET /models/count`: `data.count` is a whole number, the catalog's count when the model knows it;
 * - `GET /models/{author}/{slug}/endpoints`: `data.id` is the model asked for (as the model lookup answers it) and
 *   `data.endpoints` a non-empty list of objects;
 * - `GET /key`: `data.label` is a string that, its ellipsis aside, does not hold the whole key;
 * - `GET /credits`: `data.total_credits` and `data.total_usage` are numbers ≥ 0.
 *
 * @module
 */
import type { DiscoveryBody } from './discovery.js';
import { catalogModels } from './fixtures.js';
import { isObject, short } from './request.js';

const byId = new Map(catalogModels.map((m) => [m.id, m]));
/** Slack for prices compared in USD per million tokens (decimal strings times a million). */
const EPSILON = 1e-9;

/** The `GET /models` checks of {@link checkDiscovery}. */
function checkModels(b: Extract<DiscoveryBody, { operation: 'models' }>, value: Record<string, unknown>, fail: (problem: string) => never): void {
  const { data, links, total_count: total } = value;
  if (!Array.isArray(data)) return fail('data of GET /models is not an array');
  if (typeof total !== 'number' || !Number.isInteger(total) || total < data.length) fail(`total_count ${JSON.stringify(total)} is not a whole number ≥ the ${data.length} models listed`);
  if (b.total !== undefined && total !== b.total) fail(`total_count ${String(total)}, expected ${b.total}`);
  const next = isObject(links) ? links.next : undefined;
  if (next !== null && typeof next !== 'string') fail(`links.next ${JSON.stringify(next)} is not a string or null`);
  if (b.whole && next !== null) fail(`links.next ${JSON.stringify(next)} for the whole list (no offset, no limit)`);
  const seen = new Set<string>();
  let previous = Infinity;
  for (const record of data) {
    const id = isObject(record) ? record.id : undefined;
    const model = typeof id === 'string' ? byId.get(id) : undefined;
    if (!model) return fail(`data lists ${JSON.stringify(short(String(id), 80))}, not a base model of the catalog`);
    if (seen.has(model.id)) fail(`data lists ${model.id} twice`);
    seen.add(model.id);
    const outputs = b.outputs;
    if (outputs !== undefined && outputs !== 'all' && !model.outputs.some((o) => outputs.includes(o))) fail(`data lists ${model.id} (output ${model.outputs.join(', ')}), not of output ${outputs.join(', ')}`);
    if (b.context !== undefined && (model.context ?? 0) < b.context) fail(`data lists ${model.id} of context ${model.context}, under context=${b.context}`);
    if (b.minPrice !== undefined && model.promptPerMillion < b.minPrice - EPSILON) fail(`data lists ${model.id} at ${model.promptPerMillion} $/M, under min_price=${b.minPrice}`);
    if (b.maxPrice !== undefined && model.promptPerMillion > b.maxPrice + EPSILON) fail(`data lists ${model.id} at ${model.promptPerMillion} $/M, over max_price=${b.maxPrice}`);
    const created = (record as Record<string, unknown>).created;
    if (b.newest) {
      if (typeof created !== 'number' || created > previous) fail(`sort=newest, but ${model.id} (created ${String(created)}) comes after a model created ${previous}`);
      previous = created as number;
    }
  }
  if (b.max !== undefined && data.length > b.max) fail(`${data.length} models listed, over limit=${b.max}`);
  if (b.count !== undefined && data.length !== b.count) fail(`${data.length} models listed, expected ${b.count}`);
}

/**
 * Checks the parsed JSON body of a discovery read's 200 against what the reference model expects of it.
 *
 * @param fail throws the oracle's error, naming the request.
 */
export function checkDiscovery(b: DiscoveryBody, value: unknown, fail: (problem: string) => never): void {
  if (!isObject(value) || !Object.hasOwn(value, 'data')) return fail('a 200 without "data"');
  const data = value.data;
  if (b.operation === 'models') return checkModels(b, value, fail);
  if (!isObject(data)) return fail('data is not an object');
  switch (b.operation) {
    case 'models-count': {
      const count = data.count;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) fail(`data.count ${JSON.stringify(count)} is not a whole number`);
      if (b.count !== undefined && count !== b.count) fail(`data.count ${String(count)}, expected ${b.count}`);
      return;
    }
    case 'endpoints':
      if (data.id !== b.id) fail(`data.id ${JSON.stringify(data.id)}, expected ${JSON.stringify(b.id)}`);
      if (!Array.isArray(data.endpoints) || data.endpoints.length === 0 || !data.endpoints.every(isObject)) fail('data.endpoints is not a non-empty list of objects');
      return;
    case 'key': {
      const label = data.label;
      if (typeof label !== 'string') return fail(`data.label ${JSON.stringify(label)} is not a string`);
      if (label.replace('...', '').includes(b.key)) fail(`data.label ${JSON.stringify(short(label, 80))} holds the whole key`);
      return;
    }
    case 'credits':
      for (const name of ['total_credits', 'total_usage']) {
        const n = data[name];
        if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) fail(`data.${name} ${JSON.stringify(n)} is not a number ≥ 0`);
      }
  }
}
