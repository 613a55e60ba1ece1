/**
 * The recorder's notes for the log: one line per thing an exchange wrote or did not (`recorder.ts`), a refusal of
 * the folder's (`refusals.ts`) or a recording dropped for holding a credential named as such, never by its value.
 *
 * @module
 */
import type { ModelOutcome, Outcome, Refused } from './refusals.js';

/** One line for the log about an exchange: what was written, or why not; `warn` for what the recorder warns of. */
export interface Note {
  text: string;
  warn: boolean;
}

export const info = (text: string): Note => ({ text, warn: false });

/** The note of a refusal of the folder's (`recorded-folder.ts`), about `what`. */
export function refusalNote(what: string, refused: Refused): Note {
  return { text: `not recorded: ${what}: ${refused.refused}`, warn: refused.warn };
}

/** The note of a recording dropped for holding a credential: names neither the credential nor the value. */
export function credentialNote(what: string): Note {
  return { text: `not recorded: ${what} holds a credential of the request (in some form)`, warn: true };
}

/** The note of an outcome other than a model's. */
export function outcomeNote(what: string, outcome: Outcome, written: string): Note {
  if (outcome === 'recorded') return info(written);
  return typeof outcome === 'string' ? info(`not recorded: ${what} ${outcome}`) : refusalNote(what, outcome);
}

/** The outcome of a model record dropped for holding a credential. */
export const LEAK: Refused = { refused: 'holds a credential of the request (in some form)', warn: true };

/**
 * The notes of a lookup's or list's model records: `model <id>` for a lookup's, `models: <k> of <n> kept` for a
 * list's, and one for each record not kept (a record dropped for a credential named by its place, `#<i>`, only).
 */
export function summarize(records: readonly unknown[], outcomes: readonly ModelOutcome[]): Note[] {
  const kept = outcomes.filter((o) => o === 'recorded' || o === 'alias').length;
  const notes = records.length === 1 ? [] : [info(`models: ${kept} of ${records.length} kept`)];
  records.forEach((record, i) => {
    const outcome = outcomes[i]!;
    const id = outcome === LEAK ? `#${i}` : String((record as { id?: unknown } | null)?.id ?? `#${i}`).slice(0, 200);
    if (typeof outcome !== 'string') notes.push(refusalNote(`model ${id}`, outcome));
    else if (records.length === 1 || outcome !== 'recorded') notes.push(info(outcome === 'recorded' ? `model ${id}` : `model ${id}: ${outcome}`));
  });
  return notes;
}
