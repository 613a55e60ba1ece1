import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMiddleware } from '@mswjs/http-middleware';
import express from 'express';
import { createMockRouter } from 'mockrouter';

/** Starts the app on `port` (0 picks a free one); resolves once it listens. */
export async function startApp(port = 4010): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const app = express();
  app.get('/health', (_req, res) => void res.json({ status: 'ok' })); // your own routes keep working
  // The middleware is CommonJS and types its parameters with msw's CommonJS classes; in an ESM TypeScript
  // project the handlers have msw's ESM classes, the same at run time, so cast them (through `unknown`: TypeScript
  // sees two unrelated classes).
  const handlers = createMockRouter({ seed: 1 }).handlers as unknown as Parameters<typeof createMiddleware>;
  app.use(createMiddleware(...handlers));

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
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
