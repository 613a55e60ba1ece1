/**
 * Running a fuzz property: send {@link RUNS} generated requests through a transport, check each answer with the
 * oracle (`oracle.ts`) against the reference model (`reference-model.ts`), and count what came back.
 *
 * @module
 */
import fc from 'fast-check';
import type { Gateway } from '../../../src/core/gateway/gateway.js';
import type { FuzzKey } from './discovery.js';
import { speechModels, type GenerationIds } from './fixtures.js';
import { check, checkJournal, describeOutcome } from './oracle.js';
import { predict } from './reference-model.js';
import { json, type FuzzRequest } from './request.js';
import { PROFILE, RUNS, SEED } from './settings.js';
import type { Outcome, Transport } from './transports.js';

/** Counts of what a property saw: answers by status, requests by generator branch, time by branch (ms). */
export class Stats {
  readonly statuses = new Map<string, number>();
  readonly kinds = new Map<string, number>();
  readonly kindMs = new Map<string, number>();
  runs = 0;
  ok = 0;
  started = performance.now();
  /** Adds `ms` milliseconds to the time spent on `req`'s generator branch. */
  time(req: FuzzRequest, ms: number): void {
    const key = `${req.kind}/${req.operation}`;
    this.kindMs.set(key, (this.kindMs.get(key) ?? 0) + ms);
  }
  /** Counts one request and its outcome. */
  add(req: FuzzRequest, outcome: Outcome): void {
    this.runs++;
    const key = outcome.kind === 'response' ? String(outcome.status) : outcome.kind;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
    this.kinds.set(req.kind, (this.kinds.get(req.kind) ?? 0) + 1);
    if (outcome.kind === 'response' && outcome.status === 200) this.ok++;
  }
  /** One line: requests, seconds, statuses by count; with `FUZZ_PROFILE=1`, a second line of time by branch. */
  summary(label: string): string {
    const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}:${n}`).join(' ');
    return `${label}: ${this.runs} requests in ${((performance.now() - this.started) / 1000).toFixed(1)} s; statuses ${sorted(this.statuses)}${PROFILE ? `\n  time by kind (ms): ${[...this.kindMs].sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k}:${Math.round(ms)}(${this.kinds.get(k.split('/')[0]!)})`).join(' ')}` : ''}`;
  }
}

/** What {@link fuzz} runs. */
export interface PropertyOptions {
  arbitrary: fc.Arbitrary<FuzzRequest>;
  transport: Transport;
  /** The gateway behind the transport, whose journal is checked. */
  gateway: Gateway;
  /** The generation records there are; grows with every `X-Generation-Id` answered. */
  known: GenerationIds;
  /** Journal entries to keep before clearing it. */
  clearJournalEvery?: number;
  /** The keys file the gateway was started with, if any (the reference model needs it). */
  keys?: readonly FuzzKey[] | undefined;
  /** How many requests to generate; default {@link RUNS}. */
  runs?: number;
}

/** The last journal sequence number seen per gateway (it survives `journal.clear()`, which empties `last()`). */
const lastSeqOf = new WeakMap<Gateway, number>();

/**
 * Runs `runs` ({@link RUNS} by default) generated requests (seed {@link SEED}) through `transport` and checks each answer (`check`)
 * and its journal entry (`checkJournal`).
 *
 * @returns the statistics.
 * @throws the first counterexample, shrunk, with the oracle's message (fast-check's `assert`).
 */
export async function fuzz({ arbitrary, transport, gateway, known, clearJournalEvery = 500, keys, runs = RUNS }: PropertyOptions): Promise<Stats> {
  const stats = new Stats();
  const currentSeq = () => {
    const seq = gateway.journal.last()?.seq ?? lastSeqOf.get(gateway) ?? 0;
    lastSeqOf.set(gateway, seq);
    return seq;
  };
  await fc.assert(
    fc.asyncProperty(arbitrary, async (req) => {
      const lastSeq = currentSeq();
      const seen = transport.seen(req);
      const expectation = predict(req, seen, transport.mode, known, keys);
      const t0 = performance.now();
      const outcome = await transport.send(req);
      stats.time(req, performance.now() - t0);
      stats.add(req, outcome);
      if (outcome.kind === 'response' && outcome.headers['x-generation-id']) known.add(outcome.headers['x-generation-id']);
      check(req, seen, expectation, outcome);
      checkJournal(req, expectation, transport.mode, outcome, gateway, lastSeq);
      if (gateway.journal.size >= clearJournalEvery) {
        currentSeq();
        gateway.journal.clear();
      }
    }),
    { numRuns: runs, seed: SEED },
  );
  return stats;
}

/**
 * Makes `count` real speech calls (`createAudioSpeech`) through `transport` and records their generation ids,
 * so the generation lookups have records of both kinds (fixtures and speech calls) to find.
 *
 * @throws {Error} when a call does not answer 200 with an `X-Generation-Id`.
 */
export async function primeGenerations(transport: Transport, known: GenerationIds, count = 5): Promise<void> {
  for (let i = 0; i < count; i++) {
    const model = speechModels[i % speechModels.length]!;
    const outcome = await transport.send({
      operation: 'speech',
      kind: 'prime',
      method: 'POST',
      target: '/api/v1/audio/speech',
      headers: [['Authorization', 'Bearer sk-prime'], ['Content-Type', 'application/json']],
      body: json({ model: model.id, input: `Prime ${i}.`, voice: model.voices?.[0] ?? 'any-voice' }),
    });
    if (outcome.kind !== 'response' || outcome.status !== 200 || !outcome.headers['x-generation-id']) throw new Error(`priming speech call failed: ${describeOutcome(outcome)}`);
    known.add(outcome.headers['x-generation-id']);
  }
}
