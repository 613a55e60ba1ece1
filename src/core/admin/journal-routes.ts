/**
 * The admin API's journal routes: `GET /__mock/requests` (every kept entry, or a page past a cursor),
 * `GET /__mock/requests/<seq>` and `GET /__mock/requests/<seq>/audio` (its speech rendered again); they read the
 * journal of every replica (`gateway.sharedJournal`). `docs/admin-api.md`.
 *
 * @module
 */
import { GatewayError, jsonResponse } from '../base/error-envelope.js';
import type { Gateway } from '../gateway/gateway.js';
import { DEFAULT_PAGE_SIZE, type JournalFilter } from '../journal/journal.js';
import { queryParams, singleParam } from '../http/request.js';
import { OPERATIONS, type Operation } from '../http/routes.js';
import type { CoreRequest, CoreResponse } from '../base/types.js';
import type { JournalEntry, RequestsPage } from './wire.js';

/** Path parameters of an admin route (`{seq}`, `{name}`), raw. */
type RouteParams = Readonly<Record<string, string>>;

/** Whether `value` names an operation (`operation=` of the journal's filter). */
function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}

/** Most entries one page of `GET /__mock/requests?after=&limit=` may ask for. */
export const MAX_PAGE_SIZE = 1000;

function journalFilter(params: URLSearchParams): JournalFilter {
  const filter: JournalFilter = {};
  const operation = singleParam(params, 'operation');
  if (operation !== null) {
    if (operation === 'none') filter.operation = null;
    else if (isOperation(operation)) filter.operation = operation;
    else throw new GatewayError(400, { message: `operation: expected ${OPERATIONS.join(', ')} or none, got "${operation}"` });
  }
  const status = singleParam(params, 'status');
  if (status !== null) {
    if (!/^\d{1,3}$/.test(status)) throw new GatewayError(400, { message: `status: expected an HTTP status code, got "${status}"` });
    filter.status = Number(status);
  }
  const session = singleParam(params, 'session');
  if (session !== null) filter.session = session;
  return filter;
}

/** The last `count` of `entries` (oldest first, as given). */
function newest<T>(entries: readonly T[], count: number): T[] {
  return entries.slice(Math.max(0, entries.length - count));
}

/**
 * `GET /__mock/requests`: every kept entry; with `after`, the page of entries past that cursor (`seq > after`,
 * oldest first, at most `limit`); with only `limit`, the newest `limit` entries (oldest first). `last_seq` either way.
 */
export async function listRequests(gateway: Gateway, request: CoreRequest): Promise<CoreResponse> {
  const params = queryParams(request.query);
  const filter = journalFilter(params);
  const after = singleParam(params, 'after');
  const limit = singleParam(params, 'limit');
  const journal = gateway.sharedJournal;
  // Read before the entries: with a shared store, other replicas go on journaling between the two reads, and a
  // `last_seq` newer than the entries returned would make a client that pages from it miss some.
  const lastSeq = await journal.lastSeq();
  let requests;
  if (after === null && limit === null) requests = await journal.list(filter);
  else {
    const from = after === null ? 0 : Number(after);
    if (after !== null && (!/^\d{1,15}$/.test(after) || !Number.isSafeInteger(from))) {
      throw new GatewayError(400, { message: `after: expected a whole number ≥ 0 (the last seq seen), got "${after}"` });
    }
    const size = limit === null ? DEFAULT_PAGE_SIZE : Number(limit);
    if (limit !== null && (!/^\d{1,4}$/.test(limit) || size < 1 || size > MAX_PAGE_SIZE)) {
      throw new GatewayError(400, { message: `limit: expected a whole number from 1 to ${MAX_PAGE_SIZE}, got "${limit}"` });
    }
    // Without a cursor, the newest page: what a look at the journal wants (the oldest first within it, as always).
    requests = after === null ? newest(await journal.list(filter), size) : await journal.after(from, size, filter);
  }
  return jsonResponse(200, { requests, last_seq: Math.max(lastSeq, requests.at(-1)?.seq ?? 0) } satisfies RequestsPage);
}

/** The `{seq}` parameter as a number. @throws {GatewayError} 400 when it is not a whole number. */
function seqOf(params: RouteParams): number {
  const raw = params.seq ?? '';
  const seq = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || !Number.isSafeInteger(seq)) throw new GatewayError(400, { message: `seq: expected a whole number ≥ 1, got "${raw}"` });
  return seq;
}

/**
 * `GET /__mock/requests/<seq>`: one entry of the journal of every replica.
 *
 * @throws {GatewayError} 400 for a `seq` that is no whole number; 404 `No journal entry <seq>`.
 */
export async function journalEntry(gateway: Gateway, _request: CoreRequest, params: RouteParams): Promise<CoreResponse> {
  const seq = seqOf(params);
  const entry = await gateway.sharedJournal.get(seq);
  if (!entry) throw new GatewayError(404, { message: `No journal entry ${seq}` });
  return jsonResponse(200, entry satisfies JournalEntry);
}

/**
 * `GET /__mock/requests/<seq>/audio`: the speech answer of entry `seq` rendered again (`gateway.openAudio`), with
 * its `Content-Type` and `Cache-Control: no-store`.
 *
 * @throws {GatewayError} 400 for a `seq` that is no whole number; 404 saying why there is no audio.
 */
export async function entryAudio(gateway: Gateway, _request: CoreRequest, params: RouteParams): Promise<CoreResponse> {
  const seq = seqOf(params);
  const audio = await gateway.openAudio(seq);
  return { status: 200, headers: { 'Content-Type': audio.contentType, 'Cache-Control': 'no-store' }, body: audio.body };
}
