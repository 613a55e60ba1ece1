/**
 * Where the MP3 encoder's WebAssembly comes from: the renderer's `mp3Wasm` (the platform's: in Node.js the installed
 * `wasm-media-encoders/wasm/mp3` file, `src/node-platform/platform.ts`) is the source of the first MP3 render, with or
 * without a `warmUp()` before it. Runs in a file of its own: the encoder is loaded once per process (module state).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createAudioRenderer } from '../../src/core/audio/renderer.js';
import { mp3EncoderReady } from '../../src/core/audio/mp3.js';

const wasmFile = createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3');

describe('MP3 encoder source', () => {
  it('the first MP3 render, with no warmUp before it, loads the encoder from the renderer’s mp3Wasm', async () => {
    expect(mp3EncoderReady()).toBe(false);
    let reads = 0;
    const renderer = createAudioRenderer({
      mp3Wasm: async () => {
        reads++;
        return new Uint8Array(await readFile(wasmFile));
      },
    });
    const opened = renderer.open({ input: 'Where does the encoder come from?', voice: 'alloy', speed: 1, seed: 1, format: 'mp3' });
    let bytes = 0;
    for await (const chunk of opened.body) bytes += chunk.byteLength;
    expect(bytes).toBe(opened.byteLength);
    expect(reads).toBe(1);
    expect(mp3EncoderReady()).toBe(true);
  });
});
