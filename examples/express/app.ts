import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createMiddleware, type MockRouterMiddleware } from 'mockrouter/express';

/**
 * Starts the app on `port` (0 picks a free one); resolves once it listens, rejects with the listen error
 * (`EADDRINUSE` when another server holds the port).
 */
export async function startApp(port = 3000): Promise<{ baseUrl: string; mock: MockRouterMiddleware; close: () => Promise<void> }> {
  const app = express();
  const mock = createMiddleware({ seed: 1 }); // the options of createMockRouter
  app.use(mock); // the gateway at /api/v1; with app.use('/mock', mock), at /mock/api/v1
  // Your parsers after the mock: it reads its own bodies, so a malformed one gets the gateway's 400 envelope.
  app.use(express.json());
  app.get('/health', (_req, res) => void res.json({ status: 'ok' })); // your own routes keep working

  // No callback to listen(): a failure to listen (EADDRINUSE, ...) is then an 'error' event in express 4 and 5
  // alike (express 5 hands it to a callback instead), and once() rejects with it.
  const server = app.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const { port: actual } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${actual}/api/v1`,
    mock, // mock.journal, mock.useScenario(...), mock.reset(), as on createMockRouter's result
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // keep-alive clients would hold close() open otherwise
      }),
  };
}
