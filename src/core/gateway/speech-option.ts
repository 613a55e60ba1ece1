/**
 * Options `speech`, `fliteWasm` and `wordsThreads` (`options.ts`), checked when the gateway is made: the default
 * speech mode, where the words engine comes from (or why there is none), and the threads that say words.
 *
 * @module
 */
import { SPEECH_MODES, type SpeechMode } from '../audio/types.js';
import type { FliteLocator, FliteWasmSource } from '../audio/words/flite-engine.js';
import type { WordsPool } from '../audio/words/words-pool.js';
import type { Platform } from './platform.js';
import { OptionsError } from '../base/errors.js';
import { type GatewayOptions } from './options.js';

/** What options `speech` and `fliteWasm` decide. */
export interface SpeechSetup {
  /** The mode of requests without `X-Mock-Speech`. */
  readonly mode: SpeechMode;
  /** Finds the words engine's source, or says why there is none (then words are refused). */
  readonly flite: FliteLocator;
  /**
   * This gateway's use of the platform's words threads, taken on the first render with words; `undefined` to say
   * words on the answering thread (option `wordsThreads` 0, or a platform without threads).
   */
  readonly wordsPool: (() => WordsPool | undefined) | undefined;
  /** Ends this gateway's use of the threads, if it took them (the gateway's `close()`); a later render takes them again. */
  readonly release: () => Promise<void>;
}

/**
 * Checks options `speech` and `fliteWasm`.
 *
 * @throws {OptionsError} (`speech`) for a mode that is neither `tones` nor `words`, or `words` with no engine (the
 *   sentence of the platform: how to install the package, or to pass `fliteWasm`); (`fliteWasm`) for a value of
 *   another type.
 */
export function speechSetupOf(platform: Platform, options: Pick<GatewayOptions, 'speech' | 'fliteWasm' | 'wordsThreads'>): SpeechSetup {
  const mode = options.speech ?? 'tones';
  if (!(SPEECH_MODES as readonly unknown[]).includes(mode)) {
    throw new OptionsError('speech', `expected one of ${SPEECH_MODES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const flite = locatorOf(platform, options.fliteWasm);
  const found = flite();
  if (mode === 'words' && typeof found === 'string') throw new OptionsError('speech', found);
  const threads = wordsThreadsOf(platform, options.wordsThreads);
  const open = platform.wordsPool;
  let pool: WordsPool | undefined;
  return {
    mode,
    flite,
    wordsPool: threads > 0 && open ? () => (pool ??= open(threads)) : undefined,
    release() {
      const held = pool;
      pool = undefined;
      return held ? held.release() : Promise.resolve();
    },
  };
}

/**
 * The threads of option `wordsThreads`: as given, at most the platform's cores; default the cores (0 on a platform
 * without threads).
 *
 * @throws {OptionsError} (`wordsThreads`) for a value that is not a whole number ≥ 0.
 */
function wordsThreadsOf(platform: Platform, option: unknown): number {
  if (option !== undefined && !(typeof option === 'number' && Number.isSafeInteger(option) && option >= 0)) {
    throw new OptionsError('wordsThreads', `expected a whole number ≥ 0, got ${typeof option === 'number' ? String(option) : JSON.stringify(option)}`);
  }
  if (!platform.wordsPool) return 0;
  const cores = Math.max(1, platform.cores?.() ?? 1);
  return Math.min(option ?? cores, cores);
}

/** The locator of option `fliteWasm`: the data itself, or the platform's search (kept once it finds the file). */
function locatorOf(platform: Platform, option: GatewayOptions['fliteWasm']): FliteLocator {
  if (option === undefined || typeof option === 'string' || option instanceof URL) {
    let found: FliteWasmSource | undefined;
    return () => {
      if (found) return found;
      const located = platform.fliteWasm(option);
      if (typeof located !== 'string') found = located;
      return located;
    };
  }
  if (option instanceof WebAssembly.Module || option instanceof ArrayBuffer || option instanceof Uint8Array) {
    const source: FliteWasmSource = () => Promise.resolve(option as WebAssembly.Module | ArrayBuffer | Uint8Array<ArrayBuffer>);
    return () => source;
  }
  throw new OptionsError('fliteWasm', 'expected a WebAssembly.Module, its bytes (ArrayBuffer or Uint8Array), a URL or a path');
}
