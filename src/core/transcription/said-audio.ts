/**
 * Audio this simulator said, as the transcription operation finds it again: what made it (the speech request's
 * input, voice, speed, seed and mode), keyed by the SHA-256 of its bytes as they were sent (the MP3 or the PCM; PCM
 * saved with a WAV header is known by its `data` chunk, which is the same PCM).
 *
 * The entries go through the gateway's store (`rememberSaid`/`recallSaid` of `src/core/store/types.ts`), as JSON
 * text: a store shared by replicas may hold anything, so what comes back is checked ({@link parseSaid}) before use.
 *
 * @module
 */
import * as z from 'zod';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * Longest input kept for one said audio, characters (UTF-16 code units): longer answers are not indexed. Above every
 * catalog speech model's `max_input_chars` (x-ai/grok-voice-tts-1.0 takes 15,000).
 */
export const MAX_SAID_INPUT_CHARS = 20_000;

/** Pieces (`words` mode) kept for one said audio at most: longer answers keep none, and their word times are estimated whole. */
export const MAX_SAID_PIECES = 2_000;

/**
 * What made one audio answer (JSON, snake_case, as kept in a store).
 *
 * - `input`, `voice`, `speed` (0.25–4, as rendered), `seed`, `mode` (`tones` or `words`), `format` (`pcm` or `mp3`):
 *   the speech request as rendered.
 * - `samples`: the audio's length in samples at 24,000 Hz.
 * - `pieces`: for `words`, the samples of each piece Flite said, in order (`src/core/audio/words/pieces.ts`), when
 *   known: the word times of a transcript are placed within them.
 * - `turns`: for multi-speaker input, each turn's `text` and `voice` in order (`input` is then their texts joined by
 *   one space, `src/core/audio/turns.ts`): word times and speaker labels follow them.
 */
export const SaidAudioSchema = z.lazy(() =>
  z.strictObject({
    input: z.string().max(MAX_SAID_INPUT_CHARS),
    voice: z.string().max(1024),
    speed: z.number().min(0.25).max(4),
    seed: z.number().finite(),
    mode: z.enum(['tones', 'words']),
    format: z.enum(['pcm', 'mp3']),
    samples: z.int().nonnegative(),
    pieces: z.array(z.int().nonnegative()).max(MAX_SAID_PIECES).optional(),
    turns: z.array(z.strictObject({ text: z.string().max(MAX_SAID_INPUT_CHARS), voice: z.string().max(1024) })).max(MAX_SAID_INPUT_CHARS).optional(),
  }),
);

/** See {@link SaidAudioSchema}. */
export type SaidAudio = z.output<typeof SaidAudioSchema>;

/**
 * A said audio from its JSON text (as a store gave it back).
 *
 * @returns the entry, or `undefined` when the text is not JSON of {@link SaidAudioSchema}'s shape (it is then ignored,
 *   and the audio transcribed as foreign audio).
 */
export function parseSaid(text: string): SaidAudio | undefined {
  try {
    const parsed = SaidAudioSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Computes the SHA-256 of bytes as 64 lower-case hex digits: at once, or as a promise. */
export type Sha256 = (bytes: Uint8Array) => string | Promise<string>;

/** Bytes from which {@link sha256Hex} hands the work to the platform's Web Crypto, when it has one (off the event loop in Node.js). */
const SUBTLE_FROM_BYTES = 64 * 1024;

/**
 * The SHA-256 of `bytes`, as 64 lower-case hex digits: Web Crypto's `crypto.subtle.digest` where the platform has it
 * (browsers in a secure context; Node.js, whose platform gives the faster `node:crypto` instead, `Platform.sha256Hex`),
 * else `@noble/hashes`. A {@link Sha256}.
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle && bytes.byteLength >= SUBTLE_FROM_BYTES) {
    return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
  }
  return bytesToHex(sha256(bytes));
}
