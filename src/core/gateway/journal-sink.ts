/**
 * Where a gateway's journal entries go, and the journal its admin API reads (`gateway.sharedJournal`): in memory,
 * the gateway's own {@link Journal}; with a shared store, the store's journal (one sequence for every replica) and
 * this process's own entries, numbered in that sequence, in its `Journal` too.
 *
 * @module
 */
import type { GatewayStore, SharedJournal } from '../store/types.js';
import type { Journal } from '../journal/journal.js';
import type { JournalSink } from './journaled.js';

/**
 * The sink of a gateway's entries: `journal` alone in memory; with a shared store, the store first (it gives the
 * `seq`), then `journal`, which keeps the entries of one run of the store: when an entry comes back in another run
 * (the store restarted empty, its numbers start over), `journal` starts over first, and `onNewRun` is told. An
 * entry the store cannot take is not journaled (`undefined`): the answer goes out all the same, and the store's
 * loss was reported once; the end of an answer is stored without waiting.
 */
export function journalSinkOf(store: GatewayStore, journal: Journal, onNewRun: () => void = () => undefined): JournalSink {
  if (!store.shared) return { record: (entry, bytes) => journal.record(entry, bytes), finish: () => undefined };
  /** The run of the entries in `journal` (none yet: it is empty). */
  let run: string | undefined;
  return {
    record: (entry, bytes) =>
      Promise.resolve(store.journal.record(entry, bytes)).then(
        (recorded) => {
          if (run !== undefined && recorded.run !== run) {
            journal.startOver();
            onNewRun();
          }
          run = recorded.run;
          return journal.record(recorded.entry, bytes, recorded.entry.seq);
        },
        () => undefined,
      ),
    finish: (entry) => void Promise.resolve(store.journal.finish(entry)).catch(() => undefined),
  };
}

/**
 * The journal of every replica: the store's; with a shared store, its `clear` also clears this process's `journal`
 * (which announces it to the other replicas, and they clear theirs).
 */
export function sharedJournalOf(store: GatewayStore, journal: Journal): SharedJournal {
  const shared = store.journal;
  if (!store.shared) return shared;
  return {
    list: (filter) => shared.list(filter),
    after: (seq, limit, filter) => shared.after(seq, limit, filter),
    get: (seq) => shared.get(seq),
    lastSeq: () => shared.lastSeq(),
    clear: () => (journal.clear(), shared.clear()),
  };
}
