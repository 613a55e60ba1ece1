/**
 * Behaviour only the standalone server has: HTTP-level faults that never reach a route.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0 });
});
afterAll(() => server.close());

function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('standalone server', () => {
  it('answers malformed HTTP with the gateway envelope', async () => {
    const response = await rawRequest('POST /api/v1/audio/speech HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\nxyz');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
    expect(body.error.code).toBe(400);
    expect(body.error.message).toMatch(/Malformed HTTP request/);
  });

  it('sends JSON with exactly the core content type', async () => {
    const res = await fetch(`${server.baseUrl}/model/openai/gpt-4o`, { headers: { Authorization: 'Bearer k' } });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(Number(res.headers.get('content-length'))).toBe((await res.arrayBuffer()).byteLength);
  });

  it('answers the health check', async () => {
    const res = await fetch(`${server.url}/__mock/health`);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
