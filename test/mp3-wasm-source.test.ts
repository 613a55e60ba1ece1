/**
 * Where the MP3 encoder's WebAssembly comes from (`src/core/audio/lame-glue.ts`): the copy bundled for browsers
 * (`src/core/audio/lame-base64.ts`, written by `scripts/generate-mp3-wasm.ts`) equals the installed
 * `wasm-media-encoders/wasm/mp3` that the Node.js platform reads, and both are the build the glue was written for
 * (the version pinned in package.json).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAME_WASM_VERSION, bundledMp3Wasm, instantiateLame } from '../src/core/audio/lame-glue.js';
import { nodePlatform } from '../src/node-platform/platform.js';
import { mp3WasmModule } from '../scripts/generate-mp3-wasm.js';

describe('the MP3 encoder\'s WebAssembly', () => {
  it('is the same file bundled and installed, and the committed module is what the script writes', async () => {
    const installed = await nodePlatform.mp3Wasm();
    expect(installed.byteLength).toBeGreaterThan(100_000);
    expect(await bundledMp3Wasm()).toEqual(installed);
    expect(readFileSync(new URL('../src/core/audio/lame-base64.ts', import.meta.url), 'utf8')).toBe(mp3WasmModule());
  });

  it('is the version package.json pins exactly, the one the glue expects, and instantiates', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    expect(`wasm-media-encoders-${pkg.dependencies['wasm-media-encoders']!}`).toBe(LAME_WASM_VERSION);
    const lame = await instantiateLame(await WebAssembly.compile(await nodePlatform.mp3Wasm()));
    expect(lame.memory.buffer.byteLength).toBe(16 * 1024 * 1024);
  });

  it('is refused, naming both versions, when the file is another build', async () => {
    // The same module with its version string changed in the data section: "0.7.0" becomes "0.7.9".
    const bytes = await nodePlatform.mp3Wasm();
    const text = Buffer.from(bytes).toString('latin1');
    const at = text.indexOf(LAME_WASM_VERSION);
    expect(at).toBeGreaterThan(0);
    const other = Uint8Array.from(bytes);
    other[at + LAME_WASM_VERSION.length - 1] = '9'.charCodeAt(0);
    await expect(instantiateLame(await WebAssembly.compile(other))).rejects.toThrow(
      'wasm-media-encoders/wasm/mp3 is wasm-media-encoders-0.7.9 for audio/mpeg; mockrouter\'s MP3 encoder needs wasm-media-encoders-0.7.0 for audio/mpeg',
    );
  });
});
