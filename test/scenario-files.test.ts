/**
 * Scenario files: user folders (YAML and JSON) load beside the built-ins in every mode; a bad file fails at
 * `createMockRouter`/`startServer` time with a `ScenarioError` naming the file, the path inside it and what was
 * expected (a value of none of a union's forms is told the forms, in every file format); `scenarios/schema.json` is
 * exactly what the generator produces; every built-in file validates.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { builtinScenariosJson, scenarioJsonSchema } from '../scripts/generate-scenario-files.js';
import { loadScenarioFile } from '../src/node-platform/scenarios.js';
import { ScenarioSchema } from '../src/core/scenarios/schema.js';
import { GenerationsFileSchema, ModelsFileSchema } from '../src/core/formats/fixture-schema.js';
import { AudioIndexSchema } from '../src/core/formats/recording-schema.js';
import { SpeechModelsListResponseSchema } from '../src/core/formats/speech-model-schema.js';
import { describeIssue } from '../src/core/base/zod-issues.js';
import { createMockRouter, ScenarioError } from '../src/index.js';
import { startServer } from '../src/server/index.js';
import { auth } from './support/modes.js';
import { errorOnUnhandled } from '../src/msw/compat.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const SCENARIOS_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'mockrouter-scenarios-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let folders = 0;
/** A fresh folder holding `files` (name → text). */
function folder(files: Record<string, string>): string {
  const dir = join(temp, `d${++folders}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const YAML_SCENARIO = `# a user scenario in YAML
name: user-yaml
description: OpenAI model lookups are unavailable.
rules:
  - name: openai-down
    match: { operation: model, model: "openai/*" }
    error:
      status: 503
      message: OpenAI is down
      headers: { Retry-After: "7" }
`;
const JSON_SCENARIO = JSON.stringify({
  name: 'user-json',
  description: 'A teapot for generation lookups.',
  rules: [{ match: { operation: 'generation' }, raw: { status: 418, content_type: 'text/plain', body: 'I am a teapot' } }],
});
const YML_SCENARIO = 'name: user-yml\nrules:\n  - match: { operation: speech }\n    error: { status: 402 }\n';

describe('user scenario folders', () => {
  const dir = folder({
    'down.yaml': YAML_SCENARIO,
    'teapot.json': JSON_SCENARIO,
    'credits.yml': YML_SCENARIO,
    'README.md': '# not a scenario',
    // A copy of the schema beside the files is not a scenario.
    'schema.json': readFileSync(join(SCENARIOS_DIR, 'schema.json'), 'utf8'),
  });

  it('load beside the built-ins in-process and apply by header', async () => {
    const mock = createMockRouter({ scenarios: dir });
    const loaded = new Map(mock.gateway.scenarios.scenarios.map(({ scenario, source }) => [scenario.name, source]));
    expect(loaded.get('user-yaml')).toBe(join(dir, 'down.yaml'));
    expect(loaded.get('user-json')).toBe(join(dir, 'teapot.json'));
    expect(loaded.get('user-yml')).toBe(join(dir, 'credits.yml'));
    expect(loaded.has('rate-limited')).toBe(true);
    expect(loaded.size).toBe(readdirSync(SCENARIOS_DIR).filter((f) => f.endsWith('.yaml')).length + 3);

    const server = setupServer(...mock.handlers);
    server.listen(errorOnUnhandled());
    try {
      const base = 'https://openrouter.ai/api/v1';
      const down = await fetch(`${base}/model/openai/gpt-4o-mini`, { headers: { ...auth(), 'X-Mock-Scenario': 'user-yaml' } });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('7');
      expect(down.headers.get('x-mock-applied')).toBe('user-yaml/openai-down');
      expect(((await down.json()) as { error: { message: string } }).error.message).toBe('OpenAI is down');
      // The prefix match leaves other authors alone.
      const other = await fetch(`${base}/model/anthropic/claude-3.5-sonnet`, { headers: { ...auth(), 'X-Mock-Scenario': 'user-yaml' } });
      expect(other.status).toBe(200);
      expect(other.headers.get('x-mock-applied')).toBeNull();
      const teapot = await fetch(`${base}/generation?id=gen-x`, { headers: { ...auth(), 'X-Mock-Scenario': 'user-json' } });
      expect(teapot.status).toBe(418);
      expect(teapot.headers.get('content-type')).toBe('text/plain');
      expect(await teapot.text()).toBe('I am a teapot');
    } finally {
      server.close();
    }
  });

  it('load in the standalone server, listed by GET /__mock/scenarios with their files', async () => {
    const server = await startServer({ port: 0, scenarios: [dir] });
    try {
      const { scenarios } = (await (await fetch(`${server.url}/__mock/scenarios`)).json()) as { scenarios: { name: string; description: string | null; rules: number; source: string }[] };
      expect(scenarios.find((s) => s.name === 'user-yaml')).toEqual({ name: 'user-yaml', description: 'OpenAI model lookups are unavailable.', rules: 1, source: join(dir, 'down.yaml') });
      expect(scenarios.find((s) => s.name === 'user-json')).toEqual({ name: 'user-json', description: 'A teapot for generation lookups.', rules: 1, source: join(dir, 'teapot.json') });
      expect(scenarios.find((s) => s.name === 'user-yml')).toMatchObject({ description: null, source: join(dir, 'credits.yml') });
      const res = await postSpeech(server.baseUrl, { model: TTS, input: 'x', voice: 'alloy' }, { ...auth(), 'X-Mock-Scenario': 'user-yml' });
      expect(res.status).toBe(402);
      expect(res.headers.get('x-mock-applied')).toBe('user-yml/rule-1');
    } finally {
      await server.close();
    }
  });

  it('a scenario file given as the default applies to every request', async () => {
    const mock = createMockRouter({ scenario: join(dir, 'teapot.json') });
    expect(mock.gateway.scenarios.defaultScenario?.name).toBe('user-json');
    // Given as a file, it does not join the registry.
    expect(mock.gateway.scenarios.scenarios.some(({ scenario }) => scenario.name === 'user-json')).toBe(false);
    const response = await mock.gateway.handle({ method: 'GET', path: '/api/v1/generation', query: 'id=gen-x', headers: { authorization: 'Bearer k' } });
    expect(response.status).toBe(418);
    expect(response.headers['X-Mock-Applied']).toBe('user-json/rule-1');
  });

  it('folders load in order; a name defined twice is an error naming both files', () => {
    const other = folder({ 'again.yaml': YAML_SCENARIO });
    expect(createMockRouter({ scenarios: [dir, folder({ 'x.yaml': 'name: user-extra\nrules:\n  - reset: true\n' })] }).gateway.scenarios.scenarios.some(({ scenario }) => scenario.name === 'user-extra')).toBe(true);
    expect(() => createMockRouter({ scenarios: [dir, other] })).toThrow(
      new ScenarioError(join(other, 'again.yaml'), 'name', `scenario "user-yaml" is already defined in ${join(dir, 'down.yaml')}`),
    );
  });
});

/** What a delay that is neither form is told. */
const DELAY_FORMS = 'expected {ms} or {min_ms, max_ms}: whole milliseconds from 0 to 600000, such as { ms: 500 }';

describe('a bad scenario file fails at startup, naming the file, the path inside it and what was expected', () => {
  /** [case, file name, text, expected `<location>: <problem>` after `<file>: `]. */
  const cases: [string, string, string, string | RegExp][] = [
    ['status out of range', 'status.yaml', 'name: bad-status\nrules:\n  - error: { status: 200 }\n', 'rules[0].error.status: Too small: expected number to be >=400'],
    ['status too big (JSON)', 'big.json', JSON.stringify({ name: 'big', rules: [{ error: { status: 700 } }] }), 'rules[0].error.status: Too big: expected number to be <=599'],
    ['no rules', 'norules.yaml', 'name: no-rules\ndescription: nothing\n', 'rules: required key is missing (expected array)'],
    ['empty rules', 'empty.yaml', 'name: empty\nrules: []\n', /^rules: Too small: expected array to have >=1 items?$/],
    ['unknown key', 'typo.yaml', 'name: typo\nrules:\n  - eror: { status: 500 }\n', 'rules[0]: Unrecognized key: "eror"'],
    ['bad name', 'name.json', JSON.stringify({ name: 'Bad Name', rules: [{ reset: true }] }), 'name: expected lower-case letters, digits, . _ or -'],
    ['two effects', 'both.yaml', 'name: both\nrules:\n  - error: { status: 500 }\n    reset: true\n', 'rules[0]: a rule takes at most one of error, raw and reset'],
    ['audio with an error', 'audio.yaml', 'name: audio\nrules:\n  - error: { status: 500 }\n    audio: { truncate: 0.5 }\n', /^rules\[0\]: audio effects apply to a successful answer/],
    ['delay range reversed', 'delay.yaml', 'name: delay\nrules:\n  - delay: { min_ms: 500, max_ms: 100 }\n', 'rules[0].delay.max_ms: max_ms must be at least min_ms'],
    // A value that is none of a union's forms: the message names the forms, not zod's `Invalid input`.
    ['delay as a number', 'delay-ms.yaml', 'name: delay-ms\nrules:\n  - error: { status: 503 }\n  - delay: 500\n', `rules[1].delay: ${DELAY_FORMS}`],
    ['delay half a range', 'delay-min.json', JSON.stringify({ name: 'delay-min', rules: [{ delay: { min_ms: 100 } }] }), `rules[0].delay: ${DELAY_FORMS}`],
    ['dribble as a number', 'dribble.yaml', 'name: dribble\nrules:\n  - audio: { dribble: 20 }\n', 'rules[0].audio.dribble: expected {chunks, over_ms} or {realtime}, such as { chunks: 20, over_ms: 5000 } or { realtime: 0.5 }'],
    ['truncate out of range', 'cut.yaml', 'name: cut\nrules:\n  - audio: { truncate: 1.5 }\n', 'rules[0].audio.truncate: Too big: expected number to be <1'],
    ['bad operation', 'op.yaml', 'name: op\nrules:\n  - match: { operation: chat }\n    reset: true\n', /^rules\[0\]\.match\.operation: .*"speech"/],
    ['JSON syntax error with a position', 'comma.json', '{\n  "name": "comma",\n  "rules": [],\n}\n', /^line 4, column 1: invalid JSON: /],
    // KNOWN BUG (src/node-platform/read-config-file.ts, parseConfigText): V8's "Unexpected token" message has no "position N",
    // so jsonErrorLocation finds no line and column and the message names no place in the file. Fails until fixed.
    ['JSON syntax error without a position in V8\'s message', 'token.json', '{\n  "name": "token",\n  "rules": [ }\n}\n', /^line 3, column 14: invalid JSON: /],
    // KNOWN BUG (src/node-platform/read-config-file.ts, parseConfigText): `parseDocument(text, { prettyErrors: false })` leaves
    // the error's `linePos` unset, so a YAML syntax error never names its line and column (the yaml package sets
    // `linePos` only when prettifying; use a `LineCounter` with `error.pos`). Fails until fixed.
    ['YAML syntax error', 'syntax.yaml', 'name: syntax\nrules:\n  - error: { status: 500\n', /^line \d+, column \d+: invalid YAML: /],
  ];

  it.for(cases)('%s (createMockRouter and startServer)', async ([, name, text, expected]) => {
    const dir = folder({ [name]: text });
    const file = join(dir, name);
    let error: unknown;
    try {
      createMockRouter({ scenarios: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    const scenarioError = error as ScenarioError;
    expect(scenarioError.file).toBe(file);
    expect(scenarioError.message.startsWith(`${file}: `), scenarioError.message).toBe(true);
    const rest = scenarioError.message.slice(file.length + 2);
    if (typeof expected === 'string') expect(rest).toBe(expected);
    else expect(rest).toMatch(expected);
    expect(scenarioError.message).not.toContain('\n');

    await expect(startServer({ port: 0, scenarios: dir })).rejects.toThrow(new ScenarioError(file, scenarioError.location, rest.slice(scenarioError.location.length + 2)));
  });

  it('a scenario named like a built-in is an error naming both files (the built-in relative to the package)', () => {
    const dir = folder({ 'mine.yaml': 'name: rate-limited\nrules:\n  - error: { status: 500 }\n' });
    expect(() => createMockRouter({ scenarios: dir })).toThrow(
      `${join(dir, 'mine.yaml')}: name: scenario "rate-limited" is already defined in scenarios/rate-limited.yaml`,
    );
  });

  it('a missing folder is an error naming it', async () => {
    const dir = join(temp, 'no-such-folder');
    expect(() => createMockRouter({ scenarios: dir })).toThrow(new ScenarioError(dir, '', 'folder not found'));
    await expect(startServer({ port: 0, scenarios: dir })).rejects.toThrow(ScenarioError);
  });

  it('a missing default scenario file is an error naming it', () => {
    const file = join(temp, 'nothing.yaml');
    expect(() => createMockRouter({ scenario: file })).toThrow(new ScenarioError(file, '', 'file not found'));
  });
});

/**
 * Every union inside `schema`, by its path (`.rules[].delay`): zod 4's definitions walked through objects' shapes,
 * arrays' elements, records' values, wrappers' inner types, pipes (a preprocess), lazy schemas (the schemas built on
 * first use) and a union's own options.
 */
function unionsOf(schema: z.ZodType, path = '', found = new Map<string, z.ZodType>()): Map<string, z.ZodType> {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const inner = (key: string, at = path) => unionsOf(def[key] as z.ZodType, at, found);
  if (def.type === 'union') {
    found.set(path, schema);
    for (const option of def.options as z.ZodType[]) unionsOf(option, path, found);
  } else if (def.type === 'object') {
    for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) unionsOf(value, `${path}.${key}`, found);
  } else if (def.type === 'array') inner('element', `${path}[]`);
  else if (def.type === 'record') inner('valueType', `${path}.*`);
  else if (def.type === 'lazy') unionsOf((def.getter as () => z.ZodType)(), path, found);
  else if (def.type === 'pipe') {
    inner('in');
    inner('out');
  }
  else if ('innerType' in def) inner('innerType');
  return found;
}

describe('the file formats tell a value that is none of a union\'s forms what the forms are', () => {
  const FORMATS = { ScenarioSchema, ModelsFileSchema, GenerationsFileSchema, AudioIndexSchema, SpeechModelsListResponseSchema };
  const unions = Object.entries(FORMATS).flatMap(([format, schema]) => [...unionsOf(schema)].map(([path, union]) => [`${format}${path}`, union] as const));

  it('finds the unions (delay, dribble, the speech model voice)', () => {
    expect(unions.map(([path]) => path)).toEqual(expect.arrayContaining(['ScenarioSchema.rules[].delay', 'ScenarioSchema.rules[].audio.dribble']));
    expect(unions.some(([path]) => path.startsWith('SpeechModelsListResponseSchema') && path.endsWith('.voice'))).toBe(true);
  });

  it.for(unions)('%s names its forms', ([, union]) => {
    for (const value of [42, 'text', {}]) {
      const issue = union.safeParse(value).error?.issues[0];
      expect(issue).toBeDefined();
      expect(describeIssue(issue!)).toMatch(/^expected \{.+\} or \{.+\}/);
    }
  });
});

describe('built-in scenario files', () => {
  it('scenarios/schema.json is exactly what scripts/generate-scenario-files.ts generates', () => {
    expect(readFileSync(join(SCENARIOS_DIR, 'schema.json'), 'utf8')).toBe(scenarioJsonSchema());
  });

  it('scenarios/builtins.json holds exactly the YAML files (npm run scenarios:generate)', () => {
    expect(readFileSync(join(SCENARIOS_DIR, 'builtins.json'), 'utf8')).toBe(builtinScenariosJson());
  });

  const files = readdirSync(SCENARIOS_DIR).filter((f) => /\.(ya?ml|json)$/.test(f) && f !== 'schema.json' && f !== 'builtins.json');

  it('are the ones the README names, plus the compound ones', () => {
    const names = files.map((f) => f.replace(/\.ya?ml$/, ''));
    for (const name of ['bad-request', 'unauthorized', 'insufficient-credits', 'not-found', 'rate-limited', 'server-error', 'bad-gateway', 'service-unavailable', 'edge-timeout', 'provider-overloaded']) {
      expect(names).toContain(name);
    }
    expect(files.length).toBeGreaterThan(10);
  });

  it.for(files)('%s validates, is named after its file, describes itself and points editors at the schema', (file) => {
    const path = join(SCENARIOS_DIR, file);
    const { scenario } = loadScenarioFile(path);
    expect(scenario.name).toBe(file.replace(/\.(ya?ml|json)$/, ''));
    expect(scenario.description).toEqual(expect.any(String));
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=./schema.json');
  });
});
