/**
 * Odd but possible inputs get a clear envelope, in both modes where they can be sent: a method
 * served nowhere (`PROPFIND`; `TRACE` and `CONNECT` on the standalone server, since fetch refuses to send them) is a
 * 405 with `Allow`, never a 404 or a closed socket; `speed: 1e400` (parsed as Infinity) is out of range; a query
 * parameter given twice where one value is expected is a 400 naming it.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { rawHttp } from './support/raw-http.js';
import { auth, modes, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

async function envelope(response: Response): Promise<{ code: number; message: string }> {
  return ((await response.json()) as { error: { code: number; message: string } }).error;
}

describe.each(modes)('$name', (mode) => {
  let running: RunningMode;
  beforeAll(async () => (running = await mode.start({ seed: 1 })));
  afterAll(() => running.stop());

  it.each([
    ['/nothing/here', 'GET, HEAD, POST, OPTIONS'],
    ['/models', 'GET'],
    ['/audio/speech', 'POST'],
  ])('answers PROPFIND on %s with a 405 envelope and Allow: %s', async (path, allow) => {
    const response = await fetch(`${running.baseUrl}${path}`, { method: 'PROPFIND', headers: auth() });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect((await envelope(response)).message).toBe(`Method PROPFIND is not allowed on /api/v1${path}; use ${allow}`);
  });

  it('says speed 1e400 is out of range', async () => {
    const response = await postSpeech(running.baseUrl, `{"model":"${TTS}","input":"Hi","voice":"alloy","speed":1e400}`, auth());
    expect(response.status).toBe(400);
    expect((await envelope(response)).message).toBe('speed: must be between 0.25 and 4, got Infinity');
  });

  it.each([
    ['/models?sort=newest&sort=evil', 'sort: expected one value, got 2 (a repeated query parameter)'],
    ['/models?output_modalities=speech&output_modalities=text', 'output_modalities: expected one value, got 2 (a repeated query parameter)'],
    ['/generation?id=gen-1&id=gen-2', 'id: expected one value, got 2 (a repeated query parameter)'],
  ])('answers %s with a 400 naming the repeated parameter', async (path, message) => {
    const response = await fetch(`${running.baseUrl}${path}`, { headers: auth() });
    expect(response.status).toBe(400);
    expect((await envelope(response)).message).toBe(message);
  });
});

describe('the standalone server', () => {
  let server: RunningServer;
  beforeAll(async () => (server = await startServer({ port: 0 })));
  afterAll(() => server.close());

  it('answers TRACE with a 405 envelope and Allow, on the API and the admin API', async () => {
    const api = await rawHttp(`${server.baseUrl}/nothing`, { method: 'TRACE' });
    expect(api.status).toBe(405);
    expect(api.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    // An admin route's own methods; the admin API's on a path with no route.
    const admin = await rawHttp(`${server.url}/__mock/requests`, { method: 'TRACE' });
    expect(admin.status).toBe(405);
    expect(admin.headers.allow).toBe('GET, DELETE');
    expect(JSON.parse(admin.text).error.message).toBe('Method TRACE is not allowed on /__mock/requests; use GET, DELETE');
    const nowhere = await rawHttp(`${server.url}/__mock/nothing`, { method: 'TRACE' });
    expect(nowhere.status).toBe(405);
    expect(nowhere.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE');
  });

  it('answers CONNECT with a 405 envelope and Allow instead of closing the socket without a word', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(answer).toContain('\r\nAllow: GET, HEAD, POST, OPTIONS\r\n');
    expect(answer).toContain('"message":"Method CONNECT is not allowed on example.com:443; use GET, HEAD, POST, OPTIONS"');
    // And the server goes on answering.
    expect((await fetch(`${server.baseUrl}/models/count`, { headers: auth() })).status).toBe(200);
  });
});
