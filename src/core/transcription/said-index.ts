/**
 * The index from audio this simulator said to what made it (`docs/transcription.md`, "Audio this simulator said"):
 * each finished speech render is hashed (SHA-256 of its bytes as sent) and remembered in the gateway's store, where
 * every replica sharing the store finds it. The store bounds it (`rememberSaid` of `src/core/store/types.ts`).
 *
 * A speech body ends only once its audio is hashed and written (the renderer awaits {@link SaidIndex.said}), so audio
 * whose last byte a client has read is found on any replica; a lookup also waits for this replica's writes under way.
 *
 * @module
 */
import type { MaybePromise } from '../base/types.js';
import { MAX_SAID_INPUT_CHARS, MAX_SAID_PIECES, parseSaid, type SaidAudio, type Sha256 } from './said-audio.js';

/** What the index needs of the gateway's store (`GatewayStore`): keeping and finding said audio by hash, as JSON text. */
export interface SaidStore {
  rememberSaid(sha256: string, said: string): MaybePromise<void>;
  recallSaid(sha256: string): MaybePromise<string | undefined>;
}

/** The index; see the module's comment. */
export interface SaidIndex {
  /**
   * Remembers that `bytes` were said as `said`: hashed and written to the store (a failure goes to the gateway's error
   * report and the audio is then transcribed as foreign audio). An input over 20,000 characters (`MAX_SAID_INPUT_CHARS`) is not indexed.
   *
   * @returns the promise of the write, which never rejects (the speech body ends once it has settled).
   */
  said(said: SaidAudio, bytes: Uint8Array): Promise<void> | undefined;
  /**
   * What made the audio of one of `hashes` (SHA-256, hex), tried in order, once the hashes under way are done.
   *
   * @throws (rejects with) the store's error (a shared store away: its 503).
   */
  recall(hashes: readonly string[]): Promise<SaidAudio | undefined>;
}

/**
 * Creates the index over `store`.
 *
 * @param report where a failed hash or store write is reported (`(error, where)`).
 * @param sha256 the platform's SHA-256 (`sha256Hex` of `said-audio.ts`, or `Platform.sha256Hex`).
 */
export function createSaidIndex(store: SaidStore, report: (error: unknown, where: string) => void, sha256: Sha256): SaidIndex {
  const pending = new Set<Promise<void>>();
  /** Hashes of bodies already hashed (a cached answer sent again is the same bytes object). */
  const known = new WeakMap<Uint8Array, string>();
  return {
    said(said, bytes) {
      if (said.input.length > MAX_SAID_INPUT_CHARS) return undefined;
      const entry = said.pieces && said.pieces.length > MAX_SAID_PIECES ? { ...said, pieces: undefined } : said;
      const text = JSON.stringify(entry);
      const hash = known.get(bytes);
      const work = (async () => {
        const digest = hash ?? (await sha256(bytes));
        known.set(bytes, digest);
        await store.rememberSaid(digest, text);
      })().catch((error: unknown) => report(error, 'indexing said audio for transcription'));
      pending.add(work);
      void work.finally(() => pending.delete(work));
      return work;
    },
    async recall(hashes) {
      if (pending.size > 0) await Promise.all([...pending]);
      for (const hash of hashes) {
        const text = await store.recallSaid(hash);
        const said = text === undefined ? undefined : parseSaid(text);
        if (said) return said;
      }
      return undefined;
    },
  };
}
