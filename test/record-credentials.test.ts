/**
 * The client's key never reaches the recorded folder, in any form: `holdsCredential` (`src/recorder/credential-forms.ts`)
 * finds it as sent, in another case, base64 (both alphabets, every alignment), hex, percent-encoded and escaped;
 * `mockrouter record` asks it of every value it writes (decoded JSON strings at any depth, the kept headers, the
 * audio index's fields and bytes, the scenario's values) and drops the recording that holds it, with a warning that
 * names neither the key nor the value.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anyHoldsCredential, holdsCredential } from '../src/recorder/credential-forms.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { killRecordClis, startRecordCli } from './support/record-cli.js';
import { jsonAnswer, rawAnswer, startRawUpstream } from './support/raw-upstream.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

// A recorder a failed test left running stops with the file.
afterAll(killRecordClis);

/** A key whose base64 holds both `+` and `/` (its URL-safe form differs). */
const KEY = 'sk-or-v1-~~~???-0123456789abcdef';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
/** Every byte percent-encoded. */
const percentAll = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
const unicodeEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('holdsCredential', () => {
  it('finds the key as sent and case-folded', () => {
    expect(holdsCredential(`token=${KEY};`, KEY)).toBe(true);
    expect(holdsCredential(`TOKEN=${KEY.toUpperCase()}`, KEY)).toBe(true);
    expect(holdsCredential(KEY.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)), KEY)).toBe(true);
  });

  it('finds its base64, standard and URL-safe, at each of the three alignments inside a longer text', () => {
    expect(base64(KEY)).toMatch(/[+/]/);
    for (const before of ['', 'a', 'ab', 'abc', 'Bearer ']) {
      for (const encode of [base64, base64url]) {
        const text = `prefix ${encode(`${before}${KEY}${'z'.repeat(before.length)}`)} suffix`;
        expect(holdsCredential(text, KEY), `${encode.name} after "${before}"`).toBe(true);
      }
    }
    // Broken over lines, as MIME base64 is.
    expect(holdsCredential(base64(`x${KEY}`).replace(/(.{8})/g, '$1\r\n'), KEY)).toBe(true);
  });

  it('finds it hex-encoded, percent-encoded (partly, wholly, twice) and escaped', () => {
    expect(holdsCredential(Buffer.from(KEY).toString('hex'), KEY)).toBe(true);
    expect(holdsCredential(Buffer.from(KEY).toString('hex').toUpperCase(), KEY)).toBe(true);
    expect(holdsCredential(`q=${encodeURIComponent(KEY)}`, KEY)).toBe(true);
    expect(holdsCredential(`q=${percentAll(KEY)}`, KEY)).toBe(true);
    expect(holdsCredential(`q=${percentAll(KEY).toLowerCase()}`, KEY)).toBe(true);
    expect(holdsCredential(`q=${percentAll(KEY).replace(/%/g, '%25')}`, KEY)).toBe(true);
    expect(holdsCredential(unicodeEscaped(KEY), KEY)).toBe(true);
    expect(holdsCredential(unicodeEscaped(KEY).toUpperCase().replace(/\\U/g, '\\u'), KEY)).toBe(true);
    expect(holdsCredential([...KEY].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join(''), KEY)).toBe(true);
    expect(holdsCredential([...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(''), KEY)).toBe(true);
    expect(holdsCredential([...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join(''), KEY)).toBe(true);
  });

  it('finds nothing in text that does not hold it', () => {
    const other = `${KEY.slice(0, -1)}X`;
    for (const text of ['', 'an ordinary message', other, base64(other), percentAll(other), KEY.slice(1), base64(KEY).slice(2, 10)]) {
      expect(holdsCredential(text, KEY), text).toBe(false);
    }
    expect(holdsCredential('anything', '')).toBe(false);
  });
});

describe('anyHoldsCredential', () => {
  it('searches every string of a value, names included, at any depth, without recursion', () => {
    let deep: unknown = { note: KEY.toUpperCase() };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(anyHoldsCredential(deep, [KEY])).toBe(true);
    expect(anyHoldsCredential({ [base64(KEY)]: 1 }, [KEY])).toBe(true);
    expect(anyHoldsCredential({ a: [1, null, true, 'clean'] }, [KEY])).toBe(false);
  });

  it('does not join two strings into a match, and skips credentials under 8 characters', () => {
    expect(anyHoldsCredential([KEY.slice(0, 10), KEY.slice(10)], [KEY])).toBe(false);
    expect(anyHoldsCredential('a short key: sk-abc', ['sk-abc'])).toBe(false);
  });
});

describe('mockrouter record, an upstream echoing the key', () => {
  const out = mkdtempSync(join(tmpdir(), 'mockrouter-record-keys-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const fixtures = loadFixtures();
  const template = fixtures.models.find((m) => !m.architecture.output_modalities.includes('speech'))!;
  const model = (id: string, extra: Record<string, unknown> = {}) => ({ ...template, id, canonical_slug: id, links: { details: `/api/v1/models/${id}/endpoints` }, ...extra });
  const envelope = (status: number, message: string) => ({ error: { code: status, message, metadata: null } });

  /** What the upstream answers, by path; each but `clean` holds the key in one form. */
  const ANSWERS: Record<string, Buffer> = {
    '/api/v1/model/echo/upper': jsonAnswer(200, { data: model('echo/upper', { description: `key ${KEY.toUpperCase()}` }) }),
    '/api/v1/model/echo/base64': jsonAnswer(200, { data: model('echo/base64', { name: `Token ${base64(`a${KEY}`)}` }) }),
    '/api/v1/model/echo/base64url': jsonAnswer(200, { data: model('echo/base64url', { name: `Token ${base64url(`ab${KEY}`)}` }) }),
    '/api/v1/model/echo/url': jsonAnswer(200, { data: model('echo/url', { links: { details: `/api/v1/models/echo/url/endpoints?k=${percentAll(KEY)}` } }) }),
    '/api/v1/model/echo/hex': jsonAnswer(200, { data: model('echo/hex', { architecture: { ...template.architecture, tokenizer: Buffer.from(KEY).toString('hex') } }) }),
    // The message escaped in the JSON text: the raw bytes never hold the key, the decoded value does.
    '/api/v1/model/echo/escaped': rawAnswer('HTTP/1.1 400 Bad Request', [['Content-Type', 'application/json']], `{"error":{"code":400,"message":"bad key ${unicodeEscaped(KEY)}","metadata":null}}`),
    '/api/v1/model/echo/retry-after': jsonAnswer(429, envelope(429, 'Rate limit exceeded'), [['Retry-After', KEY]]),
    '/api/v1/model/echo/metadata': jsonAnswer(403, { error: { code: 403, message: 'Forbidden', metadata: { a: { b: [{ c: { [`k-${base64(KEY)}`]: true } }] } } } }),
    '/api/v1/generation?id=gen-echo': jsonAnswer(200, { data: { ...fixtures.generations[0], id: 'gen-echo', provider_responses: [{ id: null, endpoint_id: null, model_permaslug: null, provider_name: null, status: 200, latency: 1, is_byok: false, note: { deep: { deeper: [`${percentAll(KEY)}`] } } }] } }),
    '/api/v1/model/clean/one': jsonAnswer(200, { data: model('clean/one') }),
  };
  /** A speech answer per input: `type` echoes the key in its Content-Type, `bytes` in its audio bytes (base64). */
  const SPEECH: Record<string, Buffer> = {
    type: rawAnswer('HTTP/1.1 200 OK', [['Content-Type', `audio/mpeg; echo=${KEY}`]], Buffer.alloc(64, 1)),
    bytes: rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.concat([Buffer.alloc(32, 7), Buffer.from(base64(`ab${KEY}`)), Buffer.alloc(32, 9)])),
    clean: rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(64, 3)),
  };
  const leaking = Object.keys(ANSWERS).filter((path) => !path.includes('clean')).length + 2;

  it('forwards every answer, writes none holding the key, and warns of each without naming it', async () => {
    const upstream = await startRawUpstream((request, socket) => {
      if (request.path.endsWith('/audio/speech')) {
        socket.end(SPEECH[(JSON.parse(request.body.toString()) as { input: string }).input]!);
      } else socket.end(ANSWERS[request.path] ?? jsonAnswer(404, envelope(404, 'Not Found')));
    });
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    try {
      const auth = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
      for (const path of Object.keys(ANSWERS)) {
        const response = await fetch(`${cli.baseUrl}${path.slice('/api/v1'.length)}`, { headers: auth });
        await response.arrayBuffer();
      }
      for (const input of Object.keys(SPEECH)) {
        const body = JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: 'mp3' });
        const response = await postSpeech(cli.baseUrl, body, auth);
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      const dropped = (line: { text: string; warn: boolean }) => line.warn && line.text.includes('holds a credential of the request');
      await cli.waitForLine((line) => line.text.includes('audio ') && line.text.includes('bytes'));
      await cli.waitForLine((line) => line.text.includes('model clean/one'));
      await cli.waitForLines(dropped, leaking);
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    // Each leaking answer warned of once; no line names the key or a value holding it.
    expect(cli.lines().filter((line) => line.warn && line.text.includes('holds a credential'))).toHaveLength(leaking);
    expect(holdsCredential(cli.output(), KEY)).toBe(false);

    // The clean recordings are written; nothing holds the key in any form.
    const models = JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')) as { models: { id: string }[] };
    expect(models.models.map((m) => m.id)).toEqual(['clean/one']);
    const index = JSON.parse(readFileSync(join(out, 'audio', 'index.json'), 'utf8')) as { recordings: { key: string }[] };
    expect(index.recordings.map((r) => (JSON.parse(r.key) as { input: string }).input)).toEqual(['clean']);
    const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).map((name) => join(out, name)).filter((path) => statSync(path).isFile());
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) expect(holdsCredential(readFileSync(file).toString('latin1'), KEY), file).toBe(false);
    expect(loadFixtures(out).models.map((m) => m.id)).toEqual(['clean/one']);
  });
});
