/**
 * The request log of the standalone server (src/server/logger.ts): on a terminal, one readable line per request
 * that names the applied scenario rule and the generation id, as the JSON lines do (test/cli.test.ts).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/server/logger.js';

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
});
