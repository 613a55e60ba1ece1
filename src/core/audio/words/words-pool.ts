/**
 * Where speech with words is said: on the thread that answers (the renderer's own `wordByteChunks`, always so in
 * browsers), or by threads the platform provides (Node.js: `node:worker_threads`, `src/node-platform/words-pool.ts`),
 * so the thread that answers every other request only passes the bytes on. Either way the bytes are the same: the
 * threads run the same `wordByteChunks` on the same compiled engine.
 *
 * @module
 */
import type { AudioFormat, SynthesisRequest } from '../types.js';
import type { SaidPiece } from './render-words.js';

/** One gateway's use of the platform's words threads (see the module's comment). */
export interface WordsPool {
  /**
   * Says `req` in `format` on a thread: the bytes of `wordByteChunks` (`src/core/audio/stream.ts`), piece by piece.
   * Stopping the generator early (`return()`) stops the thread's work on it.
   *
   * @param module the compiled engine (`loadFlite`), given to each thread once.
   * @param onPiece told what each piece was, in order, before the bytes it is in.
   * @throws (from `next()`) the render's error (Flite's, a trap of its WebAssembly), or an Error saying the thread
   *   died (after a second thread died on the same request) or the threads were closed.
   */
  say(module: WebAssembly.Module, req: SynthesisRequest, format: AudioFormat, onPiece: (piece: SaidPiece) => void): AsyncGenerator<Uint8Array>;
  /**
   * Ends this gateway's use (its `close()`): once no gateway uses them, the threads end, and renders still on them
   * fail. Idempotent.
   */
  release(): Promise<void>;
}
