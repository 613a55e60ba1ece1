/**
 * Where the first MP3 of a process spends its time, without HTTP: run by bench/speech.ts in a fresh process
 * (`node --import tsx bench/first-mp3.ts`). Times, in order, from `dist/`: importing the audio modules (the server
 * has done this before its ready line), reading the installed `wasm-media-encoders/wasm/mp3` as the Node.js
 * platform does, the rest of `loadMp3Encoder()` (compile, instantiate, initialize), then the bench's sentence rendered through `byteChunks` piece by piece (the first
 * piece is the tag frame plus opening LAME; the next ones synthesize and encode), then a second sentence (warm),
 * and a PCM sentence. Prints one JSON line ({@link FirstMp3Breakdown}).
 *
 * @module
 */
import { pathToFileURL } from 'node:url';
import type * as Stream from '../src/core/audio/stream.js';
import type * as Plan from '../src/core/audio/plan.js';
import type * as Voice from '../src/core/audio/voice.js';
import type * as Mp3 from '../src/core/audio/mp3.js';
import type * as NodePlatform from '../src/node-platform/platform.js';
import { sentence } from './texts.js';

export interface FirstMp3Breakdown {
  importAudioMs: number;
  /** Reading `wasm-media-encoders/wasm/mp3` (the Node.js platform's `mp3Wasm`, module import included). */
  readWasmMs: number;
  /** `loadMp3Encoder()` with those bytes: compile, instantiate, initialize. */
  instantiateMs: number;
  /** Planning the sentence. */
  planMs: number;
  /** First piece of `byteChunks`: the tag frame and opening a LAME encoder in the instance. */
  openMs: number;
  /** The remaining pieces (synthesis and encoding, 0.5 s of audio each), summed. */
  encodeMs: number;
  /** The second MP3 sentence's first piece (tag frame, opening a LAME encoder): warm. */
  secondOpenMs: number;
  /** The whole second MP3 sentence (plan, open, synthesize, encode): warm. */
  secondMp3Ms: number;
  /** The whole first PCM sentence of the process, after the MP3s. */
  pcmMs: number;
}

const dist = (path: string) => new URL(`../dist/core/audio/${path}`, import.meta.url).href;

async function main(): Promise<void> {
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - t;
    t = now;
    return ms;
  };
  const [{ byteChunks }, { planSpeech }, { getVoiceProfile }, { loadMp3Encoder }] = (await Promise.all([
    import(dist('stream.js')), import(dist('plan.js')), import(dist('voice.js')), import(dist('mp3.js')),
  ])) as [typeof Stream, typeof Plan, typeof Voice, typeof Mp3];
  const importAudioMs = lap();
  const { nodePlatform } = (await import(new URL('../dist/node-platform/platform.js', import.meta.url).href)) as typeof NodePlatform;
  const bytes = await nodePlatform.mp3Wasm();
  const readWasmMs = lap();
  await loadMp3Encoder(() => Promise.resolve(bytes));
  const instantiateMs = lap();

  const request = (n: number) => ({ input: sentence(n), voice: 'alloy', speed: 1, seed: 1 });
  const plan = planSpeech(request(1));
  const planMs = lap();
  const chunks = byteChunks(plan, getVoiceProfile('alloy'), 'mp3');
  chunks.next();
  const openMs = lap();
  while (!chunks.next().done);
  const encodeMs = lap();
  const second = byteChunks(planSpeech(request(2)), getVoiceProfile('alloy'), 'mp3');
  second.next();
  const secondOpenMs = lap();
  while (!second.next().done);
  const secondMp3Ms = secondOpenMs + lap();
  for (const _ of byteChunks(planSpeech(request(3)), getVoiceProfile('alloy'), 'pcm'));
  const pcmMs = lap();
  const result: FirstMp3Breakdown = { importAudioMs, readWasmMs, instantiateMs, planMs, openMs, encodeMs, secondOpenMs, secondMp3Ms, pcmMs };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.disconnect?.();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
