/**
 * The MP3 bytes of a fixed corpus stay exactly those of `test/fixtures/mp3-hashes.json` (sha256 per case): speech
 * requests through the renderer (`createAudioRenderer`, whole and streamed) over voices, speeds, seeds and lengths,
 * and raw samples through `encodeMp3` (a tone, noise, silence, odd lengths). The fixture was made with the encoder
 * loaded the earlier way (the wasm read out of the package's JavaScript), before the loader of
 * `src/core/audio/lame-instance.ts` read the package's exported `wasm-media-encoders/wasm/mp3`; a change of LAME, of its
 * build or of the glue shows here first.
 *
 * To rewrite the fixture on purpose (a deliberate change of the audio): `MP3_HASHES=write npx vitest run
 * test/unit/mp3-bytes.test.ts`, and say why in the commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAudioRenderer, type AudioRequest } from '../../src/core/audio/renderer.js';
import { encodeMp3, loadMp3Encoder } from '../../src/core/audio/mp3.js';
import { sha256Hex } from '../support/sha256.js';

const FIXTURE = new URL('../fixtures/mp3-hashes.json', import.meta.url);

/** Speech requests: one per line of the fixture's `speech`. */
const SPEECH: AudioRequest[] = [
  { input: 'Hello there, world.', voice: 'alloy', speed: 1, seed: 0, format: 'mp3' },
  { input: 'Determinism, tested by hashing.', voice: 'nova', speed: 1, seed: 1234, format: 'mp3' },
  { input: 'Twice as fast.', voice: 'coral', speed: 2, seed: 7, format: 'mp3' },
  { input: 'Slowly, at a quarter of the speed.', voice: 'onyx', speed: 0.25, seed: 3, format: 'mp3' },
  { input: 'Bonjour, hello! 123, 4.5% — “quotes” and émojis 🎉.', voice: 'en_paul_happy', speed: 1, seed: 9, format: 'mp3' },
  { input: 'a', voice: 'shimmer', speed: 4, seed: 0, format: 'mp3' },
  {
    input: 'A longer paragraph, so the render spans many pieces of half a second each. '.repeat(12),
    voice: 'af_bella',
    speed: 1.1,
    seed: 42,
    format: 'mp3',
  },
];

/** Raw signals for `encodeMp3`, by name: 24 kHz mono 16-bit samples. */
function signals(): Record<string, Int16Array> {
  let x = 1;
  const noise = Int16Array.from({ length: 48_000 }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return (x % 20_000) - 10_000;
  });
  return {
    'tone 440 Hz, 2 s + 123': Int16Array.from({ length: 48_123 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24_000))),
    'noise, 2 s': noise,
    'silence, 1 s': new Int16Array(24_000),
    'one sample': Int16Array.of(12_345),
    'empty': new Int16Array(0),
    'full scale square, 40,000 samples (three encode blocks)': Int16Array.from({ length: 40_000 }, (_, i) => (i % 100 < 50 ? 32_767 : -32_768)),
  };
}

async function streamed(req: AudioRequest): Promise<Uint8Array> {
  const opened = createAudioRenderer({ maxCacheEntries: 0 }).open(req);
  const chunks: Uint8Array[] = [];
  for await (const chunk of opened.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

interface Hashes {
  speech: string[];
  encodeMp3: Record<string, string>;
}

async function hashes(): Promise<Hashes> {
  const renderer = createAudioRenderer({ maxCacheEntries: 0 });
  const speech: string[] = [];
  for (const req of SPEECH) {
    const whole = renderer.render(req).bytes;
    expect(sha256Hex(await streamed(req))).toBe(sha256Hex(whole));
    speech.push(sha256Hex(whole));
  }
  const encoded: Record<string, string> = {};
  for (const [name, samples] of Object.entries(signals())) encoded[name] = sha256Hex(encodeMp3(samples));
  return { speech, encodeMp3: encoded };
}

describe('the MP3 bytes of a fixed corpus', () => {
  // Before each test: another file run earlier in this worker may have left the encoder renewed (idle past its bound).
  beforeEach(() => loadMp3Encoder());

  it('equal the committed hashes (test/fixtures/mp3-hashes.json)', async () => {
    const now = await hashes();
    if (process.env['MP3_HASHES'] === 'write') writeFileSync(FIXTURE, `${JSON.stringify(now, null, 2)}\n`);
    const committed = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Hashes;
    expect(now).toEqual(committed);
  }, 60_000);
});
