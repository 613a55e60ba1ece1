/**
 * One render of one speech request, shared by every response that asks for the same audio while it is being
 * made, and run at its own pace (half a second of audio per piece, a macrotask between pieces) rather than its
 * slowest reader's: so a client that reads slowly holds bytes, not an encoder, and concurrent identical requests
 * encode once.
 *
 * Bounds: at most {@link MAX_CONCURRENT_MP3_RENDERS} MP3 renders encode at once (each LAME state takes about
 * 1.9 MB of WebAssembly memory, which never shrinks back); the others wait their turn. A render whose readers have
 * all gone away stops.
 *
 * @module
 */
import { ChunkedBody, type SizedBody } from '../http/body.js';
import { yieldToEventLoop } from '../base/event-loop.js';
import { loadMp3Encoder, mp3EncoderReady, type Mp3WasmSource } from './mp3.js';
import { concat } from '../base/bytes.js';
import { BodyAssembler } from './stream.js';
import type { AudioFormat } from './types.js';

/** How many MP3 renders may hold a LAME encoder at once. */
export const MAX_CONCURRENT_MP3_RENDERS = 4;

/** A counting semaphore: at most `size` holders at once, the others queued in arrival order. */
class Slots {
  #free: number;
  readonly #queue: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  /** Resolves when a slot is held; call the returned function once to give it back. */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#queue.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.#queue.shift();
      if (next) next();
      else this.#free++;
    };
  }
}

/** The process's MP3 encoder slots (one WebAssembly instance serves every gateway of the process). */
const mp3Slots = new Slots(MAX_CONCURRENT_MP3_RENDERS);

/** What a {@link RenderJob} reports. */
export interface RenderJobHooks {
  /** Each piece as it is rendered. */
  piece(bytes: Uint8Array): void;
  /**
   * Once, with the whole body, when the last piece is rendered; a promise it gives is awaited before any reader sees
   * the end (the audio is then findable by its hash on every replica, `src/core/transcription/said-index.ts`).
   */
  complete(bytes: Uint8Array): void | Promise<void>;
  /** Once, when the job ends: completed, failed or stopped (to forget it as in flight). */
  settled(): void;
}

/**
 * Where a {@link RenderJob}'s bytes come from, piece by piece, called once when the job starts (after it holds an MP3
 * slot and the MP3 encoder is loaded): synchronous pieces (tones, whose final length is known) or asynchronous ones
 * (words). `output`, for a job of known length, is the buffer of that length to render into in place.
 */
export type PieceSource = (output: Uint8Array | undefined) => Iterator<Uint8Array> | AsyncIterator<Uint8Array>;

/**
 * The render of one request in one format. It starts with its first reader, renders every piece into memory (the
 * pieces concatenated are exactly the whole render's bytes), and stops if all its readers stop reading before the end.
 */
export class RenderJob {
  readonly #pieces: Uint8Array[] = [];
  readonly #waiting: (() => void)[] = [];
  #state: 'idle' | 'running' | 'done' | 'stopped' | 'failed' = 'idle';
  #error: unknown;
  #readers = 0;
  #whole: Uint8Array | undefined;

  /**
   * @param source the pieces (see {@link PieceSource}).
   * @param format `pcm` or `mp3`.
   * @param byteLength the body's final length, bytes, when known before the first piece (tones); `undefined` for words.
   * @param hooks see {@link RenderJobHooks}.
   */
  constructor(
    private readonly source: PieceSource,
    private readonly format: AudioFormat,
    private readonly byteLength: number | undefined,
    private readonly hooks: RenderJobHooks,
    /** Where the MP3 encoder's WebAssembly comes from if this job loads it first (`loadMp3Encoder`'s `source`). */
    private readonly mp3Wasm?: Mp3WasmSource,
  ) {}

  /** The whole body once the job is done, else `undefined`. */
  get whole(): Uint8Array | undefined {
    return this.#whole;
  }

  /** Whether a new reader may still join (the job has not stopped or failed). */
  get joinable(): boolean {
    return this.#state === 'idle' || this.#state === 'running' || this.#state === 'done';
  }

  /**
   * A reader of the whole body from its first byte. Stopping it early (`return()`) stops the job when no other
   * reader is left.
   *
   * @throws (from `next()`) the render's error, if it failed.
   */
  async *read(): AsyncGenerator<Uint8Array> {
    this.#readers++;
    let finished = false;
    try {
      if (this.#state === 'idle') void this.#run();
      for (let index = 0; ; index++) {
        while (index >= this.#pieces.length) {
          if (this.#state === 'done') {
            finished = true;
            return;
          }
          if (this.#state === 'failed') throw this.#error;
          if (this.#state === 'stopped') throw new Error('speech render stopped');
          await new Promise<void>((resolve) => this.#waiting.push(resolve));
        }
        yield this.#pieces[index]!;
      }
    } finally {
      this.#readers--;
      if (!finished && this.#readers === 0 && this.#state === 'running') this.#state = 'stopped';
    }
  }

  #wake(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  async #run(): Promise<void> {
    this.#state = 'running';
    let release: (() => void) | undefined;
    let chunks: Iterator<Uint8Array> | AsyncIterator<Uint8Array> | undefined;
    try {
      if (this.format === 'mp3') {
        release = await mp3Slots.acquire();
        // Checked right before the first piece opens the encoder, with no await between: an idle instance may
        // have been recycled meanwhile (mp3-wasm.ts), and then it loads again.
        while (!mp3EncoderReady()) await loadMp3Encoder(this.mp3Wasm);
      }
      const body = this.byteLength === undefined ? undefined : new BodyAssembler(this.byteLength);
      chunks = this.source(body?.bytes);
      for (let first = true; ; first = false) {
        if (!first) await yieldToEventLoop();
        if (this.#state !== 'running') return;
        const next = await chunks.next();
        if (this.#state !== 'running') return;
        if (next.done) break;
        const piece = body ? body.add(next.value) : next.value;
        this.#pieces.push(piece);
        this.hooks.piece(piece);
        this.#wake();
      }
      if (body && !body.full) throw new Error('speech render ended short of its length');
      this.#whole = body ? body.bytes : concat(this.#pieces);
      await this.hooks.complete(this.#whole);
      this.#state = 'done';
    } catch (error) {
      this.#state = 'failed';
      this.#error = error;
    } finally {
      await chunks?.return?.(undefined);
      release?.();
      this.hooks.settled();
      this.#wake();
    }
  }
}

/**
 * A response body of speech: iterating it joins the render of its request (the cached bytes if one finished
 * meanwhile, one already in flight for the same audio, or a new one) and reads it from the first byte. Its final
 * length and duration are known before the first byte, from the plan.
 */
export class SpeechStream implements SizedBody {
  /**
   * @param byteLength the final length, bytes.
   * @param durationMs the audio's duration, ms.
   * @param join gives what to read when reading starts: a render job, or the finished bytes.
   */
  constructor(
    readonly byteLength: number,
    readonly durationMs: number,
    private readonly join: () => RenderJob | AsyncIterable<Uint8Array>,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    const source = this.join();
    yield* source instanceof RenderJob ? source.read() : source;
  }
}

/**
 * A response body of speech with words: like {@link SpeechStream}, but its length and duration are known only once
 * the last piece is said, so it is sent without them; {@link sized} reads it whole for the scenario effects that need
 * them (a cut at a fraction of the bytes, dribbled chunks).
 */
export class WordStream implements AsyncIterable<Uint8Array> {
  /**
   * @param join gives what to read when reading starts: a render job, or the finished bytes.
   * @param durationOf the playback length of the finished render, ms, once it is done.
   */
  constructor(
    private readonly join: () => RenderJob | ChunkedBody,
    private readonly durationOf: () => number | undefined,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    const source = this.join();
    yield* source instanceof RenderJob ? source.read() : source;
  }

  /**
   * The whole body once rendered, as a body of known length and duration.
   *
   * @throws (rejects with) the render's error.
   */
  async sized(): Promise<SizedBody> {
    const pieces: Uint8Array[] = [];
    for await (const piece of this) pieces.push(piece);
    const bytes = concat(pieces);
    const durationMs = this.durationOf();
    if (durationMs === undefined) throw new Error('speech render ended without its length');
    return new ChunkedBody(bytes, undefined, durationMs);
  }
}
