/**
 * A fault outside the gateway's own error guard, in the node:http adapters (the standalone server and
 * `createMiddleware`): reported once to `onError`, answered with the 500 envelope, and the process goes on. Before
 * `answerOrFault` (`src/node-adapter/adapter.ts`), such a throw reached Node's `request` listener and ended the
 * process. A rejection is answered as a throw is. A request logger that throws is reported the same way; a fault
 * inside the gateway (its journal) is its own guard's: `gateway.handle` answers it with the 500 envelope.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/core/gateway/gateway.js';
import { createMiddleware } from '../src/express/index.js';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { auth } from './support/modes.js';

interface Started {
  baseUrl: string;
  gateway: Gateway;
  close(): Promise<void>;
}

const reported: string[] = [];
const onError = (error: unknown, where: string) => void reported.push(`${where}: ${(error as Error).message}`);

async function server(): Promise<Started> {
  const running: RunningServer = await startServer({ port: 0, onError });
  return { baseUrl: running.baseUrl, gateway: running.gateway, close: () => running.close() };
}

async function middleware(): Promise<Started> {
  const mock = createMiddleware({ onError });
  const http: Server = createServer((request, response) => mock(request, response, () => response.writeHead(404).end()));
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    gateway: mock.gateway,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

let started: Started | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
  reported.length = 0;
});

describe.each([
  ['server', server],
  ['createMiddleware', middleware],
])('a fault outside the gateway (%s)', (_name, start) => {
  it('answers that request with the 500 envelope, reports it once, and answers the next one', async () => {
    started = await start();
    const handle = started.gateway.handle;
    // The front door calls gateway.handle for every API request: a throw there is outside the gateway's guard.
    (started.gateway as { handle: Gateway['handle'] }).handle = () => {
      throw new Error('front door bug');
    };
    const failed = await fetch(`${started.baseUrl}/models/count`, { headers: auth() });
    expect(failed.status).toBe(500);
    const envelope = (await failed.json()) as { error: { code: number; message: string; metadata: { reason?: string } | null } };
    expect(envelope.error.code).toBe(500);
    expect(JSON.stringify(envelope)).toContain('front door bug');
    expect(JSON.stringify(envelope)).not.toMatch(/\n\s+at /);
    expect(reported).toEqual(['request GET /api/v1/models/count: front door bug']);

    (started.gateway as { handle: Gateway['handle'] }).handle = handle;
    const next = await fetch(`${started.baseUrl}/models/count`, { headers: auth() });
    expect(next.status).toBe(200);
  });

  it('answers a rejection as it answers a throw: the 500 envelope, reported once', async () => {
    started = await start();
    const handle = started.gateway.handle;
    (started.gateway as { handle: Gateway['handle'] }).handle = async () => {
      await Promise.resolve();
      throw new Error('late front door bug');
    };
    const failed = await fetch(`${started.baseUrl}/models/count`, { headers: auth() });
    expect(failed.status).toBe(500);
    expect(JSON.stringify(await failed.json())).toContain('late front door bug');
    expect(reported).toEqual(['request GET /api/v1/models/count: late front door bug']);
    (started.gateway as { handle: Gateway['handle'] }).handle = handle;
    expect((await fetch(`${started.baseUrl}/models/count`, { headers: auth() })).status).toBe(200);
  });
});

describe("a fault inside the gateway, after the pipeline's answer", () => {
  it('is a rejection the gateway guards: handle answers the 500 envelope, reports it once, and answers the next one', async () => {
    const gateway = createGateway({ onError });
    const request = { method: 'GET', path: '/api/v1/models/count', query: '', headers: { authorization: 'Bearer k' } };
    const record = gateway.journal.record.bind(gateway.journal);
    // The journal records once the pipeline has answered: a throw there rejects inside the gateway's guard.
    gateway.journal.record = () => {
      throw new Error('journal bug');
    };
    const failed = await gateway.handle(request);
    expect(failed.status).toBe(500);
    expect(String(failed.body)).toContain('journal bug');
    expect(reported).toEqual(['request GET /api/v1/models/count: journal bug']);
    gateway.journal.record = record;
    expect((await gateway.handle(request)).status).toBe(200);
  });
});

describe('a request logger that throws', () => {
  it('is reported once per line, and the server keeps answering', async () => {
    const running = await startServer({
      port: 0,
      onError,
      logger: {
        info: () => {
          throw new Error('log sink full');
        },
        error: () => undefined,
      },
    });
    started = { baseUrl: running.baseUrl, gateway: running.gateway, close: () => running.close() };
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${running.baseUrl}/models/count`, { headers: auth() });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    while (reported.length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual(['the request log: log sink full', 'the request log: log sink full']);
  });
});
