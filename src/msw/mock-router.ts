/**
 * What `createMockRouter` returns on every platform (`src/index.ts` for Node.js, `src/browser/index.ts` for
 * browsers): the MSW handlers over one gateway, and the controls a test uses between cases.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import type { GatewayOptions, Options } from '../core/config/options.js';
import type { Gateway } from '../core/gateway.js';
import type { Journal } from '../core/journal/journal.js';
import type { ScenarioDefinition } from '../core/scenarios/schema.js';
import { createHandlers } from './handlers.js';

/**
 * Options of `createMockRouter`: the gateway's ({@link GatewayOptions}) and the handlers' `cors`, each documented
 * at {@link Options}. `FilePath` is `string` on Node.js and `never` in browsers, where `fixtures`, `keys` and
 * `scenarios` take data, not files.
 */
export type MockRouterOptions<FilePath extends string = string> = Pick<Options<FilePath>, keyof GatewayOptions | 'cors'>;

/** A mock gateway behind MSW handlers. */
export interface MockRouterBase {
  /**
   * MSW handlers: for `setupServer(...handlers)` (msw/node), `setupWorker(...handlers)` (msw/browser) or
   * `@mswjs/http-middleware`.
   */
  readonly handlers: HttpHandler[];
  /** The core simulator behind the handlers (shared with nothing else). */
  readonly gateway: Gateway;
  /**
   * Every request the handlers answered, oldest first (bounded by `journalSize`); filter with
   * `journal.list({ operation, status, session })`. Credentials in headers and the query are redacted
   * (`src/core/http/redact.ts`).
   */
  readonly journal: Journal;
  /**
   * Sets the default scenario for every request without `X-Mock-Scenario`/`X-Mock-Status`: a loaded name
   * (built-in or from `scenarios`), a definition, or `null` for none. Restarts the scenario counters.
   *
   * @throws {GatewayError} (400) for an unknown name, listing the loaded ones; {@link ScenarioError} for an
   *   invalid definition, naming the path inside it.
   * @example mock.useScenario('rate-limited-then-ok');
   */
  useScenario(nameOrDefinition: string | ScenarioDefinition | null): void;
  /** Clears scenario counters and the journal and returns to the initial default scenario (`afterEach`). */
  reset(): void;
}

/** The handlers (answering cross-origin requests as `options.cors` allows) and controls over `gateway`. */
export function mockRouterOf(gateway: Gateway, options: Pick<Options, 'cors'> = {}): MockRouterBase {
  return {
    handlers: createHandlers(gateway, options),
    gateway,
    journal: gateway.journal,
    useScenario: (nameOrDefinition) => void gateway.useScenario(nameOrDefinition),
    reset: () => gateway.reset(),
  };
}
