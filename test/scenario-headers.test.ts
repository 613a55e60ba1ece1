/**
 * Scenarios are checked against what HTTP can send: header names are tokens, values are tab,
 * printable ASCII or Latin-1 with no CR or LF, a `raw` status is 200–599 and its `content_type` a media type. A
 * definition that breaks one is refused where it is given (a file at start-up, naming the file and the path in it;
 * `PUT /__mock/scenario` with a 400 listing every problem; `useScenario`), never accepted to hang or crash a request
 * later. And if an answer still cannot be sent, that request alone ends (a 500 envelope) and the error is reported.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioError } from '../src/core/base/errors.js';
import { parseScenario } from '../src/core/scenarios/parse.js';
import type { ScenarioDefinition } from '../src/core/scenarios/schema.js';
import { createMockRouter } from '../src/index.js';
import { startServer } from '../src/server/index.js';
import { auth } from './support/modes.js';

const withHeaders = (headers: Record<string, string>): ScenarioDefinition => ({ name: 'bad-headers', rules: [{ error: { status: 503, headers } }] });
const withRaw = (raw: Record<string, unknown>): ScenarioDefinition => ({ name: 'bad-raw', rules: [{ raw: raw as never }] });

describe('a scenario definition', () => {
  it.each([
    ['a value past Latin-1', withHeaders({ 'X-A': '€' }), 'rules[0].error.headers["X-A"]', /Latin-1/],
    ['a value with CR LF', withHeaders({ 'X-A': 'a\r\nSet-Cookie: x=1' }), 'rules[0].error.headers["X-A"]', /no CR, LF/],
    ['a value with NUL', withHeaders({ 'X-A': 'a\u0000' }), 'rules[0].error.headers["X-A"]', /control characters/],
    ['a name with a space', withHeaders({ 'X A': 'b' }), 'rules[0].error.headers["X A"]', /key: expected a header name/],
    ['an empty name', withHeaders({ '': 'b' }), 'rules[0].error.headers[""]', /key: expected a header name/],
    ['a framing header', withHeaders({ 'Transfer-Encoding': 'chunked' }), 'rules[0].error.headers["Transfer-Encoding"]', /does not frame the body/],
    ['a raw 1xx status', withRaw({ status: 101, content_type: 'text/plain', body: '' }), 'rules[0].raw.status', />=200/],
    ['a raw content_type that is no media type', withRaw({ status: 200, content_type: 'text html', body: '' }), 'rules[0].raw.content_type', /media type/],
    ['a raw content_type with CR LF', withRaw({ status: 200, content_type: 'text/html\r\nX: y', body: '' }), 'rules[0].raw.content_type', /media type/],
  ])('with %s is refused, naming the path', (_title, definition, location, problem) => {
    let caught: unknown;
    try {
      parseScenario(definition, 'scenario');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScenarioError);
    expect((caught as ScenarioError).location).toBe(location);
    expect((caught as ScenarioError).problems[0]!.problem).toMatch(problem);
  });

  it('with headers HTTP can send is accepted: Latin-1, tab, quoted media type parameters', () => {
    expect(() => parseScenario(withHeaders({ 'X-Note': 'café\tok', 'Retry-After': '1' }))).not.toThrow();
    expect(() => parseScenario(withRaw({ status: 200, content_type: 'text/html; charset="UTF-8"', body: '<p>' }))).not.toThrow();
  });

  it('is refused by createMockRouter and useScenario, naming the option', () => {
    expect(() => createMockRouter({ scenario: withHeaders({ 'X-A': '€' }) })).toThrow(/^scenario: rules\[0\]\.error\.headers\["X-A"\]: /);
    const mock = createMockRouter();
    expect(() => mock.useScenario(withHeaders({ 'X A': '1' }))).toThrow(ScenarioError);
    expect(mock.gateway.scenarios.defaultScenario).toBeNull();
  });
});

describe('the standalone server', () => {
  it('refuses a scenario file with a bad header at start-up, naming the file and the path inside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-headers-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nrules:\n  - error: { status: 503, headers: { "X-A": "€" } }\n');
    await expect(startServer({ port: 0, scenario: file })).rejects.toThrow(`${file}: rules[0].error.headers["X-A"]: expected a header value`);
  });

  it('answers PUT /__mock/scenario with a bad definition with a 400 listing every problem, and keeps the default', async () => {
    const server = await startServer({ port: 0 });
    try {
      const definition = { name: 'bad', rules: [{ error: { status: 503, headers: { 'X-A': '€', 'X B': '1' } } }, { raw: { status: 150, content_type: 'x', body: '' } }] };
      const response = await fetch(`${server.url}/__mock/scenario`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ scenario: definition }) });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as { error: { message: string; metadata: { problems: string[] } } };
      const problems = error.metadata.problems;
      expect(error.message).toBe(problems.join('; '));
      expect(problems).toHaveLength(4);
      expect(problems[0]).toMatch(/^scenario: rules\[0\]\.error\.headers\["X-A"\]: expected a header value/);
      expect(problems.join('\n')).toContain('scenario: rules[0].error.headers["X B"]: key: expected a header name');
      expect(problems.join('\n')).toContain('scenario: rules[1].raw.status: ');
      expect(problems.join('\n')).toContain('scenario: rules[1].raw.content_type: expected a media type');
      expect(server.gateway.scenarios.defaultScenario).toBeNull();
      const speech = await fetch(`${server.baseUrl}/models/count`, { headers: auth() });
      expect(speech.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it.each([0, 20])('ends a request whose answer Node cannot send (delay %i ms) with a 500 envelope, reports it once, and lives on', async (delayMs) => {
    const reported: string[] = [];
    const delayed: ScenarioDefinition = { name: 'delayed', rules: [{ delay: { ms: delayMs } }] };
    const server = await startServer({ port: 0, onError: (error, where) => reported.push(`${where}: ${(error as Error).message}`), ...(delayMs > 0 ? { scenario: delayed } : {}) });
    try {
      const handle = server.gateway.handle;
      // What a scenario could make before sending was checked: a header value Node refuses (after a delay or not).
      server.gateway.handle = async (request) => ({ ...(await handle(request)), headers: { 'X-A': '€' } });
      const response = await fetch(`${server.baseUrl}/models/count?token=secret-in-query`, { headers: auth() });
      expect(response.status).toBe(500);
      const { error } = (await response.json()) as { error: { code: number; metadata: { reason: string } } };
      expect(error.code).toBe(500);
      expect(error.metadata.reason).toMatch(/could not be sent/);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatch(/^sending the 200 answer to GET \/api\/v1\/models\/count: /);
      expect(reported[0]).not.toContain('secret-in-query');
      server.gateway.handle = handle;
      expect((await fetch(`${server.baseUrl}/models/count`, { headers: auth() })).status).toBe(200);
      if (delayMs > 0) {
        // A delayed answer's entry is completed when it was sent: it tells the 500 the client got.
        const entry = server.gateway.journal.get(1)!;
        expect([entry.status, entry.body_end]).toEqual([500, 'complete']);
      }
    } finally {
      await server.close();
    }
  });
});
