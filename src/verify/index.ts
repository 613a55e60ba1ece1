/**
 * `mockrouter verify`'s engine: asks the upstream gateway and an in-process simulator the same things
 * and reports where their answers' shapes differ. The command is `src/cli/verify-command.ts`.
 *
 * @module
 */
import { createGateway } from '../node-platform/create-gateway.js';
import { MAX_ANSWER_BYTES } from './answer-body.js';
import { VerifyError } from './errors.js';
import { runProbes } from './probes.js';
import { apiBaseOf, simulatorSide, upstreamSide } from './sides.js';
import type { VerifyReport } from './types.js';

export { MAX_ANSWER_BYTES, MAX_ANSWER_DEPTH, MAX_ANSWER_ITEMS, bytesText } from './answer-body.js';
export { MAX_SHAPE_CHARS, MAX_SHAPE_ENTRIES } from './shape.js';
export { VerifyError, type ProbeErrorCode, type RunErrorCode, type VerifyErrorCode } from './errors.js';
export { textReport, jsonReport } from './report.js';
export type { Difference, ProbeError, ProbeName, ProbeResult, VerifyReport } from './types.js';

/** Default time for each upstream request's whole answer, ms. */
export const DEFAULT_VERIFY_TIMEOUT_MS = 30_000;

/**
 * Default time for the whole check, ms: 2 minutes. The reads are a few dozen requests and `--spend` adds two speech
 * calls and up to 10 s of waiting for each generation record, so a gateway that answers at all is done well within.
 */
export const DEFAULT_VERIFY_DEADLINE_MS = 120_000;

/** What {@link verifyGateway} checks. */
export interface VerifyOptions {
  /** The upstream, e.g. `https://openrouter.ai`: the API is under `/api/v1` of it (see `apiBaseOf`). */
  readonly upstream: string;
  /** The upstream's API key (`OPENROUTER_API_KEY`); sent to the upstream only, never printed. */
  readonly apiKey: string | undefined;
  /** Also send one short speech call per format and its generation lookup, which costs credit (default false). */
  readonly spend?: boolean;
  /** Time for each upstream request's whole answer, ms (default {@link DEFAULT_VERIFY_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /**
   * Time for the whole check, ms, from the call (default {@link DEFAULT_VERIFY_DEADLINE_MS}): once it passes, the
   * request under way stops and the report ends there with `E_VERIFY_DEADLINE`.
   */
  readonly deadlineMs?: number;
  /** How long to keep asking for a speech call's generation record, ms (default 10,000). */
  readonly generationWaitMs?: number;
}

/**
 * Sends the read requests of `src/verify/probes.ts` (and with `spend` the speech calls) to the upstream and to a
 * fresh in-process simulator (`createGateway({})`: built-in catalog, any key accepted, asked with a key of its
 * own), and compares the answers: statuses, the headers clients read and the JSON bodies' shapes
 * (`src/verify/shape.ts`). Each upstream answer is bounded (`upstreamSide`: `timeoutMs`, {@link MAX_ANSWER_BYTES}
 * decoded, JSON `MAX_ANSWER_DEPTH` deep), and so is the whole check (`deadlineMs`).
 *
 * @returns the report; `drift` is true when any difference was found; `error` names the upstream answer the check
 *   stopped at (too big, too deep, broken off, too slow, or the deadline), with what was compared before it.
 * @throws {VerifyError} when the check cannot run: `E_VERIFY_NO_KEY` (no key), `E_VERIFY_UPSTREAM_URL`,
 *   `E_VERIFY_UNREACHABLE` (naming the upstream's URL) or `E_VERIFY_UNAUTHORIZED` (the upstream answered 401). No
 *   message carries the key.
 * @example const report = await verifyGateway({ upstream: 'https://openrouter.ai', apiKey: process.env.OPENROUTER_API_KEY });
 */
export async function verifyGateway(options: VerifyOptions): Promise<VerifyReport> {
  const base = apiBaseOf(options.upstream);
  const key = options.apiKey?.trim();
  if (!key) throw new VerifyError('E_VERIFY_NO_KEY', 'OPENROUTER_API_KEY is not set: verify sends the upstream its own key (export OPENROUTER_API_KEY=sk-or-...)');
  const deadlineMs = options.deadlineMs ?? DEFAULT_VERIFY_DEADLINE_MS;
  const limits = { timeoutMs: options.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS, deadline: AbortSignal.timeout(deadlineMs), deadlineMs, maxBytes: MAX_ANSWER_BYTES };
  const gateway = createGateway({});
  try {
    const spend = options.spend ?? false;
    const outcome = await runProbes(upstreamSide(base, key, limits), simulatorSide(gateway), {
      spend,
      ...(options.generationWaitMs === undefined ? {} : { generationWaitMs: options.generationWaitMs }),
    });
    return { drift: outcome.differences.length > 0, upstream: base.href, spend, probes: outcome.probes, differences: outcome.differences, error: outcome.error };
  } finally {
    await gateway.close();
  }
}
