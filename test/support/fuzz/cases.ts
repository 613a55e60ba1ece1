/**
 * The fuzz properties every mode runs (`test/fuzz-msw.test.ts`, `test/fuzz-server.test.ts`): one `it` per
 * operation, defined inside the caller's `describe`, against the target the mode has set up by the time they run.
 *
 * @module
 */
import { expect, it } from 'vitest';
import type { Gateway } from '../../../src/core/gateway/gateway.js';
import { generationRequest, modelRequest, speechRequest } from './arbitraries.js';
import { FUZZ_KEYS } from './discovery.js';
import { accountRequest, creditsRequest, endpointsRequest, keyRequest, modelsCountRequest, modelsRequest } from './discovery-requests.js';
import type { GenerationIds } from './fixtures.js';
import { fuzz } from './run.js';
import { PROPERTY_TIMEOUT_MS, READ_RUNS, RUNS } from './settings.js';
import type { Transport } from './transports.js';

/** What a property sends through and checks against; read when the property runs (after the mode's `beforeAll`). */
export interface FuzzTarget {
  transport: Transport;
  gateway: Gateway;
  known: GenerationIds;
}

/**
 * Speech, the model and generation lookups ({@link RUNS} requests each) and the discovery and account reads
 * ({@link READ_RUNS} each), every answer checked by the oracle; the summaries are logged as `<mode> <operation>`.
 *
 * @param mode - `msw` or `server`, for the log lines.
 * @param target - gives the target when a property runs.
 */
export function fuzzOperations(mode: string, target: () => FuzzTarget): void {
  it(`speech: ${RUNS} generated requests`, async () => {
    const stats = await fuzz({ arbitrary: speechRequest, ...target() });
    console.log(stats.summary(`${mode} speech`));
    // The generators must reach both sides: real successes and many kinds of errors.
    expect(stats.ok).toBeGreaterThan(RUNS * 0.02);
    expect(stats.statuses.size).toBeGreaterThanOrEqual(RUNS >= 1000 ? 8 : 2);
  }, PROPERTY_TIMEOUT_MS);

  it(`model lookup: ${RUNS} generated requests`, async () => {
    const stats = await fuzz({ arbitrary: modelRequest, ...target() });
    console.log(stats.summary(`${mode} model`));
    expect(stats.ok).toBeGreaterThan(RUNS * 0.1);
  }, PROPERTY_TIMEOUT_MS);

  it(`generation lookup: ${RUNS} generated requests`, async () => {
    const t = target();
    const stats = await fuzz({ arbitrary: generationRequest(t.known), ...t });
    console.log(stats.summary(`${mode} generation`));
    expect(stats.ok).toBeGreaterThan(RUNS * 0.1);
  }, PROPERTY_TIMEOUT_MS);

  it.each([
    ['models list', modelsRequest, 'models'],
    ['models count', modelsCountRequest, 'models-count'],
    ['model endpoints', endpointsRequest, 'endpoints'],
    ['current key', keyRequest, 'key'],
    ['credits', creditsRequest, 'credits'],
  ] as const)(`%s: ${READ_RUNS} generated requests`, async (_, arbitrary, label) => {
    const stats = await fuzz({ arbitrary, ...target(), runs: READ_RUNS });
    console.log(stats.summary(`${mode} ${label}`));
    expect(stats.ok).toBeGreaterThan(READ_RUNS * 0.1);
  }, PROPERTY_TIMEOUT_MS);
}

/**
 * `/key` and `/credits` ({@link READ_RUNS} requests) against a gateway started with the keys file `FUZZ_KEYS`: some
 * answers must be the 403 of a key without `management`.
 *
 * @param mode - `msw` or `server`, for the log line.
 * @param target - gives the keyed target when the property runs.
 */
export function fuzzKeyedAccounts(mode: string, target: () => FuzzTarget): void {
  it(`key and credits: ${READ_RUNS} generated requests`, async () => {
    const stats = await fuzz({ arbitrary: accountRequest, ...target(), keys: FUZZ_KEYS, runs: READ_RUNS });
    console.log(stats.summary(`${mode} key and credits (keys file)`));
    expect(stats.ok).toBeGreaterThan(READ_RUNS * 0.05);
    expect(stats.statuses.get('403')).toBeGreaterThan(0);
  }, PROPERTY_TIMEOUT_MS);
}
