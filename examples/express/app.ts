import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createMiddleware, type MockRouterMiddleware } from 'mockrouter/express';

/** Starts the app on `port` (0 picks a free one); resolves once it listens. */
export async function startApp(port = 4010): Promise<{ baseUrl: string; mock: MockRouterMiddleware; close: () => Promise<void> }> {
  const app = express();
  app.use(express.json()); // a body parser before the mock is fine: the mock then reads req.body
  app.get('/health', (_req, res) => void res.json({ status: 'ok' })); // your own routes keep working
  const mock = createMiddleware({ seed: 1 }); // the options of createMockRouter
  app.use(mock); // the gateway at /api/v1; with app.use('/mock', mock), at /mock/api/v1

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
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
