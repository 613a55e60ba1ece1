/**
 * The body of `POST /api/v1/audio/transcriptions` in either shape the gateway takes (`docs/transcription.md`): JSON
 * (`STTRequest` of the gateway's OpenAPI document, with `input_audio` as base64 `{data, format}` or `{url, format?}`),
 * or `multipart/form-data` with a `file` part (`createAudioTranscriptions_multipart`, the `openai` clients'
 * upload). Both become one {@link TranscriptionRequest}; every refusal is the gateway's 400 envelope naming the
 * field, or 413 for too much audio.
 *
 * Sources: `@openrouter/sdk` 1.3.19 `models/sttrequest`, `sttinputaudio`, `operations/createaudiotranscriptionsmultipart`;
 * the gateway's Python SDK `sttrequest.py` and `stturlinputaudio.py` (v1.3.6 and later: `url`, `diarize`, `keyterms`,
 * `provider.zdr`, `provider.data_collection`).
 *
 * @module
 */
import * as z from 'zod';
import { GatewayError } from '../base/error-envelope.js';
import type { CoreRequest } from '../base/types.js';
import { jsonDepthOf } from '../base/json-depth.js';
import { describeValue as describe, quoted } from '../base/describe-value.js';
import { MAX_JSON_DEPTH, TRANSCRIPTION_BODY_BYTES, bodyTooLargeMessage, header, readJsonBody } from '../http/request.js';
import { parseOrThrow } from '../http/validate-request.js';
import { ProviderPreferencesSchema } from '../http/provider-preferences.js';
import { TRANSCRIPTION_FORMATS, type TranscriptionFormat } from './audio-length.js';

/** The largest `file` of a multipart upload, bytes: 25 MB (26,214,400 bytes), the gateway's documented limit. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** Longest `session_id`, characters (`STTRequest.session_id`: "Maximum of 256 characters"). */
const MAX_SESSION_ID = 256;
/** Most `keyterms`, and the longest one, characters (a simulator bound). */
const MAX_KEYTERMS = 1000;
const MAX_KEYTERM_CHARS = 256;
/** Longest `input_audio.url`, characters (a simulator bound). */
const MAX_URL_CHARS = 8192;

/** `response_format` values the gateway takes on this operation. */
export const TRANSCRIPTION_RESPONSE_FORMATS = ['json', 'verbose_json'] as const;

const formatSchema = z.lazy(() =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `required, one of ${TRANSCRIPTION_FORMATS.join(', ')}` : `must be a string, got ${describe(issue.input)}`) })
    .transform((value, ctx) => {
      const format = value.trim().toLowerCase();
      if ((TRANSCRIPTION_FORMATS as readonly string[]).includes(format)) return format as TranscriptionFormat;
      ctx.addIssue({ code: 'custom', message: `must be one of ${TRANSCRIPTION_FORMATS.join(', ')}, got ${describe(value)}` });
      return z.NEVER;
    }),
);

/**
 * `input_audio`: base64 bytes with their format (`{data, format}`), or a URL (`{url, format?}`: the format then
 * optional when the path has an audio extension). Exactly one of `data` and `url`.
 */
const InputAudioSchema = z.lazy(() =>
  z
    .looseObject(
      {
        data: z.string({ error: (issue) => `must be a string of base64, got ${describe(issue.input)}` }).optional(),
        url: z
          .string({ error: (issue) => `must be a string, got ${describe(issue.input)}` })
          .max(MAX_URL_CHARS, `must be at most ${MAX_URL_CHARS} characters`)
          .regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL')
          .optional(),
        format: formatSchema.optional(),
      },
      {
        error: (issue) =>
          issue.input === undefined
            ? 'required, an object {data, format} (base64 audio) or {url, format?}'
            : `must be an object {data, format} (base64 audio) or {url, format?}, got ${describe(issue.input)}`,
      },
    )
    .superRefine((input, ctx) => {
      if (input.data === undefined && input.url === undefined) ctx.addIssue({ code: 'custom', message: 'required, a string of base64 audio (or give input_audio.url)', path: ['data'] });
      else if (input.data !== undefined && input.url !== undefined) ctx.addIssue({ code: 'custom', message: 'give data or url, not both', path: ['url'] });
      else if (input.data !== undefined && input.format === undefined) ctx.addIssue({ code: 'custom', message: `required, one of ${TRANSCRIPTION_FORMATS.join(', ')}`, path: ['format'] });
    }),
);

/** The JSON body's fields besides the audio, also a multipart upload's text fields: built by the schemas below. */
const fields = () => ({
  model: z.string({ error: (issue) => (issue.input === undefined ? 'required, a string' : `must be a string, got ${describe(issue.input)}`) }).min(1, 'must not be empty'),
  language: z
    .string({ error: 'must be a string (an ISO-639-1 code such as "en")' })
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/, 'must be an ISO-639-1 language code such as "en"')
    .optional(),
  temperature: z.number({ error: (issue) => `must be a number, got ${describe(issue.input)}` }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  response_format: z
    .enum(TRANSCRIPTION_RESPONSE_FORMATS, { error: (issue) => `must be one of ${TRANSCRIPTION_RESPONSE_FORMATS.join(', ')}, got ${describe(issue.input)}` })
    .default('json'),
  timestamp_granularities: z
    .array(z.enum(['word', 'segment'], { error: (issue) => `must be "word" or "segment", got ${describe(issue.input)}` }), { error: 'must be an array of "word" and "segment"' })
    .max(2, 'must name each of "word" and "segment" at most once')
    .optional(),
  provider: ProviderPreferencesSchema.optional(),
  session_id: z.string({ error: 'must be a string' }).max(MAX_SESSION_ID, `must be at most ${MAX_SESSION_ID} characters`).optional(),
  user: z.string({ error: 'must be a string' }).max(MAX_SESSION_ID, `must be at most ${MAX_SESSION_ID} characters`).optional(),
  trace: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
  diarize: z.boolean({ error: (issue) => `must be a boolean, got ${describe(issue.input)}` }).optional(),
  keyterms: z
    .array(z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(MAX_KEYTERM_CHARS, `must be at most ${MAX_KEYTERM_CHARS} characters`), { error: 'must be an array of strings' })
    .max(MAX_KEYTERMS, `must have at most ${MAX_KEYTERMS} terms`)
    .optional(),
});

const JsonBodySchema = z.lazy(() =>
  z.looseObject({ ...fields(), input_audio: InputAudioSchema }, { error: (issue) => `must be a JSON object, got ${describe(issue.input)}` }),
);

const MultipartFieldsSchema = z.lazy(() => z.looseObject(fields()));

/** The audio of a request: its bytes, or a URL; its format (`undefined` only for a URL whose path has no extension). */
export type RequestAudio =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array; readonly format: TranscriptionFormat; readonly name?: string | undefined }
  | { readonly kind: 'url'; readonly url: string; readonly format: TranscriptionFormat | undefined };

/** A transcription request, from either shape, validated. */
export type TranscriptionRequest = { readonly [K in keyof ReturnType<typeof fields>]?: z.output<ReturnType<typeof fields>[K]> } & {
  readonly model: string;
  readonly response_format: (typeof TRANSCRIPTION_RESPONSE_FORMATS)[number];
  readonly audio: RequestAudio;
  readonly shape: 'json' | 'multipart';
};

/** Decodes base64 text to bytes (the platform's fastest decoder); the text is already checked to be base64. */
export type Base64Decoder = (text: string) => Uint8Array;

/** The standard decoder of every platform: `atob`. */
export const decodeBase64WithAtob: Base64Decoder = (text) => {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes that base64 text of `length` characters with `padding` trailing `=` decodes to. */
function decodedLength(length: number, padding: number): number {
  return Math.floor((length * 3) / 4) - padding;
}

/**
 * `data` (the JSON shape's `input_audio.data`) as bytes. Decoded first as it is: when the decoder gives exactly the
 * bytes its length promises, every character was base64 (a lenient decoder skips others; a strict one throws), and
 * no scan of the text is needed. Otherwise the text is checked: line breaks are allowed, anything else is refused.
 *
 * @throws {GatewayError} 400 naming `input_audio.data` for an empty string, a data URI (the gateway takes raw base64),
 *   or text that is not base64.
 */
function decodeData(data: string, decode: Base64Decoder): Uint8Array {
  if (data.startsWith('data:')) throw new GatewayError(400, { message: 'input_audio.data: must be base64 of the raw audio bytes, not a data URI (drop the "data:...;base64," prefix)' });
  if (data === '') throw new GatewayError(400, { message: 'input_audio.data: must not be empty' });
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if (data.length % 4 === 0) {
    try {
      const bytes = decode(data);
      if (bytes.byteLength === decodedLength(data.length, padding)) return bytes;
    } catch {
      // A strict decoder (atob) refused a character: told below.
    }
  }
  const text = data.replace(/[\r\n]+/g, '');
  if (text === '' || !BASE64.test(text) || text.length % 4 === 1) throw new GatewayError(400, { message: 'input_audio.data: must be base64 (A-Z, a-z, 0-9, +, / and = padding)' });
  return decode(text);
}

/** The format a URL's path names by its extension, or `undefined`. */
function formatOfPath(path: string): TranscriptionFormat | undefined {
  const match = /\.([A-Za-z0-9]{2,5})$/.exec(path);
  const extension = match?.[1]?.toLowerCase();
  return (TRANSCRIPTION_FORMATS as readonly string[]).includes(extension ?? '') ? (extension as TranscriptionFormat) : undefined;
}

/** Content types of a file part, and the format each names. */
const CONTENT_TYPE_FORMATS: Readonly<Record<string, TranscriptionFormat>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpga': 'mpga',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/aac': 'aac',
  'audio/pcm': 'pcm',
  'audio/l16': 'pcm',
};

/**
 * Reads the request's body in the shape its `Content-Type` says: `multipart/form-data`, else JSON.
 *
 * @param decode the platform's base64 decoder.
 * @returns the request, once a multipart body is parsed (a promise then; JSON at once).
 * @throws {GatewayError} (or rejects with) 413 for a body over {@link TRANSCRIPTION_BODY_BYTES} or a `file` over
 *   {@link MAX_UPLOAD_BYTES}; 400 naming the field for anything else: no body, no `input_audio` or `file`, no format,
 *   data that is not base64, a data URI, a malformed multipart body, a field of the wrong type.
 */
export function readTranscriptionRequest(request: CoreRequest, decode: Base64Decoder): TranscriptionRequest | Promise<TranscriptionRequest> {
  const contentType = header(request.headers, 'content-type') ?? '';
  if (/^\s*multipart\/form-data/i.test(contentType)) return readMultipart(request, contentType);
  const body = parseOrThrow(JsonBodySchema, readJsonBody(request, TRANSCRIPTION_BODY_BYTES));
  const { input_audio: input, ...rest } = body;
  if (input.data !== undefined) {
    return { ...rest, shape: 'json', audio: { kind: 'bytes', bytes: decodeData(input.data, decode), format: input.format! } };
  }
  const url = input.url!;
  const format = input.format ?? formatOfPath(url.replace(/[?#].*$/, ''));
  if (!format) throw new GatewayError(400, { message: 'input_audio.format: required when the URL\'s path has no audio extension (such as .wav or .mp3)' });
  return { ...rest, shape: 'json', audio: { kind: 'url', url, format } };
}

/**
 * A multipart body's text fields as the JSON shape's values: numbers, booleans, lists (`name[]`, repeated; the
 * granularities also comma-separated, as `@openrouter/sdk` sends them) and the `trace` object.
 */
function fieldValues(form: FormData): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  form.forEach((value, name) => {
    if (name === 'file') return;
    if (typeof value !== 'string') throw new GatewayError(400, { message: `${name}: must be a text field, got a file` });
    const list = name.endsWith('[]') ? name.slice(0, -2) : name === 'timestamp_granularities' ? name : undefined;
    if (list !== undefined) {
      // `@openrouter/sdk` 1.3.19 sends a list as one field, its values joined by commas (`word,segment`); the
      // `openai` clients send one field per value. Both are read; a granularity never holds a comma.
      const items = list === 'timestamp_granularities' ? value.split(',').map((item) => item.trim()) : [value];
      const current = values[list];
      values[list] = Array.isArray(current) ? [...(current as unknown[]), ...items] : items;
    } else if (Object.hasOwn(values, name)) {
      throw new GatewayError(400, { message: `${name}: expected one value, got more than one` });
    } else {
      values[name] = textValue(name, value);
    }
  });
  return values;
}

/** A text field's value as its JSON counterpart's type. */
function textValue(name: string, value: string): unknown {
  switch (name) {
    case 'temperature':
      return value.trim() === '' ? value : Number(value);
    case 'diarize':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'trace':
      if (jsonDepthOf(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new GatewayError(400, { message: `trace: arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels` });
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw new GatewayError(400, { message: 'trace: must be a JSON object' });
      }
    default:
      return value;
  }
}

async function readMultipart(request: CoreRequest, contentType: string): Promise<TranscriptionRequest> {
  const body = request.body ?? new Uint8Array(0);
  if (body.byteLength > TRANSCRIPTION_BODY_BYTES) throw new GatewayError(413, { message: bodyTooLargeMessage(TRANSCRIPTION_BODY_BYTES) });
  let form: FormData;
  try {
    form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    throw new GatewayError(400, { message: `Invalid multipart body: ${error instanceof Error ? error.message : String(error)}` });
  }
  const rest = parseOrThrow(MultipartFieldsSchema, fieldValues(form));
  const files = form.getAll('file');
  if (files.length === 0) throw new GatewayError(400, { message: 'file: required, the audio file to transcribe' });
  if (files.length > 1) throw new GatewayError(400, { message: `file: expected one file, got ${files.length}` });
  const file = files[0]!;
  if (typeof file === 'string') throw new GatewayError(400, { message: 'file: must be a file part (with a filename), got a text field' });
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new GatewayError(413, { message: `file: ${file.size} bytes is over the limit of ${MAX_UPLOAD_BYTES} bytes (25 MB); send larger audio as base64 JSON in input_audio` });
  }
  if (file.size === 0) throw new GatewayError(400, { message: 'file: must not be empty' });
  const mime = file.type.split(';')[0]!.trim().toLowerCase();
  const format = formatOfPath(file.name) ?? CONTENT_TYPE_FORMATS[mime];
  if (!format) {
    throw new GatewayError(400, {
      message: `file: its format is not known from its name ${quoted(file.name)} or its content type ${quoted(file.type)}; name it with one of the extensions ${TRANSCRIPTION_FORMATS.join(', ')}`,
    });
  }
  return { ...rest, shape: 'multipart', audio: { kind: 'bytes', bytes: new Uint8Array(await file.arrayBuffer()), format, name: file.name } };
}
