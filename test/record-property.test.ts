/**
 * A property of `mockrouter record` (fast-check): whatever an upstream answers (model records of random shape and
 * depth, random headers, error bodies and generation records echoing the client's key in some form, random audio
 * bytes), what the recorder wrote loads with `--fixtures <dir>` (and its scenario with `--scenario recorded`), and
 * no file in the folder holds the key in any form. The oracle of "any form" is written here apart from
 * `holdsCredential`: plain and case-folded, base64 (both alphabets, every alignment), hex, percent-encoded,
 * `\u`-escaped.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { startRecorder } from '../src/recorder/index.js';
import { jsonAnswer, rawAnswer, startRawUpstream } from './support/raw-upstream.js';
import { TTS } from './support/speech-model.js';

const root = mkdtempSync(join(tmpdir(), 'mockrouter-record-property-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fixtures = loadFixtures();
const template = fixtures.models.find((m) => !m.architecture.output_modalities.includes('speech'))!;

/** The forms an upstream echoes a key in. */
const FORMS = ['plain', 'upper', 'base64', 'base64url', 'hex', 'percent', 'unicode-escaped'] as const;
type Form = (typeof FORMS)[number];

/** `key` in `form`, after `before` (so base64 meets every alignment). */
function echo(key: string, form: Form, before: string): string {
  const text = `${before}${key}`;
  switch (form) {
    case 'plain':
      return text;
    case 'upper':
      return text.toUpperCase();
    case 'base64':
      return Buffer.from(text).toString('base64');
    case 'base64url':
      return Buffer.from(text).toString('base64url');
    case 'hex':
      return Buffer.from(text).toString('hex');
    case 'percent':
      return [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    case 'unicode-escaped':
      // Decoded by JSON.parse when it sits in JSON text: the recorder sees the plain key.
      return [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  }
}

/** The oracle: whether `text` (a file's bytes as Latin-1) holds `key` in any of the forms above. */
function holdsKey(text: string, key: string): boolean {
  const lower = text.toLowerCase();
  const bytes = Buffer.from(key);
  const needles = [key.toLowerCase(), bytes.toString('hex'), [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''), [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')];
  if (needles.some((needle) => lower.includes(needle))) return true;
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const inner = encoded.slice(Math.ceil((4 * offset) / 3), Math.floor((4 * (offset + bytes.length)) / 3));
    if (text.includes(inner) || text.includes(inner.replace(/\+/g, '-').replace(/\//g, '_'))) return true;
  }
  return false;
}

/** A JSON text of `value` where the string `"<marker>"` is replaced by raw JSON string content `raw` (escapes kept). */
function jsonWith(value: unknown, marker: string, raw: string): string {
  return JSON.stringify(value).split(JSON.stringify(marker)).join(`"${raw}"`);
}

/** A value nested `depth` arrays deep. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const MARK = '@@echo@@';
const key = fc.stringMatching(/^sk-or-v1-[0-9A-Za-z_~-]{12,40}$/);
const leak = fc.option(fc.record({ form: fc.constantFrom(...FORMS), before: fc.constantFrom('', 'a', 'ab', 'token ') }), { nil: undefined });
const extra = fc.record({ field: fc.constantFrom('description', 'note', 'name'), junk: fc.jsonValue({ maxDepth: 4 }), depth: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 }), fc.constant(2_500)) });
const header = fc.tuple(fc.stringMatching(/^X-[A-Za-z0-9-]{1,12}$/), fc.string({ unit: 'binary-ascii', maxLength: 20 }));

/** One upstream answer, to one request. */
const exchange = fc.oneof(
  fc.record({ kind: fc.constant('model' as const), id: fc.stringMatching(/^[a-z]{1,8}\/[a-z0-9.-]{1,12}$/), extra, leak, headers: fc.array(header, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('models' as const), ids: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}\/[a-z0-9.-]{1,12}$/), { minLength: 1, maxLength: 4 }), extra, leak }),
  fc.record({ kind: fc.constant('generation' as const), id: fc.stringMatching(/^gen-[A-Za-z0-9]{1,16}$/), extra, leak }),
  fc.record({ kind: fc.constant('error' as const), status: fc.constantFrom(400, 401, 402, 404, 429, 500, 502, 503), message: fc.string({ maxLength: 40 }), metadata: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }), { nil: null }), leak, retryAfterLeaks: fc.boolean() }),
  fc.record({ kind: fc.constant('speech' as const), input: fc.string({ minLength: 1, maxLength: 30 }), bytes: fc.uint8Array({ minLength: 1, maxLength: 2_000 }), leak, typeLeaks: fc.boolean() }),
);

type Exchange = typeof exchange extends fc.Arbitrary<infer T> ? T : never;
type Extra = typeof extra extends fc.Arbitrary<infer T> ? T : never;

/** The request (path under /api/v1, POST body) for the `i`th exchange, and the bytes the upstream answers it with. */
function answerOf(k: string, x: Exchange, i: number): { path: string; body?: string; answer: Buffer } {
  const echoed = x.leak === undefined ? undefined : echo(k, x.leak.form, x.leak.before);
  const record = (id: string, e: Extra) => {
    const base = { ...template, id, canonical_slug: id, links: { details: `/api/v1/models/${id}/endpoints` } } as Record<string, unknown>;
    if (e.field === 'note') base.note = nested(e.depth, e.junk);
    else if (e.depth > 0) base.extra = nested(e.depth, e.junk);
    if (echoed !== undefined) base[e.field] = MARK;
    return base;
  };
  const json = (status: number, value: unknown, headers: [string, string][] = []) =>
    echoed === undefined ? jsonAnswer(status, value, headers) : rawAnswer(`HTTP/1.1 ${status} X`, [['Content-Type', 'application/json'], ...headers], jsonWith(value, MARK, echoed));
  switch (x.kind) {
    case 'model':
      return { path: `/model/${x.id}`, answer: json(200, { data: record(x.id, x.extra) }, x.headers) };
    case 'models':
      return { path: '/models', answer: json(200, { data: x.ids.map((id) => record(id, x.extra)) }) };
    case 'generation': {
      const data = { ...fixtures.generations[0], id: x.id, ...(x.extra.depth > 0 ? { extra: nested(x.extra.depth, x.extra.junk) } : {}), ...(echoed === undefined ? {} : { provider_name: MARK }) };
      return { path: `/generation?id=${x.id}`, answer: json(200, { data }) };
    }
    case 'error': {
      const retryAfter: [string, string][] = x.retryAfterLeaks ? [['Retry-After', echo(k, 'base64', 'a')]] : [['Retry-After', '1']];
      return { path: `/model/errors/e${i}`, answer: json(x.status, { error: { code: x.status, message: echoed === undefined ? x.message : MARK, metadata: x.metadata } }, retryAfter) };
    }
    case 'speech': {
      const bytes = echoed === undefined ? Buffer.from(x.bytes) : Buffer.concat([Buffer.from(x.bytes), Buffer.from(echoed, 'latin1')]);
      const type = x.typeLeaks ? `audio/mpeg; x=${echo(k, 'hex', '')}` : 'audio/mpeg';
      return { path: '/audio/speech', body: JSON.stringify({ model: TTS, input: `${i} ${x.input}`, voice: 'alloy', response_format: 'mp3' }), answer: rawAnswer('HTTP/1.1 200 OK', [['Content-Type', type]], bytes) };
    }
  }
}

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

describe('mockrouter record, a property over upstream answers', () => {
  it('writes only folders that load, and never the key in any form', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(key, fc.array(exchange, { minLength: 1, maxLength: 6 }), async (k, exchanges) => {
        const out = join(root, `run-${run++}`);
        const planned = exchanges.map((x, i) => answerOf(k, x, i));
        // One clean model record each run, so that recording is shown to happen.
        planned.push({ path: '/model/clean/record', answer: jsonAnswer(200, { data: { ...template, id: 'clean/record', canonical_slug: 'clean/record', links: { details: '/api/v1/models/clean/record/endpoints' } } }) });
        const byPath = new Map(planned.map((p) => [`/api/v1${p.path}${p.body ?? ''}`, p.answer]));
        const upstream = await startRawUpstream((request, socket) => socket.end(byPath.get(`${request.path}${request.method === 'POST' ? request.body.toString() : ''}`) ?? jsonAnswer(404, { error: { code: 404, message: 'no', metadata: null } })));
        const recorder = await startRecorder({ upstream: upstream.url, out, port: 0 });
        try {
          for (const p of planned) {
            const response = await fetch(`${recorder.baseUrl}${p.path}`, { method: p.body === undefined ? 'GET' : 'POST', headers: { Authorization: `Bearer ${k}`, 'Content-Type': 'application/json' }, body: p.body });
            await response.arrayBuffer();
          }
        } finally {
          await recorder.close();
          await upstream.close();
        }
        // What was written loads, as --fixtures <dir> [--scenarios <dir>/scenarios --scenario recorded] reads it.
        const loaded = loadFixtures(out);
        expect(loaded.models.map((m) => m.id)).toContain('clean/record');
        const scenarios = join(out, 'scenarios');
        const gateway = createGateway({ fixtures: out, ...(existsSync(scenarios) ? { scenarios, scenario: 'recorded' } : {}) });
        await gateway.close();
        for (const file of filesUnder(out)) expect(holdsKey(readFileSync(file).toString('latin1'), k), `${file} holds the key`).toBe(false);
        rmSync(out, { recursive: true, force: true });
      }),
      { numRuns: 150, interruptAfterTimeLimit: 45_000, markInterruptAsFailure: false },
    );
    expect(run).toBeGreaterThanOrEqual(10);
  }, 90_000);
});
