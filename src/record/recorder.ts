/**
 * What an answer that came through the recording proxy becomes in the recorded folder (issue 22): which
 * exchanges are recorded, and as what. The routes are the simulator's (`src/core/http/routes.ts`), each the
 * gateway's OpenAPI operation:
 *
 * - 200 of `getModel` (`GET /api/v1/model/{author}/{slug}`) → its `data`; of `getModels` (`GET /api/v1/models`) →
 *   each of `data`: model records of `models.json`;
 * - 200 of `listEndpoints` (`GET /api/v1/models/{author}/{slug}/endpoints`) → `providers[<model id>]` of
 *   `models.json`, one entry per endpoint;
 * - 200 of `getGeneration` (`GET /api/v1/generation?id=`) → its `data`, in `generations.json`;
 * - 200 of `createAudioSpeech` (`POST /api/v1/audio/speech`, JSON body) → the bytes under `audio/`, indexed by
 *   `speechKeyOf(body)`;
 * - an error answer (status 400 to 599 with the envelope `{"error": {"code", "message", "metadata"?}}`) of any of
 *   these operations → a rule of `scenarios/recorded.yaml`.
 *
 * Nothing of the request but its path, its query's `id` and a speech body's key fields is kept; an answer whose
 * bytes contain a credential the request carried is not recorded at all.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { QUANTIZATIONS, type ProviderEntry } from '../core/config/fixture-schema.js';
import { isSpeechKey, speechKeyOf, type SpeechKeyFields } from '../core/config/recording-schema.js';
import { splitVariant } from '../core/catalog/variants.js';
import { matchRoute, type Operation } from '../core/http/routes.js';
import type { RecordedFolder } from './recorded-folder.js';

/** One exchange that went through the proxy, complete. */
export interface Exchange {
  method: string;
  /** The request's path as the client sent it (percent-encoded), without the query. */
  path: string;
  /** The request's raw query, without `?` (may be empty). */
  query: string;
  /** The request's body, when it was kept (speech requests); `undefined` when it was not or was too long. */
  requestBody: Buffer | undefined;
  status: number;
  /** The answer's `Content-Type`, or `''`. */
  contentType: string;
  /** The answer's `Retry-After`, when it had one. */
  retryAfter: string | undefined;
  /** The answer's bytes, whole. */
  body: Buffer;
  /** Credential values the request carried (bearer token, key headers and query values), never to be written. */
  secrets: readonly string[];
}

/** Which operation a request is, when the recorder records its answers (by method and path). */
export function recordedOperation(method: string, path: string): Operation | undefined {
  const route = matchRoute(path);
  if (route === undefined || route.method !== method) return undefined;
  return route.operation;
}

/** Whether the recorder keeps the request's body (speech only: the key of its recording). */
export function keepsRequestBody(operation: Operation | undefined): boolean {
  return operation === 'speech';
}

/** The file name of a speech recording: the SHA-256 of its key (64 hex) and `.mp3` for `audio/mpeg`, else `.pcm`. */
export function audioFileName(key: string, contentType: string): string {
  const ext = /^audio\/(mpeg|mp3)\b/i.test(contentType) ? 'mp3' : 'pcm';
  return `${createHash('sha256').update(key).digest('hex')}.${ext}`;
}

/**
 * Records `exchange` into `folder`.
 *
 * @returns one line per thing written or skipped (`model openai/gpt-4o`, `audio <file> (<n> bytes)`,
 *   `not recorded: ...`), for the log; empty when the exchange is none the recorder keeps.
 */
export async function recordExchange(exchange: Exchange, folder: RecordedFolder): Promise<string[]> {
  const operation = recordedOperation(exchange.method, exchange.path);
  if (operation === undefined) return [];
  if (containsSecret(exchange.body, exchange.secrets)) return ['not recorded: the answer contains a credential of the request'];
  if (exchange.status >= 400) return recordError(operation, exchange, folder);
  if (exchange.status !== 200) return [];
  switch (operation) {
    case 'model':
    case 'models': {
      const data = jsonOf(exchange.body)?.data;
      const records = operation === 'model' ? [data] : Array.isArray(data) ? data : undefined;
      if (records === undefined || data === undefined) return ['not recorded: expected {"data": ...} JSON'];
      const outcomes = await folder.addModels(records);
      const lines = summarize(records, outcomes);
      // A plain alias (`anthropic/claude-3-5-sonnet`) answers its target's record under the target's id.
      const asked = operation === 'model' ? modelOfPath(exchange.path) : undefined;
      const answered = (data as { id?: unknown; alias_target?: unknown } | null)?.id;
      if (asked !== undefined && outcomes[0] === 'recorded' && typeof answered === 'string' && asked !== answered && splitVariant(asked)?.variant === null) {
        await folder.addAlias(asked, answered);
        lines.push(`alias ${asked} → ${answered}`);
      }
      return lines;
    }
    case 'endpoints': {
      const data = jsonOf(exchange.body)?.data as { id?: unknown; endpoints?: unknown } | undefined;
      const id = typeof data?.id === 'string' ? data.id : modelOfPath(exchange.path);
      if (id === undefined || !Array.isArray(data?.endpoints)) return ['not recorded: expected {"data": {"id", "endpoints": [...]}}'];
      const entries = data.endpoints.map(providerEntryOf).filter((e): e is ProviderEntry => e !== undefined);
      if (entries.length === 0) return ['not recorded: no endpoint with provider_name and tag'];
      await folder.addProviders(id, entries);
      return [`providers of ${id} (${entries.length})${folder.knowsModel(id) ? '' : ', written once its model record is'}`];
    }
    case 'generation': {
      const data = jsonOf(exchange.body)?.data as { id?: unknown } | undefined;
      if (data === undefined) return ['not recorded: expected {"data": ...} JSON'];
      const outcome = await folder.addGeneration(data);
      return [outcome === 'recorded' ? `generation ${String(data.id)}` : `not recorded: generation ${outcome}`];
    }
    case 'speech': {
      const body = exchange.requestBody === undefined ? undefined : jsonOf(exchange.requestBody);
      if (!isSpeechBody(body)) return ['not recorded: the request body is not a speech request'];
      const key = speechKeyOf(body);
      // A body the simulator would not take as it came (`"speed": "1.2"`, a number past a double) makes a key that
      // `--fixtures` refuses, failing the whole folder: such an answer is forwarded, not recorded.
      if (!isSpeechKey(key)) return ['not recorded: the request body is not one the simulator reads as it came (speed, response_format or provider.options)'];
      const file = audioFileName(key, exchange.contentType);
      await folder.addAudio({ key, file, content_type: exchange.contentType || 'application/octet-stream', bytes: exchange.body.length }, exchange.body);
      return [`audio ${file} (${exchange.body.length} bytes, ${body.model})`];
    }
    default:
      return [];
  }
}

async function recordError(operation: Operation, exchange: Exchange, folder: RecordedFolder): Promise<string[]> {
  const error = (jsonOf(exchange.body) as { error?: { message?: unknown; metadata?: unknown } } | undefined)?.error;
  if (error === undefined || typeof error !== 'object' || error === null || typeof error.message !== 'string') {
    return ['not recorded: the error answer is not the gateway\'s envelope'];
  }
  if (exchange.status > 599) return [];
  const metadata = error.metadata === null || (typeof error.metadata === 'object' && !Array.isArray(error.metadata)) ? (error.metadata as Record<string, unknown> | null) : undefined;
  const name = await folder.addError({
    operation,
    model: modelOf(operation, exchange),
    status: exchange.status,
    message: error.message,
    metadata,
    retryAfter: exchange.retryAfter,
  });
  return [`scenario rule ${name}`];
}

/** The model a request names: a speech body's `model`, or the `author/slug` of a lookup or endpoints path. */
function modelOf(operation: Operation, exchange: Exchange): string | undefined {
  if (operation === 'speech') {
    const body = exchange.requestBody === undefined ? undefined : jsonOf(exchange.requestBody);
    const model = (body as { model?: unknown } | undefined)?.model;
    return typeof model === 'string' && model !== '' ? model : undefined;
  }
  return operation === 'model' || operation === 'endpoints' ? modelOfPath(exchange.path) : undefined;
}

/** `author/slug` of a model lookup or endpoints path, decoded; `undefined` when it does not decode. */
function modelOfPath(path: string): string | undefined {
  const params = matchRoute(path)?.params;
  if (params?.author === undefined || params.slug === undefined) return undefined;
  try {
    return `${decodeURIComponent(params.author)}/${decodeURIComponent(params.slug)}`;
  } catch {
    return undefined;
  }
}

/** The hand-written part of an endpoint (`ProviderEntrySchema`), or `undefined` when it has no provider name or tag. */
function providerEntryOf(endpoint: unknown): ProviderEntry | undefined {
  const e = endpoint as Record<string, unknown> | null;
  if (e === null || typeof e !== 'object' || typeof e.provider_name !== 'string' || e.provider_name === '' || typeof e.tag !== 'string' || e.tag === '') return undefined;
  const quantization = (QUANTIZATIONS as readonly unknown[]).includes(e.quantization) ? (e.quantization as ProviderEntry['quantization']) : null;
  const max = e.max_completion_tokens;
  return {
    provider_name: e.provider_name,
    tag: e.tag,
    quantization,
    max_completion_tokens: typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : null,
    supports_implicit_caching: e.supports_implicit_caching === true,
  };
}

function isSpeechBody(body: unknown): body is SpeechKeyFields {
  const b = body as Record<string, unknown> | undefined;
  return b !== undefined && b !== null && typeof b === 'object' && typeof b.model === 'string' && typeof b.input === 'string' && typeof b.voice === 'string';
}

function jsonOf(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function containsSecret(body: Buffer, secrets: readonly string[]): boolean {
  return secrets.some((secret) => secret.length >= 8 && body.includes(secret));
}

function summarize(records: readonly unknown[], outcomes: readonly string[]): string[] {
  const kept = outcomes.filter((o) => o === 'recorded' || o === 'alias').length;
  const lines = records.length === 1 ? [] : [`models: ${kept} of ${records.length} kept`];
  records.forEach((record, i) => {
    const id = String((record as { id?: unknown } | null)?.id ?? `#${i}`);
    const outcome = outcomes[i]!;
    if (records.length === 1 || outcome !== 'recorded') lines.push(outcome === 'recorded' ? `model ${id}` : `model ${id}: ${outcome}`);
  });
  return lines;
}
