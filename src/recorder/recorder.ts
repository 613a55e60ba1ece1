/**
 * What an answer that came through the recording proxy becomes in the recorded folder: which
 * exchanges are recorded, and as what. The routes are the simulator's (`src/core/http/routes.ts`), each the
 * gateway's OpenAPI operation:
 *
 * - 200 of `getModel` (`GET /api/v1/model/{author}/{slug}`) → its `data`; of `getModels` (`GET /api/v1/models`) →
 *   each of `data`: model records of `models.json`;
 * - 200 of `listEndpoints` (`GET /api/v1/models/{author}/{slug}/endpoints`) → `providers[<model id>]` of
 *   `models.json`, one entry per endpoint;
 * - 200 of `getGeneration` (`GET /api/v1/generation?id=`) → its `data`, in `generations.json`;
 * - 200 of `listSpeechModels` (`GET /api/v1/audio/speech/models`) → each of `data`, of `getSpeechModel`
 *   (`GET /api/v1/audio/speech/models/{author}/{slug}`) → its `data`, each checked against
 *   `SpeechModelResponseSchema`: what it says the model takes becomes the `supported_voices` of its model record
 *   and the facts of its `speech` entry in `models.json` (once its record is recorded; `speech-entries.ts`);
 * - 200 of `createAudioSpeech` (`POST /api/v1/audio/speech`, JSON body) → the bytes under `audio/`, indexed by
 *   `speechKeyOf(body)`;
 * - 200 of `createAudioTranscriptions` (`POST /api/v1/audio/transcriptions`, JSON or multipart body) → an entry of
 *   `transcripts.json` keyed by the SHA-256 of the audio bytes, with the answer's `text`, `language`, `duration` and
 *   `words` (`transcript-answers.ts`);
 * - an error answer (status 400 to 599 with the envelope `{"error": {"code", "message", "metadata"?}}`) of any of
 *   these operations → a rule of `scenarios/recorded.yaml`.
 *
 * Nothing of the request but its path, its query's `id`, a speech body's key fields and the SHA-256 of a
 * transcription's audio is kept. Every value about
 * to be written (each model record, the endpoints kept, a generation record, a speech answer's key, `Content-Type`
 * and bytes, a transcript, an error's message, metadata, model and `Retry-After`), decoded as it will be written, is searched for
 * the credentials the request carried in each of their forms (`holdsCredential` of `credential-forms.ts`): a hit
 * drops that recording, with a warning that names neither the credential nor the value.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { QUANTIZATIONS, type ProviderEntry } from '../core/formats/fixture-schema.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { isSpeechKey, speechKeyOf, type SpeechKeyFields } from '../core/formats/recording-schema.js';
import { splitVariant } from '../core/catalog/variants.js';
import { matchRoute, type Operation } from '../core/http/routes.js';
import { valueDepthOf } from '../core/base/json-depth.js';
import { SpeechModelResponseSchema } from '../core/formats/speech-model-schema.js';
import type { SpeechModelResponse } from '../core/catalog/speech-models.js';
import { anyHoldsCredential } from './credential-forms.js';
import { transcriptOfExchange, transcriptionRuleModel } from './transcript-answers.js';
import type { RecordedFolder } from './recorded-folder.js';
import { LEAK, credentialNote, info, outcomeNote, refusalNote, summarize, type Note } from './recording-notes.js';
import type { ModelOutcome } from './refusals.js';

/** One exchange that went through the proxy, complete. */
export interface Exchange {
  method: string;
  /** The request's path as the client sent it (percent-encoded), without the query. */
  path: string;
  /** The request's raw query, without `?` (may be empty). */
  query: string;
  /** The request's body, when it was kept (speech and transcription requests); `undefined` when it was not or was too long. */
  requestBody: Buffer | undefined;
  /** The request's `Content-Type`, or `''` (a transcription's body is JSON or multipart). */
  requestContentType: string;
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

/** Whether the recorder keeps the request's body (speech: the key of its recording; transcription: its audio). */
export function keepsRequestBody(operation: Operation | undefined): boolean {
  return operation === 'speech' || operation === 'transcription';
}

/** The file name of a speech recording: the SHA-256 of its key (64 hex) and `.mp3` for `audio/mpeg`, else `.pcm`. */
export function audioFileName(key: string, contentType: string): string {
  const ext = /^audio\/(mpeg|mp3)\b/i.test(contentType) ? 'mp3' : 'pcm';
  return `${createHash('sha256').update(key).digest('hex')}.${ext}`;
}

/**
 * Records `exchange` into `folder`.
 *
 * @returns one note per thing written or skipped (`model openai/gpt-4o`, `audio <file> (<n> bytes)`,
 *   `not recorded: ...`), for the log; empty when the exchange is none the recorder keeps.
 */
export async function recordExchange(exchange: Exchange, folder: RecordedFolder): Promise<Note[]> {
  const operation = recordedOperation(exchange.method, exchange.path);
  if (operation === undefined) return [];
  if (exchange.status >= 400) return recordError(operation, exchange, folder);
  if (exchange.status !== 200) return [];
  const leaks = (value: unknown) => anyHoldsCredential(value, exchange.secrets);
  switch (operation) {
    case 'model':
    case 'models': {
      const data = jsonOf(exchange.body)?.data;
      const records = operation === 'model' ? [data] : Array.isArray(data) ? data : undefined;
      if (records === undefined || data === undefined) return [info('not recorded: expected {"data": ...} JSON')];
      const leaking = records.map(leaks);
      const kept = await folder.addModels(records.filter((_, i) => !leaking[i]));
      let k = 0;
      const outcomes = leaking.map((leak): ModelOutcome => (leak ? LEAK : kept[k++]!));
      const notes = summarize(records, outcomes);
      // A plain alias (`anthropic/claude-3-5-sonnet`) answers its target's record under the target's id.
      const asked = operation === 'model' ? modelOfPath(exchange.path) : undefined;
      const answered = (data as { id?: unknown; alias_target?: unknown } | null)?.id;
      if (asked !== undefined && outcomes[0] === 'recorded' && typeof answered === 'string' && asked !== answered && splitVariant(asked)?.variant === null) {
        if (leaks(asked)) notes.push(credentialNote('the alias asked for'));
        else {
          const outcome = await folder.addAlias(asked, answered);
          if (outcome !== undefined) notes.push(outcomeNote(`alias ${asked}`, outcome, `alias ${asked} → ${answered}`));
        }
      }
      return notes;
    }
    case 'endpoints': {
      const data = jsonOf(exchange.body)?.data as { id?: unknown; endpoints?: unknown } | undefined;
      const id = typeof data?.id === 'string' ? data.id : modelOfPath(exchange.path);
      if (id === undefined || !Array.isArray(data?.endpoints)) return [info('not recorded: expected {"data": {"id", "endpoints": [...]}}')];
      const entries = data.endpoints.map(providerEntryOf).filter((e): e is ProviderEntry => e !== undefined);
      if (entries.length === 0) return [info('not recorded: no endpoint with provider_name and tag')];
      if (leaks([id, entries])) return [credentialNote('the endpoints answer')];
      const outcome = await folder.addProviders(id, entries);
      return [outcomeNote(`providers of ${id}`, outcome, `providers of ${id} (${entries.length})${folder.knowsModel(id) ? '' : ', written once its model record is'}`)];
    }
    case 'generation': {
      const data = jsonOf(exchange.body)?.data as { id?: unknown } | undefined;
      if (data === undefined) return [info('not recorded: expected {"data": ...} JSON')];
      if (leaks(data)) return [credentialNote('the generation record')];
      const outcome = await folder.addGeneration(data);
      return [outcomeNote('generation', outcome, `generation ${String(data.id)}`)];
    }
    case 'speech': {
      const body = exchange.requestBody === undefined ? undefined : jsonOf(exchange.requestBody);
      if (!isSpeechBody(body)) return [info('not recorded: the request body is not a speech request')];
      if (valueDepthOf(body, FOLDER_LIMITS.depth) > FOLDER_LIMITS.depth) return [{ text: `not recorded: the request body nests deeper than the ${FOLDER_LIMITS.depth} levels a file may hold`, warn: true }];
      const key = speechKeyOf(body);
      // A body the simulator would not take as it came (`"speed": "1.2"`, a number past a double) makes a key that
      // `--fixtures` refuses, failing the whole folder: such an answer is forwarded, not recorded.
      if (!isSpeechKey(key)) return [info('not recorded: the request body is not one the simulator reads as it came (speed, response_format or provider.options)')];
      const contentType = exchange.contentType || 'application/octet-stream';
      // The bytes are written as they came: searched as Latin-1 text, one character a byte.
      if (leaks([key, contentType, exchange.body.toString('latin1')])) return [credentialNote('the speech answer')];
      const file = audioFileName(key, exchange.contentType);
      const outcome = await folder.addAudio({ key, file, content_type: contentType, bytes: exchange.body.length }, exchange.body);
      return [outcomeNote('the speech answer', outcome, `audio ${file} (${exchange.body.length} bytes, ${body.model})`)];
    }
    case 'transcription': {
      const heard = await transcriptOfExchange(exchange.requestBody, exchange.requestContentType, exchange.body);
      if (typeof heard === 'string') return [info(`not recorded: ${heard}`)];
      if (leaks(heard.transcript)) return [credentialNote('the transcript')];
      const outcome = await folder.addTranscript(heard.sha256, heard.transcript);
      const words = heard.wordsDropped === undefined ? '' : ` (words left out: ${heard.wordsDropped})`;
      return [outcomeNote('the transcript', outcome, `transcript of ${heard.sha256.slice(0, 12)}… (${heard.transcript.text.length} characters, ${heard.model})${words}`)];
    }
    case 'speech-models':
    case 'speech-model': {
      const data = jsonOf(exchange.body)?.data;
      const answers = operation === 'speech-model' ? [data] : Array.isArray(data) ? data : undefined;
      if (answers === undefined || data === undefined) return [info('not recorded: expected {"data": ...} JSON')];
      const notes: Note[] = [];
      const kept: SpeechModelResponse[] = [];
      answers.forEach((answer, i) => {
        const parsed = SpeechModelResponseSchema.safeParse(answer);
        const issue = parsed.error?.issues[0];
        if (!parsed.success) notes.push(info(`not recorded: speech model #${i}: invalid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trimEnd()));
        else if (leaks(parsed.data)) notes.push(credentialNote(`speech model #${i}`));
        else kept.push(parsed.data as SpeechModelResponse);
      });
      const outcomes = await folder.addSpeechModels(kept);
      kept.forEach((answer, i) => {
        const id = answer.id.slice(0, 200);
        const later = folder.knowsModel(answer.id) ? '' : ', written once its model record is';
        notes.push(outcomeNote(`speech model ${id}`, outcomes[i]!, `speech model ${id}${later}`));
      });
      if (answers.length > 1) notes.unshift(info(`speech models: ${outcomes.filter((o) => o === 'recorded').length} of ${answers.length} kept`));
      return notes;
    }
    default:
      return [];
  }
}

async function recordError(operation: Operation, exchange: Exchange, folder: RecordedFolder): Promise<Note[]> {
  const error = (jsonOf(exchange.body) as { error?: { message?: unknown; metadata?: unknown } } | undefined)?.error;
  if (error === undefined || typeof error !== 'object' || error === null || typeof error.message !== 'string') {
    return [info('not recorded: the error answer is not the gateway\'s envelope')];
  }
  if (exchange.status > 599) return [];
  const metadata = error.metadata === null || (typeof error.metadata === 'object' && !Array.isArray(error.metadata)) ? (error.metadata as Record<string, unknown> | null) : undefined;
  const recorded = {
    operation,
    model: modelOf(operation, exchange),
    status: exchange.status,
    message: error.message,
    metadata,
    retryAfter: exchange.retryAfter,
  };
  if (anyHoldsCredential(recorded, exchange.secrets)) return [credentialNote(`the error answer (${exchange.status})`)];
  const outcome = await folder.addError(recorded);
  return 'rule' in outcome ? [info(`scenario rule ${outcome.rule}`)] : [refusalNote(`the error answer (${exchange.status})`, outcome)];
}

/**
 * The model a request names: a speech body's `model`, a transcription's JSON body's (`transcriptionRuleModel`), or
 * the `author/slug` of a lookup or endpoints path.
 */
function modelOf(operation: Operation, exchange: Exchange): string | undefined {
  if (operation === 'transcription') return transcriptionRuleModel(exchange.requestBody);
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
  const input = b?.input;
  const textual = typeof input === 'string' || (Array.isArray(input) && input.every((turn) => turn !== null && typeof turn === 'object'));
  return b !== undefined && b !== null && typeof b === 'object' && typeof b.model === 'string' && textual && typeof b.voice === 'string';
}

function jsonOf(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
