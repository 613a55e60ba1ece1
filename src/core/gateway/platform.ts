/**
 * What the core takes from the platform it runs on, the one place Node.js and browsers differ: where the package's
 * own data and the MP3 encoder's WebAssembly come from (read from the package's files in Node.js, bundled in
 * browsers), and reading the files and folders that options may name (Node.js only). `src/node-platform/platform.ts` and `src/browser/platform.ts` implement it.
 *
 * @module
 */
import type { KeyEntryOutput } from '../accounts/accounts.js';
import type { Mp3WasmSource } from '../audio/mp3.js';
import type { FliteWasmSource } from '../audio/words/flite-engine.js';
import type { WordsPool } from '../audio/words/words-pool.js';
import type { Fixtures } from '../formats/fixture-schema.js';
import type { LoadedScenario } from '../scenarios/parse.js';
import type { GatewayStore } from '../store/types.js';

/** Reading what options name by path; each method throws the error of its kind (file, path inside it, problem). */
export interface PlatformFiles {
  /** `models.json` and `generations.json` of a folder (option `fixtures`); throws `FixtureError`. */
  fixtures(dir: string): Fixtures;
  /** A JSON/YAML keys file (option `keys`); throws `KeysError`. */
  keys(file: string): KeyEntryOutput[];
  /** One scenario file (option `scenario`); throws `ScenarioError`. */
  scenarioFile(file: string): LoadedScenario;
  /** Every scenario file of a folder, in name order (option `scenarios`); throws `ScenarioError`. */
  scenarioDir(dir: string): LoadedScenario[];
}

/** The platform a gateway runs on. */
export interface Platform {
  /** The package's own fixtures: the catalog and generation records served by default. */
  defaultFixtures(): Fixtures;
  /** The package's built-in scenarios (`scenarios/builtins.json`), read on first use. */
  builtinScenarios(): readonly LoadedScenario[];
  /**
   * The bytes of `wasm-media-encoders/wasm/mp3` (LAME compiled to WebAssembly), read when the process's MP3 encoder
   * first loads (`src/core/audio/lame-instance.ts`); rejects with the platform's error (a missing or unreadable file).
   */
  readonly mp3Wasm: Mp3WasmSource;
  /**
   * Where the words engine comes from (`src/core/audio/words/flite-engine.ts`), given option `fliteWasm` when it is a
   * string or URL (`undefined` when not given): the source, or the sentence saying why there is none (Node.js: the
   * optional package is not installed; browsers: no `fliteWasm`). Nothing is read until the source is called.
   */
  fliteWasm(location: string | URL | undefined): FliteWasmSource | string;
  /**
   * The threads that say speech with words off the answering thread (`src/core/audio/words/words-pool.ts`; Node.js:
   * `node:worker_threads`, shared by every gateway of the process), for a gateway that wants `threads` of them
   * (≥ 1): nothing starts before its first render with words. Absent where there are none (browsers): words are
   * said on the answering thread.
   */
  readonly wordsPool?: ((threads: number) => WordsPool) | undefined;
  /** The cores this process may use (Node.js: `os.availableParallelism()`): the default and most of option `wordsThreads`. */
  readonly cores?: (() => number) | undefined;
  /** Reading files and folders named by options; absent where there is no file system (browsers). */
  readonly files?: PlatformFiles | undefined;
  /**
   * Decodes base64 text already checked to be base64 (a transcription's `input_audio.data`), where the platform has
   * a decoder faster than `atob` (Node.js: `Buffer`); absent: `atob`.
   */
  readonly decodeBase64?: ((text: string) => Uint8Array) | undefined;
  /**
   * SHA-256 as 64 lower-case hex digits, at once, where the platform has a native one faster than Web Crypto's
   * (Node.js: `node:crypto`, about 1.7 GB/s); absent: Web Crypto, else `@noble/hashes`.
   */
  readonly sha256Hex?: ((bytes: Uint8Array) => string) | undefined;
  /** This process's default replica id (option `replicaId`): `<hostname>:<pid>` in Node.js, `browser` in browsers. */
  replicaId(): string;
  /**
   * Opens the shared store of option `store` (a `redis://` or `rediss://` URL), connecting in the background;
   * absent where no shared store can be opened (browsers).
   *
   * @throws {OptionsError} for a URL that is not `redis://` or `rediss://`.
   */
  readonly openStore?: ((options: StoreOpenOptions) => GatewayStore) | undefined;
}

/** What a platform needs to open a shared store. */
export interface StoreOpenOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` (option `store`). */
  readonly url: string;
  /** Prefix of every key (option `storePrefix`, default `mockrouter:`). */
  readonly prefix: string;
  /** This replica's id (option `replicaId`). */
  readonly replica: string;
  /** Bound of the shared journal, entries (option `journalSize`). */
  readonly journalSize: number;
  /** Bound of speech calls' records kept (option `maxGenerations`). */
  readonly maxGenerations: number;
  /** Where the store reports losing (`lost`) and regaining (`back`) its connection, once each (option `onStoreStatus`). */
  readonly onStatus?: ((message: string, state: StoreStatus) => void) | undefined;
}

/** A shared store's connection change: it can no longer be reached (`lost`), or it answers again (`back`). */
export type StoreStatus = 'lost' | 'back';
