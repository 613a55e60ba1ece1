/**
 * The block every fuzz mode runs (`test/fuzz-msw.test.ts`, `test/fuzz-server.test.ts`), defined once: start the
 * mode's gateway, collect unhandled rejections, prime the generation records, run the properties of `cases.ts`,
 * then the account reads against a second gateway started with the keys file `FUZZ_KEYS`; stop everything after.
 * What differs by mode (how a gateway is started and reached) comes in as a {@link FuzzMode}.
 *
 * @module
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { Gateway } from '../../../src/core/gateway/gateway.js';
import { fuzzKeyedAccounts, fuzzOperations } from './cases.js';
import { FUZZ_KEYS, type FuzzKey } from './discovery.js';
import { GenerationIds } from './fixtures.js';
import { primeGenerations } from './run.js';
import type { Transport } from './transports.js';

/** A started gateway of one mode, with the transport that reaches it. */
export interface FuzzInstance {
  transport: Transport;
  gateway: Gateway;
  /** Stops it (and its transport). */
  close(): void | Promise<void>;
}

/** How one mode starts its gateways. */
export interface FuzzMode<T extends FuzzInstance> {
  /** `msw` or `server`, for the log lines of the properties. */
  name: 'msw' | 'server';
  /** Starts the gateway the properties run against (seed 11 in both modes). */
  start(): Promise<T>;
  /** Starts a second gateway with the keys file `keys` while the first one runs (the same seed). */
  startKeyed(keys: readonly FuzzKey[]): Promise<FuzzInstance>;
}

/** What {@link fuzzMode} gives its caller for the tests it adds after the properties. */
export interface FuzzSuite<T extends FuzzInstance> {
  /** The running instance (from the block's `beforeAll` to its `afterAll`). */
  instance(): T;
  /** Every unhandled rejection seen from the start of the instance to its close. */
  readonly rejections: readonly unknown[];
}

/**
 * Defines, inside the caller's `describe`, the start and stop of `mode`'s gateway and the properties every mode
 * runs: {@link fuzzOperations}, and {@link fuzzKeyedAccounts} in a `with a keys file` block. Tests the caller
 * defines after this call run after the properties, against the same instance.
 */
export function fuzzMode<T extends FuzzInstance>(mode: FuzzMode<T>): FuzzSuite<T> {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  const known = new GenerationIds();
  let running: T | undefined;
  const instance = (): T => {
    if (!running) throw new Error(`the ${mode.name} fuzz instance is not started`);
    return running;
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    running = await mode.start();
    await primeGenerations(running.transport, known);
  });
  afterAll(async () => {
    await running?.close();
    process.off('unhandledRejection', onRejection);
  });

  fuzzOperations(mode.name, () => ({ transport: instance().transport, gateway: instance().gateway, known }));

  describe('with a keys file', () => {
    let keyed: FuzzInstance | undefined;
    beforeAll(async () => {
      keyed = await mode.startKeyed(FUZZ_KEYS);
    });
    afterAll(async () => {
      await keyed?.close();
    });

    fuzzKeyedAccounts(mode.name, () => ({ transport: keyed!.transport, gateway: keyed!.gateway, known }));
  });

  return { instance, rejections };
}
