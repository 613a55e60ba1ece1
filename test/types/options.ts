/**
 * Type test of the options as a user's project sees them (the package's own `.d.ts`, after `npm run build`): every
 * entry point takes a part of the one documented `Options` (`src/core/gateway/options.ts`); in browsers the forms
 * that name files are refused by type. And the clock has one shape: the `clock` event's data is the clock's
 * answer. Never run, only compiled (`test/types/tsconfig.json`, `npm run typecheck`).
 */
import { createGateway, createMockRouter, type GatewayEvent, type GatewayOptions, type MockRouterOptions, type Options, type Scenario } from 'mockrouter';
import { createMockRouter as createBrowserMockRouter, type BrowserMockRouterOptions } from 'mockrouter/browser';
import type { OptionsError } from 'mockrouter/server';
import { createMiddleware, type MiddlewareOptions } from 'mockrouter/express';
import express from 'express';

export function optionsTypeCheck(): void {
  const scenario = { name: 'slow', rules: [{ delay: { ms: 100 } }] };
  // Node.js: files and folders, or the data itself; and the handlers' cors.
  createMockRouter({ fixtures: './fixtures', keys: './keys.yaml', scenarios: ['./scenarios', scenario], scenario: 'slow', cors: ['http://localhost:5173'] });
  createMockRouter({ keys: ['sk-test', { key: 'sk-poor', credits: 0.01 }], clock: '2026-01-01T00:00:00Z', seed: 1 });
  createGateway({ fixtures: './fixtures', journalSize: 10 });
  // Browsers: the data only.
  createBrowserMockRouter({ keys: ['sk-test'], scenarios: [scenario], scenario: 'slow', cors: '*' });
  // @ts-expect-error a fixtures folder is Node.js-only
  createBrowserMockRouter({ fixtures: './fixtures' });
  // @ts-expect-error a keys file is Node.js-only
  createBrowserMockRouter({ keys: './keys.yaml' });
  // @ts-expect-error scenario folders are Node.js-only
  createBrowserMockRouter({ scenarios: ['./scenarios'] });
  // @ts-expect-error cors is no option of the gateway alone
  createGateway({ cors: '*' });
  // @ts-expect-error no such option
  createMockRouter({ journalLength: 10 });
  // The express middleware takes createMockRouter's part, and express's app.use takes the middleware.
  const mock = createMiddleware({ fixtures: './fixtures', keys: ['sk-test'], cors: '*' });
  express().use(mock).use('/mock', createMiddleware());
  // The mock's useScenario gives the scenario set, as the gateway's does, in a promise (resolved once shared).
  const chosen: Promise<Scenario | null> = mock.useScenario('rate-limited');
  const now: Scenario | null = mock.gateway.useScenario('rate-limited');
  void [chosen, now];
  void mock.journal.last()?.seq;
  // @ts-expect-error the standalone server's options are no middleware's
  createMiddleware({ port: 0 });

  // The parts are Picks of Options, so each option's type is the same everywhere.
  const same: [MockRouterOptions['cors'], BrowserMockRouterOptions['seed'], GatewayOptions['clock'], MiddlewareOptions['keys']] = [undefined, undefined, undefined, undefined];
  const fromOptions: [Options['cors'], Options['seed'], Options['clock'], Options['keys']] = same;
  void fromOptions;
  const name: OptionsError['option'] = 'cors';
  const serverName: OptionsError['option'] = 'timeouts';
  void [name, serverName];

  // The clock event carries what GET /__mock/clock answers.
  const clock: Extract<GatewayEvent, { type: 'clock' }>['data'] = { now: '2026-01-01T00:00:00.000+00:00', now_ms: 1_767_225_600_000, frozen: true };
  void clock;
  // @ts-expect-error the event's time is the ISO string, its ms in now_ms
  const old: Extract<GatewayEvent, { type: 'clock' }>['data'] = { now: 0, now_iso: '1970-01-01T00:00:00.000+00:00', frozen: true };
  void old;
}
