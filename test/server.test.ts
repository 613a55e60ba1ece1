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

  it("sends one Content-Length, the body's, whatever a raw scenario's headers say", async () => {
    const raw = { status: 200, content_type: 'text/plain', body: 'abc\u00e9', headers: { 'content-length': '999', 'X-Extra': 'kept' } };
    const own = await startServer({ port: 0, scenario: { name: 'own-length', rules: [{ raw }] } });
    try {
      const response = await new Promise<string>((resolve, reject) => {
        const socket = connect(own.port, '127.0.0.1', () => socket.end('GET /api/v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n'));
        let out = '';
        socket.on('data', (d) => (out += d.toString('latin1')));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
      const head = response.slice(0, response.indexOf('\r\n\r\n')).split('\r\n');
      expect(head[0]).toBe('HTTP/1.1 200 OK');
      expect(head.filter((line) => /^content-length:/i.test(line))).toEqual(['Content-Length: 5']);
      expect(head).toContain('X-Extra: kept');
      expect(head).toContain('Content-Type: text/plain');
      expect(Buffer.from(response.slice(response.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')).toBe('abc\u00e9');
    } finally {
      await own.close();
    }
  });

  it('answers the health check', async () => {
    const res = await fetch(`${server.url}/__mock/health`);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('the index at / and /api/v1', () => {
  it.each(['/', '/api/v1', '/api/v1/'])('GET %s lists the operations and the admin API', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const index = await res.json();
    expect(index.api).toBe('/api/v1');
    expect(index.operations).toEqual([
      { operation_id: 'createAudioSpeech', method: 'POST', path: '/api/v1/audio/speech' },
      { operation_id: 'createAudioTranscriptions', method: 'POST', path: '/api/v1/audio/transcriptions' },
      { operation_id: 'getModel', method: 'GET', path: '/api/v1/model/{author}/{slug}' },
      { operation_id: 'getGeneration', method: 'GET', path: '/api/v1/generation' },
      { operation_id: 'getModels', method: 'GET', path: '/api/v1/models' },
      { operation_id: 'listModelsCount', method: 'GET', path: '/api/v1/models/count' },
      { operation_id: 'listEndpoints', method: 'GET', path: '/api/v1/models/{author}/{slug}/endpoints' },
      { operation_id: 'getCurrentKey', method: 'GET', path: '/api/v1/key' },
      { operation_id: 'getCredits', method: 'GET', path: '/api/v1/credits' },
      { operation_id: 'listSpeechModels', method: 'GET', path: '/api/v1/audio/speech/models' },
      { operation_id: 'getSpeechModel', method: 'GET', path: '/api/v1/audio/speech/models/{author}/{slug}' },
    ]);
    expect(index.admin).toContain('GET /__mock/health');
    expect(index.admin).toContain('PUT /__mock/scenario');
    expect(index.admin).toContain('POST /__mock/clock');
    expect(index.admin).toContain('GET /__mock/ui');
  });

  it('is not an API request: no auth needed and nothing journaled', async () => {
    await fetch(`${server.url}/__mock/requests`, { method: 'DELETE' });
    await (await fetch(`${server.url}/api/v1`)).arrayBuffer();
    expect((await (await fetch(`${server.url}/__mock/requests`)).json()).requests).toEqual([]);
  });

  it('other methods on the index paths still get the envelope', async () => {
    const res = await fetch(`${server.url}/api/v1`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe(404);
  });
});

describe('admin API guards', () => {
  it('an unknown admin path lists every admin endpoint', async () => {
    const res = await fetch(`${server.url}/__mock/nope`);
    expect(res.status).toBe(404);
    const message: string = (await res.json()).error.message;
    for (const endpoint of ['GET /__mock/health', 'GET /__mock/requests', 'DELETE /__mock/requests', 'POST /__mock/reset', 'GET /__mock/scenarios', 'PUT /__mock/scenario', 'GET /__mock/clock', 'POST /__mock/clock']) {
      expect(message).toContain(endpoint);
    }
  });

  it('turns the admin API off with admin: false, but keeps the health check (a readiness probe)', async () => {
    const off = await startServer({ port: 0, admin: false });
    try {
      const res = await fetch(`${off.url}/__mock/requests`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe(404);
      const health = await fetch(`${off.url}/__mock/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect((await (await fetch(`${off.url}/`)).json()).admin).toEqual(['GET /__mock/health']);
    } finally {
      await off.close();
    }
  });

  it('requires the admin token when one is set, but keeps health open', async () => {
    const guarded = await startServer({ port: 0, adminToken: 'tok-123' });
    try {
      expect((await fetch(`${guarded.url}/__mock/health`)).status).toBe(200);
      const denied = await fetch(`${guarded.url}/__mock/requests`, { headers: { Authorization: 'Bearer wrong' } });
      expect(denied.status).toBe(401);
      expect((await denied.json()).error.message).toMatch(/admin token/);
      expect((await fetch(`${guarded.url}/__mock/requests`, { headers: { 'X-Mock-Admin-Token': 'tok-123' } })).status).toBe(200);
      expect((await fetch(`${guarded.url}/__mock/reset`, { method: 'POST', headers: { Authorization: 'Bearer tok-123' } })).status).toBe(204);
    } finally {
      await guarded.close();
    }
  });
});

describe('timeouts', () => {
  it('closes a connection whose headers arrive too slowly', async () => {
    const slow = await startServer({ port: 0, timeouts: { headers: 300, request: 300 } });
    try {
      const closed = await new Promise<{ ms: number; data: string }>((resolve, reject) => {
        const started = Date.now();
        const socket = connect(slow.port, '127.0.0.1', () => socket.write('GET /api/v1/model/openai/gpt-4o HTTP/1.1\r\nHost: x\r\n'));
        let data = '';
        socket.on('data', (d) => (data += d.toString()));
        socket.on('close', () => resolve({ ms: Date.now() - started, data }));
        socket.on('error', reject);
        setTimeout(() => reject(new Error('not closed')), 5000);
      });
      expect(closed.ms).toBeLessThan(3000);
      expect(closed.data).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await slow.close();
    }
  });
});
