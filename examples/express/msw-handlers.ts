import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createMiddleware } from '@mswjs/http-middleware';
import express from 'express';
import { createMockRouter } from 'mockrouter';

/**
 * Starts the app on `port` (0 picks a free one); resolves once it listens, rejects with the listen error
 * (`EADDRINUSE` when another server holds the port).
 */
export async function startApp(port = 3000): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const app = express();
  app.get('/health', (_req, res) => void res.json({ status: 'ok' })); // your own routes keep working
  // The middleware is CommonJS and types its parameters with msw's CommonJS classes; in an ESM TypeScript
  // project the handlers have msw's ESM classes, the same at run time, so cast them (through `unknown`: TypeScript
  // sees two unrelated classes).
  const handlers = createMockRouter({ seed: 1 }).handlers as unknown as Parameters<typeof createMiddleware>;
  app.use(createMiddleware(...handlers));

  // No callback to listen(): a failure to listen (EADDRINUSE, ...) is then an 'error' event in express 4 and 5
  // alike (express 5 hands it to a callback instead), and once() rejects with it.
  const server = app.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const { port: actual } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${actual}/api/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // keep-alive clients would hold close() open otherwise
      }),
  };
}
