/**
 * The audio of a journaled speech answer, rendered again: the journal keeps no audio bytes, but it keeps what
 * makes them (the request's `input`, and the entry's `audio`: format, voice, speed), and the gateway's seed does
 * the rest. Rendering is deterministic, so the bytes equal the original answer's, whole (also when a scenario cut
 * the original short). Behind `gateway.openAudio(seq)` (`GET /__mock/requests/<seq>/audio`) and `gateway.audioOf(seq)`.
 *
 * @module
 */
import type { AudioRenderer } from '../audio/renderer.js';
import { turnsText } from '../audio/turns.js';
import { concat } from '../base/bytes.js';
import { ChunkedBody, type StreamedBody } from '../http/body.js';
import { HEARD_AUDIO_BYTES, HEARD_CLIP_BYTES, type HeardAudio } from '../transcription/heard-audio.js';
import { JOURNAL_BODY_LIMIT, type JournalEntry } from './journal.js';

/** The audio to send again: its content type, length and body (rendered as it is read, or from the cache). */
export interface ReplayedAudio {
  /** `audio/mpeg` or `audio/pcm;rate=24000;channels=1` (a transcription's clip: the content type of its format). */
  readonly contentType: string;
  /** The body's length, bytes; `undefined` for words not yet rendered (sent without a length). */
  readonly byteLength: number | undefined;
  /** The bytes, streamed: rendered as they are read, or at hand from the audio cache (`chunksNow()`). */
  readonly body: StreamedBody;
}

/**
 * Opens the audio of journal entry `seq` (`entry`, as the journal gave it, `undefined` when it has none) for
 * rendering again.
 *
 * @returns the audio, or why there is none (a sentence for a 404 envelope): `No journal entry <seq>` (never made,
 *   or dropped by the journal's bound or a reset), `Journal entry <seq> is not a speech answer with status 200`,
 *   `Journal entry <seq> did not keep its request body (over 64 KiB), so its audio cannot be rendered again`, or
 *   `Journal entry <seq> answered a recorded speech answer ...` (`audio.recorded`: served from a `fixtures` folder's
 *   `audio/index.json`, not rendered).
 */
export function replaySpeech(entry: JournalEntry | undefined, seq: number, renderer: AudioRenderer, seed: number): ReplayedAudio | string {
  if (!entry) return `No journal entry ${seq}`;
  const audio = entry.audio;
  if (!audio || entry.status !== 200 || entry.operation !== 'speech') return `Journal entry ${seq} is not a speech answer with status 200`;
  if (audio.recorded) return `Journal entry ${seq} answered a recorded speech answer (the fixtures folder's audio/index.json), so its audio cannot be rendered again; send the same request to get the recording`;
  const given = entry.body !== null && typeof entry.body === 'object' ? (entry.body as { input?: unknown }).input : undefined;
  const turns = Array.isArray(given) && audio.voices ? (given as { text: string }[]).map((turn, i) => ({ text: turn.text, voice: audio.voices![i] ?? audio.voice })) : undefined;
  const input = turns ? turnsText(turns) : given;
  if (typeof input !== 'string') {
    return `Journal entry ${seq} did not keep its request body (over ${JOURNAL_BODY_LIMIT / 1024} KiB), so its audio cannot be rendered again`;
  }
  const mode = audio.speech ?? 'tones';
  const missing = mode === 'words' ? renderer.wordsUnavailable() : undefined;
  if (missing) return `Journal entry ${seq} was said with words, which this gateway cannot render again: ${missing}`;
  const opened = renderer.open({ input, voice: audio.voice, turns, speed: audio.speed, seed, format: audio.format, mode });
  return { contentType: opened.contentType, byteLength: opened.byteLength, body: opened.body };
}

/**
 * Opens the audio a transcription entry `seq` transcribed (`entry`; `undefined` when the journal has none), as heard:
 * the bytes the request sent, kept by `heard` (`src/core/transcription/heard-audio.ts`).
 *
 * @returns the audio, or why there is none (a sentence for a 404 envelope): `No journal entry <seq>`, `Journal entry
 *   <seq> is not a transcription answer with status 200 of audio bytes`, or that its audio is no longer kept (16 MiB
 *   of recent clips are, each at most 8 MiB, in the process that heard it).
 */
export function replayHeard(entry: JournalEntry | undefined, seq: number, heard: HeardAudio): ReplayedAudio | string {
  if (!entry) return `No journal entry ${seq}`;
  const sha256 = entry.transcription?.audio_sha256;
  if (entry.status !== 200 || entry.operation !== 'transcription' || !sha256) return `Journal entry ${seq} is not a transcription answer with status 200 of audio bytes`;
  const clip = heard.get(sha256);
  if (!clip) return `The audio of journal entry ${seq} is no longer kept (the ${HEARD_AUDIO_BYTES / 1024 / 1024} MiB of recent clips, each at most ${HEARD_CLIP_BYTES / 1024 / 1024} MiB, that the replica which heard it keeps)`;
  return { contentType: clip.contentType, byteLength: clip.bytes.byteLength, body: new ChunkedBody(clip.bytes) };
}

/** Reads `audio` whole (at once when its chunks are at hand). */
export async function collectAudio(audio: ReplayedAudio): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of audio.body.chunksNow?.() ?? audio.body) chunks.push(chunk);
  return concat(chunks);
}
