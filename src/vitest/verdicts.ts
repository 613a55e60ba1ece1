/**
 * Resilience verdicts over the journal, as pure functions: each takes a {@link JournalInput} and returns a
 * {@link Verdict}. The vitest matchers of `mockrouter/vitest` are thin wrappers over these; any other test runner
 * can assert on `verdict.pass` and print `verdict.problems`.
 *
 * Retries and retry chains are defined in `retries.ts` (same session, method, path, query and JSON body; the
 * earlier attempt failed with status 0 or ≥ 400). Times are the journal's `time` (the simulator's clock at the
 * request's arrival), so a frozen or faked clock gives the waits of that clock.
 *
 * @module
 */
import type { JournalEntry } from '../core/journal/journal.js';
import {
  describeAttempt,
  describeRequest,
  journalEntries,
  ms,
  retryAfterOf,
  retryChains,
  target,
  timeOfDay,
  type JournalInput,
  type RetryChain,
} from './retries.js';

/** The outcome of a verdict. */
export interface Verdict {
  /** Whether the journal shows the behavior. */
  pass: boolean;
  /** Why it does not: one line per offending request, chain or id (empty when `pass`). */
  problems: string[];
  /**
   * What was checked and held, one line each (the retries that waited, the retried statuses, the growing chains,
   * the ids polled until ready). It is what a `.not` assertion's message lists when the behavior is there.
   */
  evidence: string[];
}

/** Options of the timing verdicts. */
export interface TimingOptions {
  /** Slack for clock rounding and timer granularity, ms. Default {@link DEFAULT_TOLERANCE_MS}. */
  toleranceMs?: number;
}

/** Default slack of the timing verdicts, ms: a timer may fire a millisecond early and times are whole ms. */
export const DEFAULT_TOLERANCE_MS = 5;

/** Statuses a generation poller may see and poll through before the record: not ready, or transient. */
function isPollable(status: number): boolean {
  return status === 404 || status === 0 || status === 408 || status === 425 || status === 429 || status >= 500;
}

function tolerance(options: TimingOptions | undefined): number {
  const value = options?.toleranceMs ?? DEFAULT_TOLERANCE_MS;
  if (!(Number.isFinite(value) && value >= 0)) throw new TypeError(`toleranceMs: expected a number of ms ≥ 0, got ${String(value)}`);
  return value;
}

/** Every (failed attempt, its retry) pair of the chains. */
function retryPairs(chains: readonly RetryChain[]): { failed: JournalEntry; retry: JournalEntry }[] {
  const pairs: { failed: JournalEntry; retry: JournalEntry }[] = [];
  for (const { attempts } of chains) {
    for (let i = 1; i < attempts.length; i++) pairs.push({ failed: attempts[i - 1]!, retry: attempts[i]! });
  }
  return pairs;
}

/**
 * Whether every retry waited at least as long as the failed response asked.
 *
 * Rule: for every failed response carrying `retry-after-ms` or `Retry-After` (seconds, or an HTTP date) that was
 * retried, `retry.time - failed.time + toleranceMs ≥ the asked wait`. A response with the header that was not
 * retried at all honors it trivially (listed in `evidence`). Fails when any retry came early, one problem per
 * early retry: `#3 POST /api/v1/audio/speech at 12:00:00.120 retried #4 at 12:00:00.450, 330 ms later;
 * Retry-After asked 1000 ms`.
 *
 * Also fails when no response in the journal carried either header: there is nothing to honor, and a pass would
 * hide a test whose scenario never applied.
 */
export function honorsRetryAfter(input: JournalInput, options?: TimingOptions): Verdict {
  const slack = tolerance(options);
  const entries = journalEntries(input);
  const asked = entries.filter((e) => retryAfterOf(e) !== undefined);
  if (asked.length === 0) {
    return { pass: false, problems: ['no response in the journal carried Retry-After or retry-after-ms: nothing to honor'], evidence: [] };
  }
  const problems: string[] = [];
  const evidence: string[] = [];
  const retried = new Set<JournalEntry>();
  for (const { failed, retry } of retryPairs(retryChains(entries))) {
    const after = retryAfterOf(failed);
    if (!after) continue;
    retried.add(failed);
    const waited = retry.time - failed.time;
    const line = `${describeRequest(failed)} retried ${describeAttempt(retry)}, ${ms(waited)} later; ${after.header} asked ${ms(after.ms)}`;
    (waited + slack < after.ms ? problems : evidence).push(line);
  }
  for (const entry of asked) {
    if (retried.has(entry)) continue;
    const after = retryAfterOf(entry)!;
    evidence.push(`${describeRequest(entry)} got ${entry.status} with ${after.header} ${after.value}, not retried`);
  }
  return { pass: problems.length === 0, problems, evidence };
}

/**
 * Whether a response with `status` was retried.
 *
 * Rule: passes when at least one request that got `status` has a retry (see `retries.ts`). `evidence` names every
 * retried one (`#2 POST /api/v1/audio/speech at 12:00:00.120 got 402, retried #3 at 12:00:00.125, 5 ms later`),
 * which is the failure message of `.not.toRetryStatus(status)`. When it fails, `problems` names the responses
 * with that status that were not retried, or says that none had it. Status 0 is a connection reset.
 *
 * @throws {TypeError} when `status` is not an integer.
 */
export function retriesStatus(input: JournalInput, status: number): Verdict {
  if (!Number.isInteger(status)) throw new TypeError(`status: expected an integer HTTP status (0 for a reset), got ${String(status)}`);
  const entries = journalEntries(input);
  const evidence: string[] = [];
  const retried = new Set<JournalEntry>();
  for (const { failed, retry } of retryPairs(retryChains(entries))) {
    if (failed.status !== status) continue;
    retried.add(failed);
    evidence.push(`${describeRequest(failed)} got ${status}, retried ${describeAttempt(retry)}, ${ms(retry.time - failed.time)} later`);
  }
  if (evidence.length > 0) return { pass: true, problems: [], evidence };
  const withStatus = entries.filter((e) => e.status === status);
  const problems =
    withStatus.length === 0
      ? [`no response in the journal had status ${status}`]
      : withStatus.map((e) => `${describeRequest(e)} got ${status}, not retried`);
  return { pass: false, problems, evidence };
}

/**
 * Whether retries back off: the client's delay between attempts grows.
 *
 * Rule: in every retry chain, take the gaps between consecutive attempts, leaving out the gaps after a response
 * that carried `Retry-After`/`retry-after-ms` (the server set that wait; {@link honorsRetryAfter} checks it).
 * Every chain with at least two such gaps (two retries) must have each gap ≥ the previous one − `toleranceMs`
 * (never shrinking) and its last gap > its first + `toleranceMs` (growing, so a fixed interval fails). Jittered
 * exponential backoff (the `openai` SDK: 0.5 s then 1 s, each less up to 25 %) passes; "full jitter" (a random
 * wait between 0 and the cap) can fail, since its gaps need not grow.
 *
 * Fails, one problem per chain, naming the chain's requests, times and gaps; also fails when no chain has two
 * such retries: a positive assertion about backing off needs retries to judge, and a vacuous pass would hide a
 * client with `maxRetries: 0` or a scenario that never applied (chains with a single retry are counted in the
 * message, since one gap cannot show growth).
 */
export function backsOffBetweenRetries(input: JournalInput, options?: TimingOptions): Verdict {
  const slack = tolerance(options);
  const problems: string[] = [];
  const evidence: string[] = [];
  let judged = 0;
  let single = 0;
  for (const { attempts } of retryChains(journalEntries(input))) {
    if (attempts.length < 2) continue;
    const gaps: number[] = [];
    for (let i = 1; i < attempts.length; i++) {
      if (!retryAfterOf(attempts[i - 1]!)) gaps.push(attempts[i]!.time - attempts[i - 1]!.time);
    }
    if (gaps.length < 2) {
      single++;
      continue;
    }
    judged++;
    const [first] = attempts;
    const label = `${first!.method} ${target(first!)} chain ${attempts.map(describeAttempt).join(' → ')}: gaps ${gaps.map(ms).join(', ')}`;
    const shrink = gaps.findIndex((gap, i) => i > 0 && gap + slack < gaps[i - 1]!);
    if (shrink > 0) problems.push(`${label}; the delay shrank (${ms(gaps[shrink - 1]!)} → ${ms(gaps[shrink]!)})`);
    else if (!(gaps.at(-1)! > gaps[0]! + slack)) problems.push(`${label}; the delay does not grow`);
    else evidence.push(label);
  }
  if (judged === 0) {
    const note = single === 0 ? '' : ` (${single} chain${single === 1 ? '' : 's'} with a single retry or waits set by Retry-After: one gap cannot show growth)`;
    problems.push(`no retry chain in the journal has two or more retries to judge${note}`);
  }
  return { pass: problems.length === 0, problems, evidence };
}

/**
 * Whether every generation looked up was polled until its record came, and no further.
 *
 * Rule: group the generation lookups (`operation === 'generation'`) by `query.id`. For each id, the lookups
 * before the first 200 must be 404s (not ready yet) or transient failures the poller may poll through (0, 408,
 * 425, 429, 5xx); then exactly one 200, and no lookup of that id after it. Problems, one per id: never got a
 * 200 (the poller stopped before the record was ready, listing its lookups), looked up again after the 200, or got
 * another status (400, 401, ...) before it. A lookup without an id is a problem too. Fails also when the journal
 * has no generation lookups at all.
 */
export function pollsGenerationUntilReady(input: JournalInput): Verdict {
  const lookups = journalEntries(input).filter((e) => e.operation === 'generation');
  if (lookups.length === 0) {
    return { pass: false, problems: ['no generation lookups (GET /api/v1/generation?id=) in the journal'], evidence: [] };
  }
  const problems: string[] = [];
  const evidence: string[] = [];
  const byId = new Map<string, JournalEntry[]>();
  for (const lookup of lookups) {
    const id = lookup.query?.id;
    if (!id) {
      problems.push(`${describeRequest(lookup)} looked up no id (${lookup.status})`);
      continue;
    }
    const list = byId.get(id) ?? [];
    list.push(lookup);
    byId.set(id, list);
  }
  const status = (e: JournalEntry) => `${describeAttempt(e)} (${e.status})`;
  for (const [id, list] of byId) {
    const ready = list.findIndex((e) => e.status === 200);
    if (ready === -1) {
      problems.push(`${id}: never got the record; ${list.length} lookup${list.length === 1 ? '' : 's'}: ${list.map(status).join(', ')}`);
      continue;
    }
    const after = list.slice(ready + 1);
    const unexpected = list.slice(0, ready).filter((e) => !isPollable(e.status));
    if (unexpected.length > 0) problems.push(`${id}: got ${unexpected.map(status).join(', ')} before the record`);
    if (after.length > 0) {
      problems.push(`${id}: the record came with ${status(list[ready]!)}, then looked up again: ${after.map(status).join(', ')}`);
    }
    if (unexpected.length === 0 && after.length === 0) {
      const first = list[0]!;
      evidence.push(
        ready === 0
          ? `${id}: the record came with the first lookup, ${describeAttempt(first)}`
          : `${id}: ${ready} lookup${ready === 1 ? '' : 's'} not ready from ${timeOfDay(first.time)}, then the record with ${describeAttempt(list[ready]!)}`,
      );
    }
  }
  return { pass: problems.length === 0, problems, evidence };
}
