/**
 * Cold synthesis, no HTTP: run by bench/run.ts in a fresh process per format, so the first render is honest
 * (nothing of the renderer, the synthesiser or the encoder has run or been compiled before it).
 *
 * Usage: `node --import tsx bench/synth.ts <mp3|pcm> [renders]`. Renders one distinct ~10 s sentence (never a
 * cache hit: the text and the seed change every time), then `renders` more, and prints one JSON line
 * ({@link SynthResult}).
 *
 * @module
 */
import { pathToFileURL } from 'node:url';
import type * as AudioModule from '../src/core/audio/renderer.js';
import type * as Mp3Module from '../src/core/audio/mp3.js';
import { words } from './texts.js';

/** The compiled renderer (`npm run build`); typed from its source. */
const AUDIO_MODULE = new URL('../dist/core/audio/renderer.js', import.meta.url).href;
const MP3_MODULE = new URL('../dist/core/audio/mp3.js', import.meta.url).href;

/** One render: audio length and wall time, both in ms. */
export interface Render {
  audioMs: number;
  wallMs: number;
  bytes: number;
}

export interface SynthResult {
  format: 'mp3' | 'pcm';
  /** Time to import the renderer module graph, not counted in any render. */
  importMs: number;
  /** MP3 only: time to load the WebAssembly encoder (`loadMp3Encoder`: import, compile, instantiate), not counted either. */
  encoderLoadMs: number | null;
  first: Render;
  rest: Render[];
  cacheHits: number;
}

/** Characters per sentence: 150 code points is 10 s of audio at speed 1 (15 per second). */
export const SENTENCE_CHARS = 150;

/** A distinct sentence of exactly {@link SENTENCE_CHARS} characters for each `n`. */
export const sentence = (n: number): string => words(n, SENTENCE_CHARS);

async function main(): Promise<void> {
  const format = process.argv[2];
  if (format !== 'mp3' && format !== 'pcm') throw new Error(`usage: synth.ts <mp3|pcm> [renders], got ${String(format)}`);
  const renders = Number(process.argv[3] ?? 20);

  let started = performance.now();
  const audio = (await import(AUDIO_MODULE)) as typeof AudioModule;
  const importMs = performance.now() - started;
  let encoderLoadMs: number | null = null;
  if (format === 'mp3') {
    started = performance.now();
    await ((await import(MP3_MODULE)) as typeof Mp3Module).loadMp3Encoder();
    encoderLoadMs = performance.now() - started;
  }
  const renderer = audio.createAudioRenderer();

  const renderOne = (n: number): Render => {
    started = performance.now();
    const out = renderer.render({ input: sentence(n), voice: 'alloy', speed: 1, seed: 1000 + n, format });
    const wallMs = performance.now() - started;
    return { audioMs: out.durationMs, wallMs, bytes: out.bytes.byteLength };
  };

  const first = renderOne(0);
  const rest: Render[] = [];
  for (let n = 1; n <= renders; n++) rest.push(renderOne(n));
  const result: SynthResult = { format, importMs, encoderLoadMs, first, rest, cacheHits: renderer.stats().hits };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.disconnect?.();
}

// Run only as a script, not when imported for its types and helpers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
