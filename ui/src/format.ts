/** How the dashboard writes times, sizes and statuses. */
import type { JournalEntry } from './api.js';

/** `12:03:04.567` (UTC) of an ISO time. */
export function clockTime(iso: string): string {
  const match = /T(\d\d:\d\d:\d\d(?:\.\d{1,3})?)/.exec(iso);
  return match ? match[1]! : iso;
}

/** `2026-01-01 12:03:04 UTC` of epoch ms. */
export function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `812 B`, `48.2 KB`, `1.21 MB`. */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(2)} MB`;
}

/** `0.4 ms`, `12 ms`, `1.24 s`. */
export function millis(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  524: 'A Timeout Occurred',
  529: 'Site is overloaded',
};

/** `404 Not Found`, or the bare number for a status without a known reason phrase. */
export function statusLine(status: number): string {
  const reason = REASONS[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** What the status cell shows for an entry. */
export interface StatusView {
  /** The text: `200`, `200 cut`, `reset`, `200 …` while streaming. */
  label: string;
  /** The class: `s2`…`s5` by status class, `cut`, `reset`, `aborted`, `pending`. */
  tone: string;
  /** A longer explanation (tooltip and screen readers). */
  title: string;
}

export function statusView(entry: JournalEntry): StatusView {
  const { status } = entry;
  if (status === 0 || entry.body_end === 'reset') {
    return { label: 'reset', tone: 'reset', title: status === 0 ? 'Connection reset without an answer' : `Connection reset after status ${status}` };
  }
  if (entry.body_end === 'cut') return { label: `${status} cut`, tone: 'cut', title: `${statusLine(status)}, then the body was cut off before its end` };
  if (entry.body_end === 'aborted') return { label: `${status} aborted`, tone: 'aborted', title: `${statusLine(status)}, then the client went away before the end` };
  if (entry.duration_ms === null) return { label: `${status} …`, tone: `s${Math.floor(status / 100)} pending`, title: `${statusLine(status)}, still streaming` };
  return { label: String(status), tone: `s${Math.floor(status / 100)}`, title: statusLine(status) };
}

/** Status classes of the filter. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'errors', 'broken'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const STATUS_CLASS_LABELS: Record<StatusClass, string> = {
  '2xx': '2xx success',
  '3xx': '3xx',
  '4xx': '4xx client error',
  '5xx': '5xx server error',
  errors: 'any error (4xx, 5xx, broken)',
  broken: 'cut, reset or aborted',
};

function broken(entry: JournalEntry): boolean {
  return entry.status === 0 || entry.body_end === 'cut' || entry.body_end === 'reset' || entry.body_end === 'aborted';
}

export function inStatusClass(entry: JournalEntry, cls: StatusClass): boolean {
  switch (cls) {
    case 'errors':
      return entry.status >= 400 || broken(entry);
    case 'broken':
      return broken(entry);
    default:
      return Math.floor(entry.status / 100) === Number(cls[0]);
  }
}

/** The path with its query, as requested. */
export function pathWithQuery(entry: JournalEntry): string {
  const query = new URLSearchParams(entry.query).toString();
  return query ? `${entry.path}?${query}` : entry.path;
}

/** The journal's session of a request that sent no API key and no `X-Mock-Session` (`sessionOf`, `src/core/accounts/session.ts`). */
export const NO_KEY_SESSION = 'no-key';

/** Most characters of a speech input a row shows (the cell cuts it shorter, with an ellipsis, when out of room). */
const INPUT_START = 80;

/** What a speech request asked for, as its row shows it; each part absent when the request did not say. */
export interface SpeechAsk {
  model?: string;
  voice?: string;
  /** `response_format`, or the answer's format (`pcm` when the request named none). */
  format?: string;
  /** The input's start: whitespace runs as one space, at most {@link INPUT_START} characters, then `…`. */
  input?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The text of a speech `input`: the string, or a list of turns' `text`s joined by a space (multi-speaker input). */
function inputText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return text(value);
  const texts = value.map((turn: unknown) => (turn !== null && typeof turn === 'object' ? text((turn as { text?: unknown }).text) : undefined)).filter((part) => part !== undefined);
  return texts.length > 0 ? texts.join(' ') : undefined;
}

/**
 * What speech request `entry` asked for: model, voice and format from its journaled body, else from its answer's
 * `audio` (a body over 64 KiB is not kept; the journal keeps the model, voice and format of a 200 there too), and the
 * input's start (of a list of turns, their texts joined). `undefined` for another operation, or a speech request that says none of these (no JSON body).
 */
export function speechAsk(entry: JournalEntry): SpeechAsk | undefined {
  if (entry.operation !== 'speech') return undefined;
  const body = entry.body !== null && typeof entry.body === 'object' && !Array.isArray(entry.body) ? (entry.body as Record<string, unknown>) : {};
  const audio = entry.audio;
  const ask: SpeechAsk = {};
  const model = text(body.model) ?? audio?.model;
  const voice = text(body.voice) ?? audio?.voice;
  const format = text(body.response_format) ?? audio?.format;
  const input = inputText(body.input)?.replace(/\s+/g, ' ').trim();
  if (model !== undefined) ask.model = model;
  if (voice !== undefined) ask.voice = voice;
  if (format !== undefined) ask.format = format;
  if (input) ask.input = [...input].length > INPUT_START ? `${[...input].slice(0, INPUT_START).join('')}…` : input;
  return Object.keys(ask).length > 0 ? ask : undefined;
}

/**
 * What transcription request `entry` asked for and heard, in a {@link SpeechAsk}'s shape: the model, the audio's format
 * (from the answer's `transcription`, else the journaled body's `input_audio` or `file`) and, as `input`, the start of
 * the transcript (a 200's). `undefined` for another operation, or one that says none of these.
 */
export function transcriptionAsk(entry: JournalEntry): SpeechAsk | undefined {
  if (entry.operation !== 'transcription') return undefined;
  const body = entry.body !== null && typeof entry.body === 'object' && !Array.isArray(entry.body) ? (entry.body as Record<string, unknown>) : {};
  const part = (name: string): Record<string, unknown> => {
    const value = body[name];
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  };
  const heard = entry.transcription ?? undefined;
  const ask: SpeechAsk = {};
  const model = text(body.model) ?? heard?.model;
  const format = heard?.format ?? text(part('input_audio').format) ?? text(part('file').format);
  const said = heard?.text.replace(/\s+/g, ' ').trim();
  if (model !== undefined) ask.model = model;
  if (format) ask.format = format;
  if (said) ask.input = [...said].length > INPUT_START ? `${[...said].slice(0, INPUT_START).join('')}…` : said;
  return Object.keys(ask).length > 0 ? ask : undefined;
}

/** {@link SpeechAsk} as one line: `openai/gpt-4o-mini-tts · alloy · mp3 · “Hello there”`. */
export function speechAskText(ask: SpeechAsk): string {
  return [ask.model, ask.voice, ask.format, ask.input === undefined ? undefined : `“${ask.input}”`].filter((part) => part !== undefined).join(' · ');
}

/** The bytes of the answer: `response_bytes`, else its `Content-Length`. */
export function responseBytes(entry: JournalEntry): number | null {
  if (typeof entry.response_bytes === 'number') return entry.response_bytes;
  const length = entry.response_headers['Content-Length'] ?? entry.response_headers['content-length'];
  return length === undefined ? null : Number(length);
}

/** Whether `entry` matches the free-text `needle` (lower case): path, operation, scenario, session, ids, message, body. */
export function matchesText(entry: JournalEntry, needle: string): boolean {
  if (needle === '') return true;
  const fields = [
    entry.method,
    pathWithQuery(entry),
    entry.operation ?? '',
    entry.scenario ?? '',
    entry.rule ?? '',
    entry.session,
    entry.generation_id ?? '',
    String(entry.status),
    entry.error?.error.message ?? '',
    entry.body === null ? '' : JSON.stringify(entry.body),
  ];
  return fields.some((field) => field.toLowerCase().includes(needle));
}
