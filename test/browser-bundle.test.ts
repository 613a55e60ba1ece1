/**
 * The browser entry (`mockrouter/browser`, `src/browser/index.ts`) as a bundler sees it: bundled for the browser
 * with esbuild (msw left out, as the app brings it), it imports no `node:` module and nothing of the package's
 * Node.js-only code (`src/node`, `src/server`, the YAML parser), and weighs at most 250 KB minified and gzipped.
 * The same gateway in Node.js and on the browser platform gives the same session, ids and audio for a seed.
 */
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createGateway as createBrowserGateway } from '../src/browser/index.js';
import { createGateway as createNodeGateway } from '../src/node-platform/create-gateway.js';
import type { CoreBody, CoreResponse } from '../src/core/base/types.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest } from './support/speech-request.js';

/** Most the bundle may weigh, minified and gzipped, bytes. */
const MAX_GZIP_BYTES = 250 * 1024;

async function bundle() {
  const result = await build({
    entryPoints: [new URL('../src/browser/index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    conditions: ['browser'],
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    external: ['msw', 'msw/*'],
    logLevel: 'silent',
  });
  const output = result.outputFiles[0]!.contents;
  const inputs = Object.keys(result.metafile.inputs);
  const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));
  return { output, inputs, imports: [...new Set(imports)] };
}

describe('the browser bundle', () => {
  it('imports only msw from outside, nothing Node.js-only, and weighs at most 250 KB gzipped', async () => {
    const { output, inputs, imports } = await bundle();
    expect(imports).toEqual(['msw']);
    expect(inputs.filter((path) => /^src\/(node|server)\/|node_modules\/(yaml|fastify|pino)\//.test(path))).toEqual([]);
    expect(inputs).toContain('fixtures/models.json');
    expect(inputs).toContain('scenarios/builtins.json');
    const gzipped = gzipSync(output).byteLength;
    console.info(`mockrouter/browser bundle: ${(output.byteLength / 1024).toFixed(1)} KiB minified, ${(gzipped / 1024).toFixed(1)} KiB gzipped (msw excluded)`);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  }, 30_000);
});

/** The whole body of a response, as bytes. */
async function bytesOf(body: CoreBody | null): Promise<Uint8Array> {
  if (body === null) return new Uint8Array(0);
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('the browser platform', () => {
  it('answers like Node.js for a seed: the same generation ids, session and MP3 bytes', async () => {
    const answers: { id: string | undefined; audio: Uint8Array; session: string | null; key: string }[] = [];
    for (const create of [createNodeGateway, createBrowserGateway]) {
      const gateway = create({ seed: 9, clock: '2026-01-02T03:04:05Z' });
      await gateway.warmUp();
      const body = { model: TTS, input: 'Same bytes everywhere.', voice: 'alloy', response_format: 'mp3' };
      const response: CoreResponse = await gateway.handle(coreSpeechRequest(body, { authorization: 'Bearer sk-same', 'content-type': 'application/json' }));
      expect(response.status).toBe(200);
      const audio = await bytesOf(response.body);
      const key = await gateway.handle({ method: 'GET', path: '/api/v1/key', query: '', headers: { authorization: 'Bearer sk-same' } });
      answers.push({ id: response.headers['X-Generation-Id'], audio, session: gateway.journal.last()?.session ?? null, key: String(key.body) });
    }
    const [node, browser] = answers;
    expect(browser!.id).toBe(node!.id);
    expect(browser!.session).toBe(node!.session);
    expect(browser!.key).toBe(node!.key);
    expect(browser!.audio.byteLength).toBeGreaterThan(1000);
    expect(Buffer.from(browser!.audio).equals(Buffer.from(node!.audio))).toBe(true);
  });

  it('refuses options that name files, naming the option', () => {
    expect(() => createBrowserGateway({ fixtures: './fixtures' as never })).toThrow(/^fixtures: "\.\/fixtures" names a file or folder, which only Node\.js can read/);
    expect(() => createBrowserGateway({ keys: 'keys.yaml' as never })).toThrow(/^keys: /);
    expect(() => createBrowserGateway({ scenarios: ['./mine'] as never })).toThrow(/^scenarios: /);
    expect(() => createBrowserGateway({ scenario: './mine.yaml' })).toThrow(/^scenario: /);
  });

  it('takes keys and scenario definitions as data', async () => {
    const gateway = createBrowserGateway({ keys: [{ key: 'sk-a', credits: 1 }], scenarios: [{ name: 'teapot', rules: [{ error: { status: 418 } }] }], scenario: 'teapot' });
    const response = await gateway.handle({ method: 'GET', path: '/api/v1/key', query: '', headers: { authorization: 'Bearer sk-a' } });
    expect(response.status).toBe(418);
    expect(gateway.scenarios.find('rate-limited')).toBeDefined();
  });
});
