/**
 * The transcripts a recorder saw, as `transcripts.json` of the recorded folder (format:
 * `src/core/formats/transcript-schema.ts`): one entry per audio, keyed by its SHA-256; a later answer for the same
 * audio replaces the earlier. Entries the folder held before are kept as written (an entry naming a clip keeps its
 * `clip`, and takes the new transcript when the same audio is recorded).
 *
 * An entry is kept only when the file stays within `FOLDER_LIMITS` (`src/core/formats/folder-limits.ts`: entries and
 * bytes), so that `--fixtures` loads what was written.
 *
 * @module
 */
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { TRANSCRIPTS_FILE, type FixtureTranscript, type TranscriptEntry } from '../core/formats/transcript-schema.js';
import { loadTranscripts } from '../node-platform/transcripts.js';
import { MeasuredEntries, prettyBytesAt } from './file-budget.js';

/** What became of a transcript offered to {@link RecordedTranscripts.add}. */
export type TranscriptOutcome = 'recorded' | { problem: string; full: boolean };

/** The entries of `transcripts.json`, in the order first seen. */
export class RecordedTranscripts {
  /** Each entry by its audio's SHA-256, with its bytes in the file. */
  readonly #entries = new MeasuredEntries<string, TranscriptEntry>();

  /**
   * Takes the entries of the folder's `transcripts.json`, when it has one (its clips read and hashed).
   *
   * @throws {FixtureError} as `loadTranscripts` of `src/node-platform/transcripts.ts` does: naming the file, the path
   *   inside it and what was expected.
   */
  load(dir: string): void {
    for (const { entry, sha256 } of loadTranscripts(dir)?.entries ?? []) this.#entries.set(sha256, entry, prettyBytesAt(entry, 2));
  }

  /** How many entries there are. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Keeps the transcript of the audio whose SHA-256 is `sha256` (replacing the one of the same audio, keeping its
   * `clip`), unless the file would then hold more than `FOLDER_LIMITS.transcripts` entries or pass `maxBytes`.
   */
  add(sha256: string, transcript: FixtureTranscript, maxBytes: number): TranscriptOutcome {
    const known = this.#entries.get(sha256);
    const { words, ...rest } = transcript;
    const entry: TranscriptEntry = { ...(known?.clip === undefined ? { sha256 } : { clip: known.clip }), ...rest, ...(words === undefined ? {} : { words: [...words] }) };
    if (known === undefined && this.#entries.size >= FOLDER_LIMITS.transcripts) {
      return { problem: `${TRANSCRIPTS_FILE} would hold more than ${FOLDER_LIMITS.transcripts} transcripts`, full: true };
    }
    const bytes = prettyBytesAt(entry, 2);
    if (this.#entries.totalWith(sha256, bytes) > maxBytes) return { problem: `${TRANSCRIPTS_FILE} would pass ${maxBytes} bytes`, full: true };
    this.#entries.set(sha256, entry, bytes);
    return 'recorded';
  }

  /** The file's text (JSON, indented by 2, ending in a line break). */
  text(): string {
    return `${JSON.stringify({ transcripts: [...this.#entries.values()] }, null, 2)}\n`;
  }
}
