/**
 * Options `speech` and `fliteWasm` (`options.ts`), checked when the gateway is made: the default speech mode, and
 * where the words engine comes from (or why there is none).
 *
 * @module
 */
import { SPEECH_MODES, type SpeechMode } from '../audio/types.js';
import type { FliteWasmSource } from '../audio/words/flite-engine.js';
import type { Platform } from '../platform.js';
import { OptionsError, type GatewayOptions } from './options.js';

/** What options `speech` and `fliteWasm` decide. */
export interface SpeechSetup {
  /** The mode of requests without `X-Mock-Speech`. */
  readonly mode: SpeechMode;
  /** The words engine's source, or the sentence saying why there is none (then words are refused). */
  readonly flite: FliteWasmSource | string;
}

/**
 * Checks options `speech` and `fliteWasm`.
 *
 * @throws {OptionsError} (`speech`) for a mode that is neither `tones` nor `words`, or `words` with no engine (the
 *   sentence of the platform: how to install the package, or to pass `fliteWasm`); (`fliteWasm`) for a value of
 *   another type.
 */
export function speechSetupOf(platform: Platform, options: Pick<GatewayOptions, 'speech' | 'fliteWasm'>): SpeechSetup {
  const mode = options.speech ?? 'tones';
  if (!(SPEECH_MODES as readonly unknown[]).includes(mode)) {
    throw new OptionsError('speech', `expected one of ${SPEECH_MODES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const flite = engineOf(platform, options.fliteWasm);
  if (mode === 'words' && typeof flite === 'string') throw new OptionsError('speech', flite);
  return { mode, flite };
}

function engineOf(platform: Platform, option: GatewayOptions['fliteWasm']): FliteWasmSource | string {
  if (option === undefined || typeof option === 'string' || option instanceof URL) return platform.fliteWasm(option);
  if (option instanceof WebAssembly.Module || option instanceof ArrayBuffer || option instanceof Uint8Array) {
    return () => Promise.resolve(option as WebAssembly.Module | ArrayBuffer | Uint8Array<ArrayBuffer>);
  }
  throw new OptionsError('fliteWasm', 'expected a WebAssembly.Module, its bytes (ArrayBuffer or Uint8Array), a URL or a path');
}
