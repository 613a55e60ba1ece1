/**
 * The format of a recorded folder (`docs/recording.md`): what `mockrouter record` writes and
 * `--fixtures <dir>` serves, beside the fixture files of `fixture-schema.ts`:
 *
 * - `models.json`: the catalog, as `fixtures/models.json` (`ModelsFileSchema`), or the real gateway's answer to
 *   `GET /api/v1/models?output_modalities=all` saved as it came (`{"data": [<Model>, ...], ...}`);
 * - `generations.json` (optional): generation records, as `fixtures/generations.json`;
 * - `audio/index.json` (optional) and the files it names: recorded speech answers, keyed by the request's
 *   normalized body ({@link speechKeyOf}), served byte for byte;
 * - `scenarios/recorded.yaml` (optional): the error answers recorded, as rules of a scenario named `recorded`
 *   (`docs/scenarios.md`), replayed with `--scenarios <dir>/scenarios --scenario recorded`;
 * - `transcripts.json` (optional): the transcripts of the audio transcribed, keyed by the audio's SHA-256
 *   (`transcript-schema.ts`).
 *
 * @module
 */
import * as z from 'zod';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** Where, under a recorded folder, the speech recordings are. */
export const AUDIO_FOLDER = 'audio';
/** The index of the speech recordings, under {@link AUDIO_FOLDER}. */
export const AUDIO_INDEX_FILE = 'index.json';
/** The scenario file of the error answers recorded, under `scenarios/`; its scenario is named {@link RECORDED_SCENARIO}. */
export const RECORDED_SCENARIO_FILE = 'recorded.yaml';
/** The name of the scenario of recorded error answers. */
export const RECORDED_SCENARIO = 'recorded';

/**
 * A header value HTTP can send: tab, visible ASCII, spaces and Latin-1 (U+0080 to U+00FF), no CR, LF or other control
 * characters, as Node's `validateHeaderValue` checks it (RFC 9110, section 5.5); the rule of a scenario's header
 * values (`src/core/scenarios/schema.ts`).
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** One recorded speech answer. */
export const AudioRecordingSchema = z.lazy(() =>
  z.strictObject({
    /** The request's normalized body ({@link speechKeyOf}), as its JSON text. */
    key: z.string().min(1, 'expected the normalized request, as JSON text'),
    /** The file under `audio/` holding the answer's bytes: a plain name, no folder (`<64 hex>.mp3` or `.pcm`). */
    file: z.string().regex(/^[A-Za-z0-9._-]+$/, 'expected a file name under audio/ (letters, digits, ".", "_", "-"), no folder'),
    /**
     * The answer's `Content-Type`, as the upstream sent it (`audio/mpeg`, `audio/pcm;rate=24000;channels=1`): a value
     * HTTP can send as a header (no CR, LF or other control character), so that every answer built from it can be sent.
     */
    content_type: z
      .string()
      .min(1, 'expected the Content-Type the upstream sent')
      .regex(HEADER_VALUE, 'expected a header value of tab, printable ASCII or Latin-1 characters (no CR, LF or other control characters, nothing past U+00FF)'),
    /** The file's length, bytes (checked when the folder loads). */
    bytes: z.int().min(0),
  }),
);

/** `audio/index.json`. */
export const AudioIndexSchema = z.lazy(() => z.strictObject({ recordings: z.array(AudioRecordingSchema) }));

/** One recorded speech answer (see {@link AudioRecordingSchema}). */
export type AudioRecording = z.output<typeof AudioRecordingSchema>;
/** `audio/index.json`, parsed. */
export type AudioIndex = z.output<typeof AudioIndexSchema>;

/** What a speech request's answer depends on: the fields of its body that {@link speechKeyOf} keeps. */
export interface SpeechKeyFields {
  model: string;
  /** The text, or the list of turns `{text, voice?, instructions?}` (keyed with their names sorted). */
  input: string | readonly object[];
  voice: string;
  response_format?: string | undefined;
  speed?: number | undefined;
  provider?: { options?: unknown } | undefined;
  /** The request's `instructions`; part of the key only when given. */
  instructions?: string | undefined;
  /** The request's `input_references`; part of the key, as a SHA-256 of their JSON, only when there are some. */
  input_references?: readonly object[] | undefined;
}

/**
 * The key of a speech request's recording: the JSON text of `{input, model, provider_options, response_format,
 * speed, voice}` (names sorted, provider options with their names sorted at every depth), `response_format`
 * defaulting to `pcm` and `speed` to 1 as the gateway's (`createAudioSpeech`), `provider_options` `null` when none;
 * with `instructions` when the request gives them, and `input_references` (the SHA-256, hex, of their JSON with names
 * sorted: a reference clip may be megabytes) when it holds any. Those two change the audio, and a key without them is
 * the key of a request without them, as before they were keyed. Other body fields (`session_id`, `user`,
 * `provider.zdr`, ...) do not change the audio, so they are not part of it.
 *
 * @example speechKeyOf({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: 'Hi', voice: 'alloy' })
 * // '{"input":"Hi","model":"openai/gpt-4o-mini-tts-2025-12-15","provider_options":null,"response_format":"pcm","speed":1,"voice":"alloy"}'
 */
export function speechKeyOf(body: SpeechKeyFields): string {
  const references = body.input_references ?? [];
  const digest = references.length > 0 ? bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(sorted(references))))) : undefined;
  return keyText(body, digest);
}

/** {@link speechKeyOf} with the references' SHA-256 (hex) given, or `undefined` for none. */
function keyText(body: SpeechKeyFields, referencesDigest: string | undefined): string {
  return JSON.stringify({
    input: sorted(body.input),
    ...(referencesDigest !== undefined ? { input_references: referencesDigest } : {}),
    ...(body.instructions !== undefined ? { instructions: body.instructions } : {}),
    model: body.model,
    provider_options: sorted(body.provider?.options ?? null),
    response_format: body.response_format ?? 'pcm',
    speed: body.speed ?? 1,
    voice: body.voice,
  });
}

/** `value` with the names of every object sorted (arrays keep their order). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, sorted((value as Record<string, unknown>)[name])]),
  );
}

/** One recorded speech answer, loaded: what `--fixtures` answers for its key ({@link speechKeyOf}). */
export interface RecordedAudio {
  /** The answer's `Content-Type`, exactly as recorded. */
  readonly contentType: string;
  /** The answer's bytes (shared: never write into them). */
  readonly bytes: Uint8Array;
}

/**
 * The speech recordings of a folder, keyed by {@link speechKeyOf} of the request each answers (the `key` of its
 * entry in `audio/index.json`).
 */
export type Recordings = ReadonlyMap<string, RecordedAudio>;

/**
 * Whether `key` is a normalized request as {@link speechKeyOf} writes it (so a request can ever match it): JSON
 * text of an object whose `speechKeyOf` is `key` itself (a string `input` or a list of turns with a `text` each; its
 * `input_references`, when present, a SHA-256 in hex).
 */
export function isSpeechKey(key: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(key);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  const input = fields['input'];
  const turns = Array.isArray(input) && input.length > 0 && input.every((turn) => turn !== null && typeof turn === 'object' && typeof (turn as { text?: unknown }).text === 'string');
  if (typeof fields['model'] !== 'string' || (typeof input !== 'string' && !turns) || typeof fields['voice'] !== 'string') return false;
  const instructions = fields['instructions'];
  const digest = fields['input_references'];
  if ((instructions !== undefined && typeof instructions !== 'string') || (digest !== undefined && !(typeof digest === 'string' && /^[0-9a-f]{64}$/.test(digest)))) return false;
  const options = fields['provider_options'];
  return (
    keyText(
      {
        model: fields['model'],
        input: input as string | object[],
        voice: fields['voice'],
        response_format: typeof fields['response_format'] === 'string' ? fields['response_format'] : undefined,
        speed: typeof fields['speed'] === 'number' ? fields['speed'] : undefined,
        provider: options === null ? undefined : { options },
        instructions,
      },
      digest,
    ) === key
  );
}

/**
 * The playback length of recorded audio, ms, as far as its `Content-Type` and bytes tell: for
 * `audio/pcm;rate=R;channels=C` (16-bit samples; rate 24000 and 1 channel when not given) the exact length; for
 * `audio/mpeg` the length at the bit rate of its first MPEG-1/2 Layer III frame header (after an ID3v2 tag), so
 * exact for constant bit rate; 0 when neither applies. Used to pace a recorded answer as a rendered one.
 */
export function recordedDurationMs(contentType: string, bytes: Uint8Array): number {
  const type = contentType.toLowerCase();
  if (type.startsWith('audio/pcm') || type.startsWith('audio/l16')) {
    const rate = Number(/rate=(\d+)/.exec(type)?.[1] ?? 24000);
    const channels = Number(/channels=(\d+)/.exec(type)?.[1] ?? 1);
    return rate > 0 && channels > 0 ? (bytes.byteLength / (2 * channels * rate)) * 1000 : 0;
  }
  if (type.startsWith('audio/mpeg') || type.startsWith('audio/mp3')) {
    const kbps = mp3BitRateKbps(bytes);
    return kbps > 0 ? (bytes.byteLength * 8) / kbps : 0;
  }
  return 0;
}

/** Layer III bit rates, kbps, by index: MPEG-1, then MPEG-2/2.5. */
const MP3_KBPS = [
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0],
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0],
] as const;

/** The bit rate of the first Layer III frame header of `bytes` (after an ID3v2 tag), kbps, or 0. */
function mp3BitRateKbps(bytes: Uint8Array): number {
  let at = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33 && bytes.byteLength >= 10) {
    at = 10 + (((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f));
  }
  for (; at + 2 < bytes.byteLength; at++) {
    if (bytes[at] !== 0xff || (bytes[at + 1]! & 0xe6) !== 0xe2) continue; // sync, Layer III
    const mpeg1 = (bytes[at + 1]! & 0x18) === 0x18;
    return MP3_KBPS[mpeg1 ? 0 : 1][bytes[at + 2]! >> 4] ?? 0;
  }
  return 0;
}
