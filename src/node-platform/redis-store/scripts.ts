/**
 * The Lua scripts of the Redis store, by the command names ioredis defines for them ({@link SCRIPTS}): each is one
 * atomic step on the server, so replicas sharing the store see one gateway (a charge checked and added at once, a
 * window counted at once, a reset seen whole by the next request). Each script's comment says what moves together.
 * They are grouped by what they serve: the accounts (`account-scripts.ts`), the shared controls
 * (`control-scripts.ts`), generation records (`generation-scripts.ts`), the journal (`journal-scripts.ts`) and the
 * said audio of transcription (`said-scripts.ts`); what they share is `script-base.ts`.
 *
 * Names of per-key state are not declared in `KEYS` (`script-base.ts`): that is why the store works with a
 * standalone server (or one fronted by Sentinel) and not with Redis Cluster, where every key a script touches must
 * be declared and live in one slot.
 *
 * Data the simulator cannot read (a key of another type where per-key state or the controls belong) fails a script
 * with an error reply `MRDATA <what> <problem>` (`what`: `control`, `state` or `index`), which the store reports as
 * invalid data at that key (`src/core/store/invalid-data.ts`).
 *
 * @module
 */

import { addToLedger, charge, countWindow, readLedger } from './account-scripts.js';
import { countRule, drainStale, reset, setControl, setScenario } from './control-scripts.js';
import { getGeneration, putGeneration } from './generation-scripts.js';
import { journalFinish, journalRead, journalRecord } from './journal-scripts.js';
import { recallSaid, rememberSaid } from './said-scripts.js';

/** Every script, by the command name ioredis defines for it. */
export const SCRIPTS = {
  mrCountWindow: countWindow,
  mrCharge: charge,
  mrAddToLedger: addToLedger,
  mrReadLedger: readLedger,
  mrCountRule: countRule,
  mrSetControl: setControl,
  mrSetScenario: setScenario,
  mrReset: reset,
  mrDrainStale: drainStale,
  mrPutGeneration: putGeneration,
  mrGetGeneration: getGeneration,
  mrJournalRecord: journalRecord,
  mrJournalFinish: journalFinish,
  mrJournalRead: journalRead,
  mrRememberSaid: rememberSaid,
  mrRecallSaid: recallSaid,
} as const;

/** The commands {@link SCRIPTS} defines on a client: keys then arguments, as text or numbers. */
export type ScriptCommands = {
  [name in keyof typeof SCRIPTS]: (...keysThenArgs: (string | number)[]) => Promise<unknown>;
};
