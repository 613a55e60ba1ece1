/**
 * One thread of the words threads (`words-pool.ts` starts it with `node:worker_threads`): it says the requests it is
 * given with `wordByteChunks` (`src/core/audio/stream.ts`), Flite and LAME included, and posts their bytes back piece
 * by piece, so the thread that answers requests only passes them on. Several requests on one thread take turns piece
 * by piece (`wordSamples` lets the event loop run between pieces).
 *
 * The compiled engine comes with the first request (a `WebAssembly.Module` posted by the pool, whose compiled code
 * V8 shares between threads: nothing is compiled again); the MP3 encoder is this thread's own, read from the
 * installed `wasm-media-encoders` on the first MP3.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { exposedGc } from './exposed-gc.js';
import { loadMp3Encoder, mp3EncoderReady } from '../core/audio/mp3.js';
import { wordByteChunks } from '../core/audio/stream.js';
import type { AudioFormat, SynthesisRequest } from '../core/audio/types.js';
import type { SaidPiece } from '../core/audio/words/render-words.js';
import { mp3WasmFile } from './package-files.js';

/** What the pool asks: say a request (with the engine, when this thread does not have it yet), or stop one. */
export type ToThread =
  | { readonly type: 'say'; readonly id: number; readonly req: SynthesisRequest; readonly format: AudioFormat; readonly module?: WebAssembly.Module | undefined }
  | { readonly type: 'stop'; readonly id: number };

/** What the thread answers, for request `id`: a piece said, bytes, its end, or why it failed. */
export type FromThread =
  | { readonly type: 'piece'; readonly id: number; readonly piece: SaidPiece }
  | { readonly type: 'bytes'; readonly id: number; readonly bytes: Uint8Array }
  | { readonly type: 'end'; readonly id: number }
  | { readonly type: 'fail'; readonly id: number; readonly name: string; readonly message: string };

/** Thrown from a piece's report to end a request the pool stopped. */
class Stopped extends Error {}

const port = parentPort;
if (!port) throw new Error('words-worker.ts runs as a worker thread of words-pool.ts');
let flite: WebAssembly.Module | undefined;
const running = new Set<number>();
const stopped = new Set<number>();
const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const mp3Wasm = async () => new Uint8Array(await readFile(mp3WasmFile()));

port.on('message', (message: ToThread) => {
  if (message.type === 'stop') {
    if (running.has(message.id)) stopped.add(message.id);
    return;
  }
  if (message.module) flite = message.module;
  void say(message.id, message.req, message.format);
});

async function say(id: number, req: SynthesisRequest, format: AudioFormat): Promise<void> {
  running.add(id);
  try {
    if (!flite) throw new Error('the words thread was given no engine');
    if (format === 'mp3') while (!mp3EncoderReady()) await loadMp3Encoder(mp3Wasm);
    const onPiece = (piece: SaidPiece) => {
      if (stopped.has(id)) throw new Stopped();
      post({ type: 'piece', id, piece });
    };
    for await (const bytes of wordByteChunks(flite, req, format, onPiece)) {
      if (stopped.has(id)) return;
      // A chunk that is its whole buffer moves to the pool's thread without a copy.
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      post({ type: 'bytes', id, bytes }, whole ? [bytes.buffer as ArrayBuffer] : []);
    }
    post({ type: 'end', id });
  } catch (error) {
    if (!stopped.has(id)) post({ type: 'fail', id, name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error) });
  } finally {
    running.delete(id);
    stopped.delete(id);
    collect();
  }
}

/**
 * This thread's `gc()` (`exposed-gc.ts`): the thread is the simulator's own, and a request leaves its audio buffers
 * and, where the engine could not be kept (a module given compiled, a trap, memory past the bound), dead Flite
 * instances of WebAssembly memory, which V8 would let pile up for a while. `undefined` where the runtime gives none.
 */
const gc = exposedGc();
let collecting = false;

/**
 * A full collection once a request ends (one at a time, off the answering thread): what the request left goes at
 * once rather than when V8 gets to it (bench/README.md, section 10: less time and less memory with it).
 */
function collect(): void {
  if (!gc || collecting) return;
  collecting = true;
  Promise.resolve()
    .then(() => gc({ type: 'major', execution: 'async' }))
    .catch(() => undefined)
    .finally(() => (collecting = false));
}
