/**
 * `mockrouter/express`: the gateway mounted in your own express 4 or 5 app, on the core directly (no msw, no
 * `@mswjs/http-middleware`). See `docs/express.md`.
 *
 * @example
 * import express from 'express';
 * import { createMiddleware } from 'mockrouter/express';
 *
 * const app = express();
 * app.get('/health', (_req, res) => void res.json({ status: 'ok' })); // your own routes keep working
 * const mock = createMiddleware({ seed: 1 });
 * app.use(mock); // the gateway at /api/v1
 * app.listen(4010);
 *
 * @module
 */
export { createMiddleware, type MockRouterMiddleware, type NextFunction } from './create-middleware.js';
export type { MiddlewareOptions } from './middleware-options.js';
export type { MiddlewareRequest } from './parsed-body.js';
export type { MockControls } from '../core/gateway/mock-controls.js';
export type { Gateway } from '../core/gateway/gateway.js';
export type { CorsOption, GatewayOptions, Options } from '../core/gateway/options.js';
export type { Journal, JournalEntry, JournalFilter } from '../core/journal/journal.js';
export type { ScenarioDefinition } from '../core/scenarios/schema.js';
// The errors createMiddleware and useScenario throw, here too so an express-only program need not import the
// package's main entry (which needs msw).
export * from '../core/base/errors.js';

