/**
 * The request log of the standalone server (src/cli/logger.ts): on a terminal, one readable line per request
 * that names the applied scenario rule and the generation id, as the JSON lines do (test/cli.test.ts); and no
 * credential in a line's URL (`src/core/http/redact.ts`): not the admin token, right or wrong, nor an API key.
 * The CLI's deferred log holds the lines of requests answered before pino has loaded, in order and bounded.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, deferredLogger, MAX_DEFERRED_LINES } from '../src/cli/logger.js';
import { startServer } from '../src/server/index.js';
import { auth } from './support/modes.js';
import { rawHttp } from './support/raw-http.js';
import { TTS } from './support/speech-model.js';

describe('request log, pretty (terminal) mode', () => {
  it('names the scenario rule and the generation id when there are any', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = await createLogger(true, out);
    log.info({ method: 'GET', url: '/api/v1/model/a/b', status: 429, ms: 1.2, scenario: 'rate-limited/rate-limited' }, 'request');
    log.info({ method: 'POST', url: '/api/v1/audio/speech', status: 200, ms: 3.4, generation_id: 'gen-tts-1-abc' }, 'request');
    log.info({ method: 'GET', url: '/api/v1/generation', status: 404, ms: 0.5 }, 'request');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/GET \/api\/v1\/model\/a\/b 429 1\.2ms scenario=rate-limited\/rate-limited$/);
    expect(lines[1]).toMatch(/POST \/api\/v1\/audio\/speech 200 3\.4ms gen-tts-1-abc$/);
    expect(lines[2]).toMatch(/GET \/api\/v1\/generation 404 0\.5ms$/);
  });

  it('escapes control characters in every value, so a value from a client or an upstream forges no line and no color', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = await createLogger(true, out);
    log.info({ method: 'GET', url: '/api/v1/model/a\r\n[00:00:00.000] INFO: forged', status: 200, ms: 1 }, 'request');
    log.warn({}, 'model \u001b[31mred\u001b[0m\u009b2J\u2028id recorded');
    log.error({ where: 'proxy\n', error: 'Error: \u0007bell' }, 'unexpected error');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('/api/v1/model/a\\r\\n[00:00:00.000] INFO: forged 200 1ms');
    expect(lines[1]).toContain('model \\e[31mred\\e[0m\\x9b2J\\u2028id recorded');
    expect(lines[2]).toContain('unexpected error in proxy\\n: Error: \\x07bell');
    // No escape reaches the output (this logger writes no colors to a stream it was given).
    expect(text.includes(String.fromCharCode(0x1b))).toBe(false);
  });

  it('tells an unexpected error in one line: where it happened and what it was', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = await createLogger(true, out);
    log.error({ where: 'event listener (entry)', error: 'Error: listener bug' }, 'unexpected error');
    expect(text.trim()).toMatch(/ERROR: unexpected error in event listener \(entry\): Error: listener bug$/);
  });
});

describe('request log, deferred until after the ready line', () => {
  it('holds lines until load(), then writes them in order, and the next ones at once', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = deferredLogger(() => createLogger(false, out));
    log.info({ status: 200, n: 1 }, 'request');
    log.error({ where: 'here', error: 'Error: e' }, 'unexpected error');
    expect(text).toBe('');
    await log.load();
    log.info({ status: 201, n: 3 }, 'request');
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.level, line.msg, line.n ?? line.where])).toEqual([
      [30, 'request', 1],
      [50, 'unexpected error', 'here'],
      [30, 'request', 3],
    ]);
  });

  it(`keeps at most ${MAX_DEFERRED_LINES} lines before load(), and says how many it did not keep`, async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const log = deferredLogger(() => createLogger(false, out));
    for (let n = 0; n < MAX_DEFERRED_LINES + 5; n += 1) log.info({ n }, 'request');
    await Promise.all([log.load(), log.load()]);
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(MAX_DEFERRED_LINES + 1);
    expect(lines[MAX_DEFERRED_LINES - 1]!.n).toBe(MAX_DEFERRED_LINES - 1);
    expect(lines.at(-1)).toMatchObject({ level: 40, dropped: 5 });
  });

  it('rejects load() as its logger does; lines before and after it are dropped without an error', async () => {
    const log = deferredLogger(() => Promise.reject(new Error('no pino')));
    log.info({}, 'request');
    await expect(log.load()).rejects.toThrow('no pino');
    log.info({}, 'request');
  });
});

describe('request log, bodies that end early', () => {
  it('logs one line for a cut body (closed_early) and one for a reset (status 0), as for any request', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const server = await startServer({ port: 0, logger: await createLogger(false, out) });
    try {
      const speech = (scenario: string) =>
        rawHttp(`${server.baseUrl}/audio/speech`, {
          method: 'POST',
          headers: { ...auth(), 'content-type': 'application/json', 'x-mock-scenario': scenario },
          body: JSON.stringify({ model: TTS, input: 'Cut me short.', voice: 'alloy', response_format: 'pcm' }),
        }).then(
          () => 'answered',
          () => 'failed',
        );
      expect(await speech('truncated-audio')).toBe('failed');
      expect(await speech('connection-reset')).toBe('failed');
      const complete = await fetch(`${server.baseUrl}/models/count`, { headers: auth() });
      await complete.arrayBuffer();
      while (text.split('\n').filter(Boolean).length < 3) await once(out, 'data');
      const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const speechLines = lines.filter((line) => line.url === '/api/v1/audio/speech');
      expect(speechLines).toHaveLength(2);
      expect(speechLines).toContainEqual(expect.objectContaining({ status: 200, closed_early: true, scenario: expect.stringMatching(/^truncated-audio\//) }));
      expect(speechLines).toContainEqual(expect.objectContaining({ status: 0, closed_early: true }));
      expect(lines).toContainEqual(expect.objectContaining({ url: '/api/v1/models/count', status: 200 }));
      expect(lines.find((line) => line.url === '/api/v1/models/count')).not.toHaveProperty('closed_early');
    } finally {
      await server.close();
    }
  });
});

describe('request log, unexpected errors', () => {
  it('a listener that throws is logged once per event, as an error line, and the request is answered', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const server = await startServer({ port: 0, logger: await createLogger(false, out) });
    try {
      server.gateway.events.subscribe((event) => {
        if (event.type === 'entry') throw new Error('listener bug');
      });
      const response = await fetch(`${server.baseUrl}/models/count`, { headers: auth() });
      expect(response.status).toBe(200);
      while (text.split('\n').filter(Boolean).length < 2) await once(out, 'data');
      const lines = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const errors = lines.filter((line) => line.msg === 'unexpected error');
      expect(errors).toEqual([expect.objectContaining({ level: 50, where: 'event listener (entry)', error: 'Error: listener bug' })]);
    } finally {
      await server.close();
    }
  });
});

describe('request log, credentials', () => {
  it('shows no admin token (right or wrong) and no key given in the query; the rest of the URL as sent', async () => {
    const TOKEN = 'admin-token-4f7c2a9e51';
    const WRONG = 'wrong-guess-83b1d0c7e2';
    const KEY = 'sk-or-v1-query-key-9d3e';
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const server = await startServer({ port: 0, adminToken: TOKEN, logger: await createLogger(false, out) });
    const answers: string[] = [];
    try {
      for (const path of [`/__mock/ui?token=${TOKEN}`, `/__mock/requests?x=1&token=${WRONG}`, `/__mock/ui?Token=${WRONG}`]) {
        const res = await rawHttp(`${server.url}${path}`);
        answers.push(JSON.stringify(res));
      }
      const api = await rawHttp(`${server.baseUrl}/models?key=${KEY}&api_key=${KEY}&access_token=${KEY}&apikey=${KEY}&output_modalities=text`, { headers: auth() });
      answers.push(JSON.stringify(api));
      // The line of the last request is written once its response has ended: wait for the four.
      while (text.split('\n').filter(Boolean).length < 4) await once(out, 'data');
    } finally {
      await server.close();
    }
    const urls = text.trim().split('\n').map((line) => (JSON.parse(line) as { url: string }).url);
    expect(urls).toEqual([
      '/__mock/ui?token=[redacted]',
      '/__mock/requests?x=1&token=[redacted]',
      '/__mock/ui?Token=[redacted]',
      '/api/v1/models?key=[redacted]&api_key=[redacted]&access_token=[redacted]&apikey=[redacted]&output_modalities=text',
    ]);
    for (const secret of [TOKEN, WRONG, KEY]) {
      expect(text).not.toContain(secret);
      // Nor in any answer (a wrong guess's 401 envelope does not repeat it; the login's 303 does not carry it).
      for (const answer of answers) expect(answer).not.toContain(secret);
    }
  });
});
