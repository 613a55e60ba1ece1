/**
 * A words answer complete on the wire and in the journal (`docs/speech.md`, "Sent as said" and "What one answer may
 * cost"), through every mode:
 *
 * - words MP3 leads with the Info/LAME tag frame of its sample count, so ffmpeg and mpg123 decode exactly the samples
 *   of the PCM answer to the same request;
 * - the journal entry's `audio.duration_ms` is filled in once the answer ended, with `audio.words` (what Flite said);
 * - the limit on words per answer: an input past it is said in words up to the limit, then in tones, the same every
 *   time (each mode's bytes and journal facts are those of one in-process gateway's answer to the same request), and
 *   the journal says where (asserted on the journal's facts and the audio's length, never on time).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInfoFrame } from '../src/core/audio/mp3-tag.js';
import { WORDS_LIMIT_MS, WORDS_LIMIT_PIECES } from '../src/core/audio/words/render-words.js';
import type { JournalEntry } from '../src/core/journal/journal.js';
import type { Gateway } from '../src/core/gateway/gateway.js';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { decodeMp3, taggedSamples } from './support/audio.js';
import { modes } from './support/modes.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest, postSpeech } from './support/speech-request.js';
import { bodyOf } from './support/core-body.js';
import { runCli } from './support/cli.js';
import { fliteWasmFile } from '../src/node-platform/package-files.js';

const AUTH = { Authorization: 'Bearer sk-wire' };
/** Why ffmpeg cannot run here (`ffmpeg --version` exits 1: `-version` is its flag), or `undefined`. */
const NO_FFMPEG = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0 ? undefined : 'ffmpeg is not installed';

/** The samples ffmpeg decodes from `mp3` (24 kHz mono 16-bit), or `undefined` without ffmpeg. */
async function ffmpegSamples(mp3: Uint8Array): Promise<number | undefined> {
  if (NO_FFMPEG) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'words-wire-'));
  try {
    writeFileSync(join(dir, 'in.mp3'), mp3);
    const pcm = await new Promise<Buffer>((resolve, reject) =>
      execFile('ffmpeg', ['-loglevel', 'error', '-i', join(dir, 'in.mp3'), '-f', 's16le', '-ac', '1', '-ar', '24000', '-'], { encoding: 'buffer', maxBuffer: 64 << 20 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    return pcm.byteLength / 2;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The newest speech entry of `gateway`'s journal once its answer ended (the server notes the end after the client read it). */
async function endedEntry(gateway: Gateway): Promise<JournalEntry> {
  for (let tries = 0; ; tries++) {
    await gateway.sync();
    const entries = await gateway.sharedJournal.list({ operation: 'speech' });
    const last = entries.sort((a, b) => b.seq - a.seq)[0];
    if (last?.body_end !== null && last !== undefined) return last;
    if (tries > 100) throw new Error('the speech entry did not end');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

/** Digits at speed 0.25: about 13 s of speech a piece, so the limit on speech comes after about ten pieces. */
const PAST_THE_LIMIT = { model: TTS, voice: 'onyx', input: '1234567890 '.repeat(150), speed: 0.25, response_format: 'pcm' };

let pastTheLimit: Promise<{ sha256: string; words: NonNullable<JournalEntry['audio']>['words'] }> | undefined;

/**
 * {@link PAST_THE_LIMIT} said once by an in-process gateway of the modes' options (26 MB, past what the audio cache
 * keeps, so every mode says it anew): the sha256 of its bytes and its journal's `audio.words`, which every mode's
 * answer must repeat.
 */
function pastTheLimitInProcess() {
  pastTheLimit ??= (async () => {
    const gateway = createGateway({ speech: 'words', seed: 3 });
    const response = await gateway.handle(coreSpeechRequest(PAST_THE_LIMIT, { authorization: AUTH.Authorization, 'content-type': 'application/json' }));
    const bytes = await bodyOf(response);
    response.onDone?.(); // as an adapter does once the body is sent: the entry ends
    return { sha256: sha256Hex(bytes), words: (await endedEntry(gateway)).audio!.words };
  })();
  return pastTheLimit;
}

describe.each(modes)('through $name', (mode) => {
  it.skipIf(mode.unsupported !== undefined)(
    `MP3 leads with its tag frame (ffmpeg${NO_FFMPEG ? `: skipped, ${NO_FFMPEG}` : ''} and mpg123 decode the PCM's samples); the journal has the length and audio.words`,
    async () => {
      const running = await mode.start({ speech: 'words', seed: 3 });
      try {
        const body = { model: TTS, voice: 'fable', input: 'The tag frame tells decoders the length. Gapless, at last.' };
        const pcm = await bytesOf(await postSpeech(running.baseUrl, { ...body, response_format: 'pcm' }, AUTH));
        const pcmEntry = await endedEntry(running.gateway);
        const mp3 = await bytesOf(await postSpeech(running.baseUrl, { ...body, response_format: 'mp3' }, AUTH));
        const mp3Entry = await endedEntry(running.gateway);
        const samples = pcm.byteLength / 2;
        expect(taggedSamples(mp3)).toBe(samples);
        expect(Buffer.from(mp3.subarray(0, 192)).equals(buildInfoFrame(samples))).toBe(true);
        expect((await decodeMp3(mp3)).samples.length).toBe(samples);
        const decoded = await ffmpegSamples(mp3);
        if (decoded !== undefined) expect(decoded).toBe(samples);
        for (const entry of [pcmEntry, mp3Entry]) {
          expect(entry.body_end).toBe('complete');
          expect(entry.audio).toMatchObject({ speech: 'words', duration_ms: samples / 24, words: { said_chars: 58, limited: null } });
          expect(entry.audio!.words!.said_ms).toBe(samples / 24);
        }
      } finally {
        await running.stop();
      }
    },
    120_000,
  );

  it.skipIf(mode.unsupported !== undefined)(
    `past the limit (${WORDS_LIMIT_MS / 1000} s of speech): the rest in tones, the same every time, and the journal says where`,
    async () => {
      const running = await mode.start({ speech: 'words', seed: 3 });
      try {
        const first = await bytesOf(await postSpeech(running.baseUrl, PAST_THE_LIMIT, AUTH));
        const { audio } = await endedEntry(running.gateway);
        const words = audio!.words!;
        expect(words.said_ms).toBeGreaterThanOrEqual(WORDS_LIMIT_MS);
        expect(words.said_ms).toBeLessThan(WORDS_LIMIT_MS + 30_000); // the limit is checked before each piece
        expect(words.limited).not.toBeNull();
        expect(words.limited!.at_ms).toBeGreaterThanOrEqual(words.said_ms);
        expect(words.limited!.chars).toBeGreaterThan(1000);
        expect(audio!.duration_ms).toBe(first.byteLength / 48);
        expect(audio!.duration_ms).toBeGreaterThan(words.limited!.at_ms + 60_000); // the rest, in tones
        // The same request said by another gateway (too long for the cache, so said anew): the same bytes and facts.
        const again = await pastTheLimitInProcess();
        expect(sha256Hex(first)).toBe(again.sha256);
        expect(words).toEqual(again.words);
      } finally {
        await running.stop();
      }
    },
    180_000,
  );
});

it(`the limit on pieces: at most ${WORDS_LIMIT_PIECES} runs of Flite, however short the pieces`, async () => {
  const running = await modes[0]!.start({ speech: 'words', seed: 3 });
  try {
    // Each "Yes." is a sentence, so a piece of its own (about 0.4 s of speech).
    const input = 'Yes. '.repeat(WORDS_LIMIT_PIECES + 20);
    await bytesOf(await postSpeech(running.baseUrl, { model: TTS, voice: 'coral', input, response_format: 'pcm' }, AUTH));
    const words = (await endedEntry(running.gateway)).audio!.words!;
    expect(words.said_chars).toBe(WORDS_LIMIT_PIECES * 'Yes. '.length);
    expect(words.limited!.chars).toBe(20 * 'Yes. '.length);
  } finally {
    await running.stop();
  }
}, 120_000);

it('the CLI says words with --flite-wasm <path> and --words-threads 1: the bytes of the in-process gateway', async () => {
  const cli = runCli(['--port', '0', '--quiet', '--seed', '3', '--speech', 'words', '--words-threads', '1', '--flite-wasm', fliteWasmFile()!]);
  try {
    const baseUrl = await cli.ready();
    const running = await modes[0]!.start({ speech: 'words', seed: 3, wordsThreads: 0 });
    const body = { model: TTS, voice: 'echo', input: 'Said by the command line, on a thread.', response_format: 'mp3' };
    const expected = await bytesOf(await postSpeech(running.baseUrl, body, AUTH));
    await running.stop();
    expect(sha256Hex(await bytesOf(await postSpeech(baseUrl, body, AUTH)))).toBe(sha256Hex(expected));
    expect(cli.stderr()).toBe('');
  } finally {
    await cli.stop();
  }
}, 120_000);
