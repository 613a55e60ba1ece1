/**
 * The reference model: from the gateway's documented behavior (docs/api.md and docs/scenarios.md; the operations
 * `createAudioSpeech`, `getModel`, `getGeneration`, and the discovery and account reads of
 * `discovery.ts`) and what the fixtures and scenario files say, which answers a generated request may get; a speech body's outcome is `speech-oracle.ts`. Written apart from `src/`, so the fuzz suites compare
 * the simulator with an independent statement of the same rules.
 *
 * @module
 */
import { MAX_BODY_BYTES } from '../../../src/core/http/request.js';
import { MSW_MAJOR } from '../modes.js';
import { discoveryOutcome, discoveryRoute, type DiscoveryBody, type DiscoveryOperation, type DiscoveryRoute, type FuzzKey } from './discovery.js';
import { answeredModelId, knownModelIds, type GenerationIds } from './fixtures.js';
import { short, type FuzzRequest, type FuzzedOperation } from './request.js';
import { scenarioEffect, type RawAnswer } from './scenarios.js';
import { speechOutcome, type SpeechAudioExpectation } from './speech-oracle.js';
import type { Seen } from './transports.js';

/** The answers a request may get, and what a 200 must carry. */
export interface Expectation {
  /** Statuses the answer may have. Empty when no answer is expected (a dropped connection). */
  statuses: Set<number>;
  /** A network error (no answer) is acceptable. */
  networkError: boolean;
  /** Raw answers (not the envelope) a scenario may give, e.g. `edge-timeout-html`'s HTML 524 page. */
  raw: RawAnswer[];
  /** A 200 speech body may be cut (a scenario's `audio.truncate`, e.g. `truncated-audio`). */
  truncatedAudio: boolean;
  /** Why: the steps of the model, for failure messages. */
  why: string[];
  /** For a speech 200: the format, the code points of each piece said and the speed, for the audio's length. */
  speech?: SpeechAudioExpectation | undefined;
  /** For a model 200: the id `data.id` must have. */
  modelId?: string | undefined;
  /** For a generation 200: the id `data.id` must have. */
  generationId?: string | undefined;
  /** A GET or HEAD of `/` or `/api/v1`: the index (`src/core/http/api-index.ts`), not journaled. */
  index?: boolean | undefined;
  /** The operation the request reaches (its route), when it reaches one: which shape a 200 has. */
  operation?: FuzzedOperation | undefined;
  /** For a discovery or account read's 200: what its body must carry (`discovery.ts`). */
  discovery?: DiscoveryBody | undefined;
  /** For the gateway's 405: the `Allow` header it must carry (the route's method). */
  allow?: string | undefined;
  /** For a 400 of a malformed `getModels` query: the parameters its message may start with (`<parameter>: `). */
  messagePrefixes?: string[] | undefined;
}

/** The paths that answer the index to GET and HEAD (`src/core/http/api-index.ts`). */
const INDEX_PATHS = new Set(['/', '/api/v1', '/api/v1/']);

/** All values of header `name` (case-insensitive), joined by `, ` as both HTTP stacks join repeated headers. */
function headerOf(req: FuzzRequest, name: string): string | undefined {
  const values = req.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v.replace(/^[\t ]+|[\t ]+$/g, ''));
  return values.length === 0 ? undefined : values.join(', ');
}

/**
 * The documented rule: `Authorization: Bearer <key>` with a non-empty key (case-insensitive scheme, trimmed).
 *
 * @returns the key, or `undefined` when there is none.
 */
function bearerKeyOf(req: FuzzRequest): string | undefined {
  const value = headerOf(req, 'authorization');
  if (value === undefined) return undefined;
  const key = /^Bearer[ \t]+(.*)$/i.exec(value.trim())?.[1]!.trim();
  return key ? key : undefined;
}

type Route =
  | { operation: 'speech'; method: 'POST' }
  | { operation: 'generation'; method: 'GET' }
  | { operation: 'model'; method: 'GET'; author: string; slug: string }
  | { operation: DiscoveryOperation; method: 'GET'; read: DiscoveryRoute };

/**
 * The documented routes: `/api/v1/audio/speech`, `/api/v1/model/{author}/{slug}`, `/api/v1/generation` and the
 * discovery reads (`discovery.ts`), one trailing slash allowed.
 */
function route(path: string): Route | undefined {
  if (!path.startsWith('/api/v1')) return undefined;
  let rest = path.slice('/api/v1'.length);
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
  if (rest === '/audio/speech') return { operation: 'speech', method: 'POST' };
  if (rest === '/generation') return { operation: 'generation', method: 'GET' };
  const read = discoveryRoute(rest);
  if (read) return { operation: read.operation, method: 'GET', read };
  const m = /^\/model\/([^/]+)\/([^/]+)$/.exec(rest);
  return m ? { operation: 'model', method: 'GET', author: m[1]!, slug: m[2]! } : undefined;
}

/** What the operation needs to know of the gateway besides the request: its generation records and keys file. */
interface World {
  known: GenerationIds;
  keys: readonly FuzzKey[] | undefined;
}

/** The documented outcome of the operation itself (no scenario). */
function operationOutcome(req: FuzzRequest, r: Route, seen: Seen, world: World, why: string[]): Omit<Expectation, 'networkError' | 'raw' | 'truncatedAudio' | 'why'> {
  if ('read' in r) {
    const outcome = discoveryOutcome(r.read, seen.query, bearerKeyOf(req)!, world.keys, why);
    return { statuses: outcome.statuses, discovery: outcome.body, messagePrefixes: outcome.messagePrefixes };
  }
  if (r.operation === 'speech') return speechOutcome(req.body, why);
  if (r.operation === 'model') {
    let id: string;
    try {
      id = `${decodeURIComponent(r.author)}/${decodeURIComponent(r.slug)}`;
    } catch {
      why.push('broken percent-encoding in the model path');
      return { statuses: new Set([400]) };
    }
    if (knownModelIds.has(id)) {
      why.push(`known model ${id}`);
      return { statuses: new Set([200]), modelId: answeredModelId(id) };
    }
    why.push(`unknown model ${JSON.stringify(short(id, 60))}`);
    return { statuses: new Set([404]) };
  }
  const ids = new URLSearchParams(seen.query).getAll('id');
  if (ids.length > 1) {
    why.push('id repeated');
    return { statuses: new Set([400]) };
  }
  const id = ids[0];
  if (!id) {
    why.push('id missing or empty');
    return { statuses: new Set([400]) };
  }
  if (world.known.ids.has(id)) {
    why.push('known generation');
    return { statuses: new Set([200]), generationId: id };
  }
  why.push('unknown generation');
  return { statuses: new Set([404]) };
}

/** Bytes of the request line and headers, roughly as they go on the wire (with what the client adds). */
function headBytes(req: FuzzRequest, seen: Seen): number {
  return req.method.length + seen.path.length + seen.query.length + 200 + req.headers.reduce((n, [name, value]) => n + name.length + Buffer.byteLength(value, 'latin1') + 4, 0);
}

/**
 * The methods whose body the standalone server reads (and refuses past 1 MiB); the body of any other (`GET`, `HEAD`)
 * is left unread, and the gateway answers as if there were none.
 */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Node's default limit on the request line and headers (`--max-http-header-size`), bytes. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * What the gateway may answer, from its documented pipeline: route (404) → method (405) → bearer key (401) →
 * `X-Mock-Status` / `X-Mock-Scenario` (400 when invalid) → the scenario's rules (`scenarios.ts`) or the
 * operation. In `server` mode Node's and the server's HTTP layer come first (431 for a head over 16 KiB, 400 for a
 * path that does not decode, 413 for a body over 1 MiB of a method whose body it reads). With a keys file, a key it
 * does not list is a 401 too.
 *
 * @param seen what the transport delivers of the URL (`Transport.seen`).
 * @param known the generation records there are, for `getGeneration`.
 * @param keys the gateway's keys file, if it was started with one.
 */
export function predict(req: FuzzRequest, seen: Seen, mode: 'msw' | 'server', known: GenerationIds, keys?: readonly FuzzKey[]): Expectation {
  const why: string[] = [];
  const e: Expectation = { statuses: new Set(), networkError: false, raw: [], truncatedAudio: false, why };
  /** The answer is one of `statuses`, because of `reason`. */
  const only = (reason: string, ...statuses: number[]) => {
    why.push(reason);
    for (const s of statuses) e.statuses.add(s);
    return e;
  };
  if (mode === 'server') {
    // The standalone server's HTTP layer answers before the gateway: headers over Node's limit (431), a path
    // that is not valid percent-encoded UTF-8 (400, the server's path check), a body it reads over the limit (413).
    const head = headBytes(req, seen);
    if (head > MAX_HEADER_BYTES + 600) return only('request head over 16 KiB', 431);
    if (head > MAX_HEADER_BYTES - 600) only('request head near 16 KiB', 431);
    if (!decodes(seen.path.split('#')[0]!)) return only('path (before any #) is not valid percent-encoded UTF-8', 400);
    if (req.body && req.body.byteLength > MAX_BODY_BYTES && BODY_METHODS.has(req.method)) return only('body over 1 MiB', 413);
  }
  if (mode === 'msw' && !seen.path.startsWith('/api/v1/')) {
    // Outside the gateway's base the handlers leave requests alone (onUnhandledRequest: error).
    why.push('outside /api/v1/: unhandled in-process');
    e.networkError = true;
  }
  if ((req.method === 'GET' || req.method === 'HEAD') && INDEX_PATHS.has(seen.path)) {
    e.index = true;
    return only('the index of / and /api/v1', 200);
  }
  const r = route(seen.path);
  if (!r) return only('no route', 404);
  const method = req.method === 'HEAD' && r.method === 'GET' ? 'GET' : req.method;
  if (method !== r.method) {
    e.allow = r.method;
    return only('wrong method', 405);
  }
  const key = bearerKeyOf(req);
  if (key === undefined) return only('no bearer key', 401);
  if (keys && !keys.some((k) => k.key === key)) return only('a key the keys file does not list', 401);
  const status = headerOf(req, 'x-mock-status');
  if (status !== undefined) {
    const t = status.trim();
    const code = Number(t);
    if (/^\d{3}$/.test(t) && code >= 400 && code <= 599) {
      // fetch (undici) refuses some statuses itself: 407 (proxy authentication) becomes a network error, and
      // under msw 3, which replays mocked responses through a socket, so does 421. The mock sent them.
      if (mode === 'msw' && (code === 407 || (code === 421 && MSW_MAJOR >= 3))) e.networkError = true;
      return only(`X-Mock-Status ${code}`, code);
    }
    return only('invalid X-Mock-Status', 400);
  }
  const scenario = headerOf(req, 'x-mock-scenario')?.trim();
  const normal = () => {
    const outcome = operationOutcome(req, r, seen, { known, keys }, why);
    for (const s of outcome.statuses) e.statuses.add(s);
    e.operation = r.operation;
    e.speech = outcome.speech;
    e.modelId = outcome.modelId;
    e.generationId = outcome.generationId;
    e.discovery = outcome.discovery;
    // A scenario's own 400 (`bad-request`) names no parameter.
    if (scenario === undefined) e.messagePrefixes = outcome.messagePrefixes;
    return e;
  };
  if (scenario === undefined) return normal();
  const effect = scenarioEffect(scenario, r.operation);
  if (!effect) return only(`unknown scenario ${JSON.stringify(scenario)}`, 400);
  why.push(`scenario ${scenario}`);
  for (const status of effect.statuses) e.statuses.add(status);
  for (const raw of effect.raw) e.statuses.add(raw.status);
  e.raw = effect.raw;
  if (effect.reset) {
    why.push('may drop the connection');
    e.networkError = true;
  }
  e.truncatedAudio = effect.truncatedAudio;
  if (effect.normal) return normal();
  why.push(`its answers ${[...e.statuses].join('|') || 'none'}`);
  return e;
}

/** Whether `decodeURIComponent` accepts the whole path (msw's route matching and the server's path check decode it). */
export function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
