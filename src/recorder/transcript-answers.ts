/**
 * What a transcription that came through the recording proxy becomes (`createAudioTranscriptions`, `POST
 * /api/v1/audio/transcriptions`): the audio of the request, read as the simulator reads it (`readTranscriptionRequest`
 * of `src/core/transcription/request-body.ts`: base64 `input_audio.data` of a JSON body, or the `file` part of a
 * multipart upload), keys the transcript of the 200 answer by its SHA-256, as an entry of `transcripts.json`
 * (`src/core/formats/transcript-schema.ts`) that `--fixtures` answers the same audio with.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { GatewayError } from '../core/base/error-envelope.js';
import { MAX_TRANSCRIPT_WORDS, TranscriptEntrySchema, TranscriptWordSchema, type FixtureTranscript } from '../core/formats/transcript-schema.js';
import { MAX_BODY_BYTES, TRANSCRIPTION_BODY_BYTES } from '../core/http/request.js';
import type { Operation } from '../core/http/routes.js';
import { decodeBase64WithAtob, readTranscriptionRequest } from '../core/transcription/request-body.js';
import { nodePlatform } from '../node-platform/platform.js';

/** A transcript to record: the SHA-256 of the audio (64 hex), what the answer said of it, and the request's model. */
export interface RecordedTranscript {
  readonly sha256: string;
  readonly transcript: FixtureTranscript;
  readonly model: string;
  /** Why the answer's `words` were left out, when it had some that `transcripts.json` cannot hold. */
  readonly wordsDropped?: string | undefined;
}

/**
 * The transcript of one transcription exchange, or why there is none to record (a note's text, without `not
 * recorded: `).
 *
 * @param requestBody the request's bytes (`undefined` when the proxy did not keep them: past its limit).
 * @param contentType the request's `Content-Type` (`multipart/form-data; boundary=...` or JSON).
 * @param answer the 200 answer's bytes: `{text, language?, duration?, words?, ...}` (`json` or `verbose_json`).
 * @returns the transcript, with `language` (a string of at most 32 characters), `duration` (seconds, 0 or more) and
 *   `words` (each `{word, start, end, speaker?}`) when the answer gave them; the answer's other fields (`usage`,
 *   `segments`, `task`) are not kept.
 */
export async function transcriptOfExchange(requestBody: Buffer | undefined, contentType: string, answer: Buffer): Promise<RecordedTranscript | string> {
  if (requestBody === undefined) return 'the request body was not kept (too long)';
  let audio;
  let model: string;
  try {
    const request = await readTranscriptionRequest({ method: 'POST', path: '/api/v1/audio/transcriptions', query: '', headers: { 'content-type': contentType }, body: requestBody }, nodePlatform.decodeBase64 ?? decodeBase64WithAtob);
    audio = request.audio;
    model = request.model;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return `the request is not a transcription the simulator reads (${error.status}: ${error.message})`;
  }
  if (audio.kind === 'url') return 'the audio is a URL (input_audio.url), no bytes to key the transcript by';
  const body = jsonObjectOf(answer);
  if (body === undefined || typeof body.text !== 'string') return 'expected a JSON answer {"text": ...}';
  const language = typeof body.language === 'string' && body.language.length <= 32 ? body.language : undefined;
  const duration = typeof body.duration === 'number' && Number.isFinite(body.duration) && body.duration >= 0 ? body.duration : undefined;
  const words = wordsOf(body.words);
  const transcript: FixtureTranscript = {
    text: body.text,
    ...(language === undefined ? {} : { language }),
    ...(duration === undefined ? {} : { duration }),
    ...(Array.isArray(words) ? { words } : {}),
  };
  const sha256 = createHash('sha256').update(audio.bytes).digest('hex');
  const checked = TranscriptEntrySchema.safeParse({ sha256, ...transcript });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return `invalid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trimEnd();
  }
  return { sha256, transcript, model, wordsDropped: typeof words === 'string' ? words : undefined };
}

/**
 * The answer's `words` as `transcripts.json` holds them (`word`, `start`, `end`, and `speaker` when it is an index
 * from 0; other fields such as `speaker_label` left out), `undefined` when it has none, or why they are left out.
 */
function wordsOf(value: unknown): FixtureTranscript['words'] | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return 'words is not a list';
  const words = value.map((word) => {
    const w = word as Record<string, unknown> | null;
    if (w === null || typeof w !== 'object') return w;
    const speaker = Number.isSafeInteger(w.speaker) && (w.speaker as number) >= 0 ? { speaker: w.speaker } : {};
    return { word: w.word, start: w.start, end: w.end, ...speaker };
  });
  if (words.length > MAX_TRANSCRIPT_WORDS) return `more than ${MAX_TRANSCRIPT_WORDS} words`;
  const parsed = TranscriptWordSchema.array().safeParse(words);
  if (!parsed.success) return `words[${String(parsed.error.issues[0]?.path[0] ?? '')}] is not {word, start, end} in seconds`;
  return parsed.data;
}

/** `bytes` as a JSON object, or `undefined`. */
function jsonObjectOf(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The model of a transcription request as a recorded scenario rule can match it on replay: the `model` of a JSON
 * body of at most `MAX_BODY_BYTES` (1 MiB), which is what the scenario engine reads (`docs/scenarios.md`); else
 * `undefined` (a multipart upload, a longer body), so the rule matches any transcription.
 */
export function transcriptionRuleModel(requestBody: Buffer | undefined): string | undefined {
  if (requestBody === undefined || requestBody.length > MAX_BODY_BYTES) return undefined;
  const model = jsonObjectOf(requestBody)?.model;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

/**
 * The most bytes of a request body kept for recording: `maxRecordBytes`, or for a transcription at least what the
 * simulator takes (`TRANSCRIPTION_BODY_BYTES`, 64 MiB), so any audio the simulator could answer is recorded.
 */
export function keptRequestBytes(operation: Operation | undefined, maxRecordBytes: number): number {
  return operation === 'transcription' ? Math.max(maxRecordBytes, TRANSCRIPTION_BODY_BYTES) : maxRecordBytes;
}
