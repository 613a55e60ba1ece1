/**
 * The controls a test uses between cases, on every in-process adapter: `createMockRouter`'s (`src/msw/mock-router.ts`,
 * beside the MSW handlers) and `createMiddleware`'s (`src/express/create-middleware.ts`, on the middleware). The
 * in-process counterpart of the standalone server's admin API (`GET /__mock/requests`, `PUT /__mock/scenario`,
 * `POST /__mock/reset`). No msw here, so the express adapter's types name none.
 *
 * @module
 */
import type { Gateway } from './gateway.js';
import type { Journal } from '../journal/journal.js';
import type { Scenario, ScenarioDefinition } from '../scenarios/schema.js';

/** The gateway behind an in-process adapter, and the controls a test uses between cases. */
export interface MockControls {
  /** The core simulator behind the adapter (shared with nothing else). */
  readonly gateway: Gateway;
  /**
   * Every request the adapter answered, oldest first (bounded by `journalSize`); filter with
   * `journal.list({ operation, status, session })`. Credentials in headers and the query are redacted
   * (`src/core/http/redact.ts`).
   */
  readonly journal: Journal;
  /**
   * Sets the default scenario for every request without `X-Mock-Scenario`/`X-Mock-Status`: a loaded name
   * (built-in or from `scenarios`), a definition, or `null` for none. Restarts the scenario counters. The change
   * applies here at once, as `gateway.useScenario` does (which it calls); the promise adds the wait for the other
   * replicas (`gateway.sync()`), so in memory it need not be awaited.
   *
   * @throws {GatewayError} (400) for an unknown name, listing the loaded ones; {@link ScenarioError} for an
   *   invalid definition, naming the path inside it. Both synchronously, so a mistake shows without `await`.
   * @returns a promise of the scenario set (the loaded one a name names, the definition validated, or `null`), as
   *   `gateway.useScenario` returns it; it resolves once the change is in the shared store (option `store`), so the
   *   next request to any replica sees it; at once in memory. It never rejects: a store that cannot be reached is
   *   reported to `onError`.
   * @example mock.useScenario('rate-limited-then-ok');
   */
  useScenario(nameOrDefinition: string | ScenarioDefinition | null): Promise<Scenario | null>;
  /**
   * Clears scenario counters and the journal and returns to the initial default scenario (`afterEach`).
   *
   * @returns a promise as {@link useScenario}'s: `afterEach(() => mock.reset())` waits for it.
   */
  reset(): Promise<void>;
  /**
   * Closes the shared store's connections (option `store`; nothing to close in memory), so a process that embeds
   * the mock can exit: `afterAll(() => mock.close())`.
   */
  close(): Promise<void>;
}

/** Resolves once `gateway`'s changes are in its store (never rejects: a failed write was reported to `onError`). */
function settled(gateway: Gateway): Promise<void> {
  return gateway.sync().catch(() => undefined);
}

/** The controls over `gateway` ({@link MockControls}). */
export function controlsOf(gateway: Gateway): MockControls {
  return {
    gateway,
    journal: gateway.journal,
    useScenario(nameOrDefinition) {
      const scenario = gateway.useScenario(nameOrDefinition);
      return settled(gateway).then(() => scenario);
    },
    reset: () => (gateway.reset(), settled(gateway)),
    close: () => gateway.close(),
  };
}
