/**
 * Why the recorded folder does not keep something: the outcomes of keeping a record ({@link Refused},
 * {@link ModelOutcome}, {@link Outcome}), the bounds a record is measured against before it is kept
 * ({@link RECORD_DEPTH}, {@link FILE_BYTES}, {@link measured}), and the kinds of recording stopped once their file
 * is full ({@link StoppedKinds}). Shared by what `models.json` keeps (`kept-models.ts`) and what the other files
 * keep (`kept-records.ts`).
 *
 * @module
 */
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { prettyBytesAt } from './file-budget.js';

/**
 * Why the folder did not keep something. `warn` marks what the recorder warns of: each record refused for what it
 * is (too deep, too large, not writable), and the first refusal of a kind whose file is full; later refusals of a
 * full kind are not warned of again.
 */
export interface Refused {
  refused: string;
  warn: boolean;
}

/** How a model record was kept, or why not. */
export type ModelOutcome = 'recorded' | 'variant-of-known-base' | 'alias' | `invalid: ${string}` | Refused;

/** How a generation, a speech answer, providers or an error answer were kept, or why not. */
export type Outcome = 'recorded' | `invalid: ${string}` | Refused;

/** The kinds of recording, each stopped on its own once its file (or the audio) is full. */
export type Kind = 'models' | 'generations' | 'audio' | 'errors' | 'transcripts';

/** How deep a record may nest: it sits 2 deep in its file (`{"models": [<record>]}`). */
export const RECORD_DEPTH = FOLDER_LIMITS.depth - 2;

/**
 * The bytes a file may take: `FOLDER_LIMITS.fileBytes` less room for what grows without a new record (a speech
 * entry's `response_formats`, a rule's `times`) and for the file's own braces and names.
 */
export const FILE_BYTES = FOLDER_LIMITS.fileBytes - 64 * 1024;

/** The bytes `value` takes in its file ({@link prettyBytesAt}), or `undefined` when it cannot be written as JSON. */
export function measured(value: unknown, level: number, name?: string): number | undefined {
  try {
    return prettyBytesAt(value, level, name);
  } catch {
    return undefined;
  }
}

export const NOT_JSON: Refused = { refused: 'cannot be written as JSON', warn: true };
export const TOO_DEEP: Refused = { refused: `nests deeper than the ${FOLDER_LIMITS.depth} levels a file may hold`, warn: true };

/** The kinds no longer recorded in this run, with what filled up. */
export class StoppedKinds {
  private readonly stopped = new Map<Kind, string>();

  /** The refusal for a kind no longer recorded (not warned of again), or `undefined` while it is recorded. */
  refusalOf(kind: Kind): Refused | undefined {
    const full = this.stopped.get(kind);
    return full === undefined ? undefined : { refused: `${full}; ${kind} are no longer recorded in this run`, warn: false };
  }

  /** Stops recording `kind`, because `full`; the refusal warned of. */
  stop(kind: Kind, full: string): Refused {
    this.stopped.set(kind, full);
    return { refused: `${full} (the most --fixtures reads); ${kind} are no longer recorded in this run`, warn: true };
  }
}
