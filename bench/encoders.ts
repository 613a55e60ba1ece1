/**
 * MP3 encoders side by side, in one process: `@breezystack/lamejs` (pure JavaScript LAME 3.98, a dev dependency
 * kept only for this comparison) and the WebAssembly LAME 3.100 of src/core/audio/lame-instance.ts
 * (`wasm-media-encoders`). 10 s of 24 kHz mono 16-bit at 64 kbps CBR; first call and warm (median of 15).
 *
 * Run: `npx tsx bench/encoders.ts`. Prints one line per figure and a JSON summary.
 */
import { Mp3Encoder } from '@breezystack/lamejs';
import { createMp3Stream, encodeMp3 } from '../src/core/audio/mp3-stream.js';
import { loadMp3Encoder } from '../src/core/audio/lame-instance.js';

const RATE = 24_000;
const SECONDS = 10;
const WARM_RUNS = 15;

/** A voice-like signal: a gliding tone with a harmonic, a syllable envelope and a little noise. */
function voice(count: number): Int16Array {
  const out = new Int16Array(count);
  let phase = 0;
  let seed = 1;
  for (let i = 0; i < count; i++) {
    phase += (2 * Math.PI * (120 + 80 * Math.sin(i / 7000))) / RATE;
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const envelope = 0.5 + 0.5 * Math.sin(i / 1900);
    out[i] = Math.round(12000 * envelope * (Math.sin(phase) + 0.3 * Math.sin(3 * phase)) + (seed % 800) - 400);
  }
  return out;
}

function lamejs(samples: Int16Array): number {
  const encoder = new Mp3Encoder(1, RATE, 64);
  let bytes = 0;
  for (let at = 0; at < samples.length; at += 1152) bytes += encoder.encodeBuffer(samples.subarray(at, at + 1152)).length;
  return bytes + encoder.flush().length;
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

const samples = voice(RATE * SECONDS);

const loadStart = performance.now();
await loadMp3Encoder();
const wasmLoad = performance.now() - loadStart;

const lameFirst = time(() => lamejs(samples));
const wasmFirst = time(() => encodeMp3(samples));
const lameWarm = median(Array.from({ length: WARM_RUNS }, () => time(() => lamejs(samples))));
const wasmWarm = median(Array.from({ length: WARM_RUNS }, () => time(() => encodeMp3(samples))));
const lameBytes = lamejs(samples);
const wasmBytes = encodeMp3(samples).length;

// Streaming: 100 ms pieces, as a response body would pull them.
const piece = RATE / 10;
const streamWarm = median(
  Array.from({ length: WARM_RUNS }, () =>
    time(() => {
      const stream = createMp3Stream(samples.length);
      for (let at = 0; at < samples.length; at += piece) stream.encode(samples.subarray(at, at + piece));
      stream.finish();
    }),
  ),
);
// Opening a stream (LAME init) and its WebAssembly memory: 32 streams open at once.
const open = time(() => {
  const streams = Array.from({ length: 32 }, () => createMp3Stream(RATE));
  for (const s of streams) s.abort();
});

const result = {
  audioSeconds: SECONDS,
  wasmLoadMs: wasmLoad,
  lamejs: { firstMs: lameFirst, warmMs: lameWarm, bytes: lameBytes, realTime: (SECONDS * 1000) / lameWarm },
  wasm: { firstMs: wasmFirst, warmMs: wasmWarm, bytes: wasmBytes, realTime: (SECONDS * 1000) / wasmWarm },
  wasmStreamed100msPiecesWarmMs: streamWarm,
  openStreamMs: open / 32,
  speedupWarm: lameWarm / wasmWarm,
};

console.log(`WASM encoder load (import + compile + instantiate): ${ms(wasmLoad)}`);
console.log(`lamejs   10 s: first ${ms(lameFirst)}, warm ${ms(lameWarm)} (${result.lamejs.realTime.toFixed(0)}x real time), ${lameBytes} bytes`);
console.log(`WASM     10 s: first ${ms(wasmFirst)}, warm ${ms(wasmWarm)} (${result.wasm.realTime.toFixed(0)}x real time), ${wasmBytes} bytes (tag frame included)`);
console.log(`WASM streamed in 100 ms pieces: warm ${ms(streamWarm)}; opening a stream ${ms(open / 32)}`);
console.log(`warm speed-up: ${result.speedupWarm.toFixed(1)}x`);
console.log(JSON.stringify(result));
