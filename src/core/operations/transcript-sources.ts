/**
 * Where a transcript comes from (`docs/transcription.md`, "Where a transcript comes from"), tried in order:
 *
 * 1. a fixture: the fixtures folder's `transcripts.json` names the audio's SHA-256 (or a clip with that hash);
 * 2. audio this simulator said: its SHA-256 (or, for a WAV of the simulator's own PCM, its samples') is in the said
 *    index (`src/core/transcription/said-index.ts`): the transcript is the speech request's input, exactly, with word
 *    times from the synthesis plan; `input_audio.url` naming a journal entry's audio (`/__mock/requests/<seq>/audio`)
 *    is that audio, rendered again;
 * 3. anything else: a transcript drawn from the seed and the audio's SHA-256 (or the URL's), about 2.5 words a second.
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import { SAMPLE_RATE } from '../audio/format.js';
import type { TranscriptionFacts } from '../base/types.js';
import type { FixtureTranscript } from '../formats/transcript-schema.js';
import { collectAudio, replaySpeech } from '../journal/audio-replay.js';
import { readAudio, type TranscriptionFormat } from '../transcription/audio-length.js';
import { inventTranscript } from '../transcription/invented-transcript.js';
import type { TranscriptionRequest } from '../transcription/request-body.js';
import type { SaidAudio } from '../transcription/said-audio.js';
import type { Transcript } from '../transcription/stt-answer.js';
import { wordTimesOf } from '../transcription/word-times.js';
import type { GatewayContext } from './context.js';

/** A transcript, where it came from, and the SHA-256 of the audio it is of (`null` for a URL not served here). */
export interface Heard {
  readonly transcript: Transcript;
  readonly source: TranscriptionFacts['source'];
  readonly sha256: string | null;
}

/** The path of a journal entry's audio on the admin API. */
const JOURNAL_AUDIO_PATH = /\/__mock\/requests\/(\d{1,15})\/audio\/?$/;

/** Length given to the audio of a URL that is not served here, seconds: 3 to 30, drawn from the URL. */
const URL_SECONDS = { min: 3, max: 30 } as const;

/**
 * The transcript of the request's audio.
 *
 * @throws {GatewayError} (rejects with) 400 naming `input_audio.data` or `file` when the bytes are not of their format
 *   (a WAV, MP3, FLAC or Ogg whose first bytes say otherwise), or `input_audio.url` when it names a journal entry that
 *   holds no speech audio; the store's 503 when a shared store cannot be reached.
 */
export async function heardTranscript(ctx: GatewayContext, body: TranscriptionRequest): Promise<Heard> {
  const audio = body.audio;
  if (audio.kind === 'bytes') return heardBytes(ctx, audio.bytes, audio.format, body.shape === 'json' ? 'input_audio.data' : 'file');
  let path: string;
  try {
    path = new URL(audio.url).pathname;
  } catch {
    throw new GatewayError(400, { message: 'input_audio.url: must be an http(s) URL' });
  }
  const seq = JOURNAL_AUDIO_PATH.exec(path)?.[1];
  if (seq !== undefined) {
    const entry = await ctx.store.journal.get(Number(seq));
    const replayed = replaySpeech(entry, Number(seq), ctx.audio, ctx.seed);
    if (typeof replayed === 'string') throw new GatewayError(400, { message: `input_audio.url: ${replayed}` });
    if (entry!.audio!.speech === 'words') await ctx.audio.prepare('words');
    return heardBytes(ctx, await collectAudio(replayed), entry!.audio!.format, 'input_audio.url');
  }
  const digest = await ctx.sha256(new TextEncoder().encode(audio.url));
  const seconds = URL_SECONDS.min + (parseInt(digest.slice(0, 8), 16) % (URL_SECONDS.max - URL_SECONDS.min + 1));
  const invented = inventTranscript(digest, ctx.seed, seconds);
  return { transcript: { ...invented, seconds }, source: 'invented', sha256: null };
}

async function heardBytes(ctx: GatewayContext, bytes: Uint8Array, format: TranscriptionFormat, field: string): Promise<Heard> {
  const facts = readAudio(bytes, format);
  if (typeof facts === 'string') throw new GatewayError(400, { message: `${field}: ${facts} (input_audio.format or the file's name says ${format})` });
  const digest = await ctx.sha256(bytes);
  ctx.heard.keep(digest, bytes, format);
  const fixture = ctx.transcripts?.get(digest);
  if (fixture) return { transcript: fixtureTranscript(fixture, facts.seconds), source: 'fixture', sha256: digest };
  const hashes = [digest];
  if (facts.samples?.ownPcm) hashes.push(await ctx.sha256(facts.samples.bytes));
  const said = await ctx.said.recall(hashes);
  if (said) return { transcript: { text: said.input, words: wordTimesOf(said), seconds: said.samples / SAMPLE_RATE }, source: 'said', sha256: digest };
  const invented = inventTranscript(digest, ctx.seed, facts.seconds);
  return { transcript: { ...invented, seconds: facts.seconds }, source: 'invented', sha256: digest };
}

/** A fixture's transcript: its words as given, else the words of its text spread evenly over the audio. */
function fixtureTranscript(fixture: FixtureTranscript, seconds: number): Transcript {
  const length = fixture.duration ?? seconds;
  const spread: SaidAudio = { input: fixture.text, voice: '', speed: 1, seed: 0, mode: 'words', format: 'pcm', samples: Math.round(length * SAMPLE_RATE) };
  return { text: fixture.text, words: fixture.words ?? wordTimesOf(spread), seconds: length, language: fixture.language };
}
