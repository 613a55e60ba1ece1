/**
 * The 200 answer of `createAudioTranscriptions` (`STTResponse` of `@openrouter/sdk` 1.3.19, `models/sttresponse`):
 * `{text, usage}`, and with `response_format: "verbose_json"` also `task`, `language`, `duration` and `segments`,
 * with `words` when word timestamps (or speaker labels) are asked for. `docs/transcription.md`, "The answer".
 *
 * @module
 */
import { roundUsd } from '../base/usd.js';

/** One word of a transcript: `start`, `end` in seconds; `from`, `to` its token's offsets in the text, when known. */
export interface TranscriptWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  readonly speaker?: number | undefined;
}

/** A transcript, from whichever source (`docs/transcription.md`, "Where a transcript comes from"). */
export interface Transcript {
  readonly text: string;
  readonly words: readonly TranscriptWord[];
  /** The audio's length, seconds. */
  readonly seconds: number;
  /** The language the source names (a fixture's), else `undefined`. */
  readonly language?: string | undefined;
}

/** `usage` of the answer (`STTUsage`): `cost` (USD) always; `seconds`, or the three token counts, by how the model bills. */
export type SttUsage =
  | { readonly seconds: number; readonly cost: number }
  | { readonly input_tokens: number; readonly output_tokens: number; readonly total_tokens: number; readonly cost: number };

/** Audio tokens a second of audio counts for on token-billed models: 1,000 a minute (OpenAI's gpt-4o transcribe models). */
export const AUDIO_TOKENS_PER_SECOND = 1000 / 60;

/** Characters of text an output token counts for (OpenAI's rule of thumb for English). */
const CHARS_PER_TOKEN = 4;

/** How a model bills (`TranscriptionModelInfo` of `src/core/formats/fixture-schema.ts`) and its prices, USD. */
export interface Billing {
  readonly pricedBy: 'second' | 'token';
  /** USD a second of audio (`priced_by: "second"`). */
  readonly perSecond: number;
  /** USD an audio input token, and an output token (`priced_by: "token"`). */
  readonly perInputToken: number;
  readonly perOutputToken: number;
}

/**
 * The `usage` of transcribing `seconds` of audio into `text`.
 *
 * - by the second: `seconds` = the length rounded up to a whole second (at least 1 for any audio), × `perSecond`;
 * - by the token: `input_tokens` = ⌈seconds × 1000 / 60⌉, `output_tokens` = ⌈characters / 4⌉.
 */
export function usageOf(billing: Billing, seconds: number, text: string): SttUsage {
  if (billing.pricedBy === 'second') {
    const billed = seconds > 0 ? Math.max(1, Math.ceil(seconds - 1e-9)) : 0;
    return { seconds: billed, cost: roundUsd(billed * billing.perSecond) };
  }
  const input = Math.ceil(seconds * AUDIO_TOKENS_PER_SECOND - 1e-9);
  const output = Math.ceil([...text].length / CHARS_PER_TOKEN);
  return { input_tokens: input, output_tokens: output, total_tokens: input + output, cost: roundUsd(input * billing.perInputToken + output * billing.perOutputToken) };
}

/** What the request asked of the answer. */
export interface AnswerShape {
  readonly verbose: boolean;
  readonly words: boolean;
  readonly diarize: boolean;
  /** The request's `temperature` (default 0), which each segment of a verbose answer repeats, as Whisper's do. */
  readonly temperature: number;
  /** The language of a verbose answer, a code (named by {@link languageName}): the request's, else the source's, else `en`. */
  readonly language: string;
}

/** English names of ISO-639-1 codes, as a verbose answer names its language (`"language": "english"`). */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  ar: 'arabic', cs: 'czech', da: 'danish', de: 'german', el: 'greek', en: 'english', es: 'spanish', fi: 'finnish',
  fr: 'french', he: 'hebrew', hi: 'hindi', hu: 'hungarian', id: 'indonesian', it: 'italian', ja: 'japanese',
  ko: 'korean', nl: 'dutch', no: 'norwegian', pl: 'polish', pt: 'portuguese', ro: 'romanian', ru: 'russian',
  sv: 'swedish', th: 'thai', tr: 'turkish', uk: 'ukrainian', vi: 'vietnamese', zh: 'chinese',
};

/**
 * The `language` of a verbose answer for a language code: the English name of an ISO-639-1 code (its region
 * dropped: `en-GB` is `english`), as the gateway's verbose sample answer writes it; any other value as it is.
 */
export function languageName(code: string): string {
  const base = code.toLowerCase().split(/[-_]/)[0]!;
  return Object.hasOwn(LANGUAGE_NAMES, base) ? LANGUAGE_NAMES[base]! : code;
}

/** Longest segment, seconds: a segment also ends after a sentence. */
const MAX_SEGMENT_SECONDS = 30;

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** The letter label of speaker `index` (`A`, `B`, …, `Z`, `AA`, …), as diarizing providers label speakers. */
export function speakerLabel(index: number): string {
  let label = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
  return label;
}

/**
 * The answer's JSON value.
 *
 * @param transcript what was said.
 * @param shape what the request asked for (`response_format`, `timestamp_granularities`, `diarize`, `language`).
 * @param usage the call's usage.
 */
export function sttAnswer(transcript: Transcript, shape: AnswerShape, usage: SttUsage): Record<string, unknown> {
  if (!shape.verbose) return { text: transcript.text, usage };
  const answer: Record<string, unknown> = {
    task: 'transcribe',
    language: languageName(shape.language),
    duration: round3(transcript.seconds),
    text: transcript.text,
    segments: segmentsOf(transcript, shape),
  };
  if (shape.words || shape.diarize) {
    answer.words = transcript.words.map((word) => {
      const timed: Record<string, unknown> = { word: word.word, start: word.start, end: word.end };
      if (shape.diarize) {
        timed.speaker = word.speaker ?? 0;
        timed.speaker_label = speakerLabel(word.speaker ?? 0);
      }
      return timed;
    });
  }
  answer.usage = usage;
  return answer;
}

/**
 * The segments of a transcript: runs of words that end at a sentence's end (`.`, `!`, `?` closing a token), a change
 * of speaker, or past {@link MAX_SEGMENT_SECONDS}; each segment's `text` is the text its words' tokens span. Without
 * word offsets (a fixture's words), one segment holds the whole text.
 */
function segmentsOf(transcript: Transcript, shape: AnswerShape): Array<Record<string, unknown>> {
  const { text, words } = transcript;
  if (words.length === 0) return text.trim() === '' ? [] : [{ id: 0, seek: 0, start: 0, end: round3(transcript.seconds), text: text.trim(), temperature: shape.temperature }];
  const located = words.every((word) => word.from !== undefined && word.to !== undefined);
  if (!located) return [segment(0, words[0]!, words[words.length - 1]!, text.trim(), shape)];
  const segments: Array<Record<string, unknown>> = [];
  let first = 0;
  words.forEach((word, i) => {
    const next = words[i + 1];
    const sentenceEnd = /[.!?…]["')\]]*$/u.test(text.slice(word.from, word.to));
    const ends = !next || sentenceEnd || (next.speaker ?? 0) !== (word.speaker ?? 0) || next.end - words[first]!.start > MAX_SEGMENT_SECONDS;
    if (!ends) return;
    const head = words[first]!;
    segments.push(segment(segments.length, head, word, text.slice(head.from, word.to), shape));
    first = i + 1;
  });
  return segments;
}

function segment(id: number, head: TranscriptWord, last: TranscriptWord, text: string, shape: AnswerShape): Record<string, unknown> {
  const value: Record<string, unknown> = { id, seek: 0, start: head.start, end: last.end, text, temperature: shape.temperature };
  if (shape.diarize) value.speaker = head.speaker ?? 0;
  return value;
}
