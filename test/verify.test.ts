/**
 * `mockrouter verify`, the drift check, offline: the "real gateway" is another mockrouter (the standalone
 * server), or a stand-in in front of one that rewrites the model lookup's answers. The engine through
 * `verifyGateway`, the command through its action in a child process (as built in `dist/`) for the exit codes,
 * and the shape rules as functions.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { verifyGateway, textReport, type VerifyReport } from '../src/verify/index.js';
import { compareShapes } from '../src/verify/compare-shapes.js';
import { addToShape, emptyShape } from '../src/verify/shape.js';
import { contentTypeOf, generationIdFormat } from '../src/verify/headers.js';
import { apiBaseOf } from '../src/verify/sides.js';
import { freePort } from './support/free-port.js';
import { TTS } from './support/speech-model.js';
import { listenLocally, type LocalServer } from './support/local-server.js';

/** The key the tests hand to verify; it must never be printed. */
const KEY = 'sk-or-v1-verify-secret-7f3a9c2e51';
/** The command's module as built in `dist/` (`npm test` builds first, as for the CLI's other tests), run in the child. */
const COMMAND_MODULE = new URL('../dist/cli/verify-command.js', import.meta.url).pathname;
/** The child's program: the `verify` command's action with the arguments after `--`. */
const CHILD_PROGRAM = `
const { verifyCommand } = await import(${JSON.stringify(COMMAND_MODULE)});
await verifyCommand().parseAsync(process.argv.slice(1), { from: 'user' });
`;
/** Upper bound for a test that runs whole checks or child processes (several; each compiles the sources first). */
const SLOW_TEST_MS = 180_000;
/** Upper bound for one child run (a whole check is a few dozen requests). */
const RUN_WITHIN_MS = 60_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `mockrouter verify <args>` (the build in `dist/`) with `env` added (and `OPENROUTER_API_KEY` removed unless given). */
async function runVerify(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  if (!('OPENROUTER_API_KEY' in env)) delete childEnv['OPENROUTER_API_KEY'];
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD_PROGRAM, '--', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_WITHIN_MS);
  // 'close', not 'exit': the output streams are read to their end.
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The key must appear nowhere the command wrote. */
function expectNoKey(run: Run): void {
  expect(run.stdout).not.toContain(KEY);
  expect(run.stderr).not.toContain(KEY);
}

/** What the stand-in does to a model lookup's `data`. */
type Rewrite = (data: Record<string, unknown>) => void;

/** The three changes the drift test expects named: a renamed field, a new one, a changed type. */
const DRIFTED: Rewrite = (data) => {
  data['context_window'] = data['context_length'];
  delete data['context_length'];
  data['new_field'] = 1;
  data['created'] = String(data['created']);
};

/** What the stand-in does to the headers of an answer to `path` (lower-case names). */
type HeaderRewrite = (path: string, headers: Record<string, string | string[] | undefined>) => void;

/**
 * A stand-in upstream: forwards every request to `target` (a mockrouter) and answers what it answers, except the
 * model lookup's JSON 200s (`GET /api/v1/model/...`), whose `data` it passes through `rewrite`, and every answer's
 * headers, which it passes through `rewriteHeaders`.
 */
async function startStandIn(target: RunningServer, rewrite: Rewrite, rewriteHeaders: HeaderRewrite = () => {}, rewriteSpeechModels: (json: { data: unknown }) => void = () => {}): Promise<LocalServer> {
  const server: Server = createServer((request, response) => {
    const forwarded = httpRequest(
      { host: '127.0.0.1', port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          if (request.url!.startsWith('/api/v1/model/') && answer.statusCode === 200) {
            const json = JSON.parse(body.toString('utf8')) as { data: Record<string, unknown> };
            rewrite(json.data);
            body = Buffer.from(JSON.stringify(json));
          }
          if (request.url!.startsWith('/api/v1/audio/speech/models') && answer.statusCode === 200) {
            const json = JSON.parse(body.toString('utf8')) as { data: unknown };
            rewriteSpeechModels(json);
            body = Buffer.from(JSON.stringify(json));
          }
          rewriteHeaders(request.url!, headers);
          delete headers['transfer-encoding'];
          headers['content-length'] = String(body.length);
          response.writeHead(answer.statusCode!, headers).end(body);
        });
      },
    );
    request.pipe(forwarded);
  });
  return listenLocally(server);
}

describe('the shape rules', () => {
  const shapeOf = (...values: unknown[]) => {
    const shape = emptyShape();
    for (const value of values) addToShape(shape, value);
    return shape;
  };

  it('names a field one side lacks once, at its highest path, and compares arrays by the union of their elements', () => {
    const upstream = shapeOf({ data: [{ id: 'a', extra: { x: 1 } }, { id: 'b', pricing: { prompt: '0' } }] });
    const mockrouter = shapeOf({ data: [{ id: 'a', pricing: { prompt: 0 } }] });
    expect(compareShapes(upstream, mockrouter)).toEqual([
      { path: 'data[].extra', kind: 'field', upstream: 'object', mockrouter: 'absent' },
      { path: 'data[].pricing', kind: 'required', upstream: 'on 1 of 2 objects', mockrouter: 'on every object (1)' },
      { path: 'data[].pricing.prompt', kind: 'type', upstream: 'string', mockrouter: 'integer' },
    ]);
  });

  it('takes integer and number as one type, and null only where the other side never has null', () => {
    // x: sometimes null on both sides; w: only null on one side, sometimes on the other: both agree.
    const a = shapeOf({ n: 1, x: null, y: 'a', z: null, w: null }, { n: 0.5, x: 'b', y: 'c', z: null, w: null });
    const b = shapeOf({ n: 2, x: null, y: null, z: 'd', w: 'e' }, { n: 3, x: 'f', y: 'g', z: 'h', w: null });
    expect(compareShapes(a, b)).toEqual([
      { path: 'y', kind: 'null', upstream: 'string', mockrouter: 'null|string' },
      { path: 'z', kind: 'null', upstream: 'null', mockrouter: 'string' },
    ]);
  });

  it('pairs a field gone and a new one of the same types under the same parent as one rename', () => {
    // One gone, one new: a rename, at the place of the first of the two, whatever the names.
    expect(compareShapes(shapeOf({ data: { id: 'a', size: 1 } }), shapeOf({ data: { id: 'a', length: 1 } }))).toEqual([
      { path: 'data.size', kind: 'renamed', upstream: 'integer', mockrouter: 'integer', from: 'data.length' },
    ]);
    // Under an array's elements, and for an object (what is under it is not compared).
    expect(compareShapes(shapeOf({ data: [{ prices: { a: 1 } }] }), shapeOf({ data: [{ pricing: { a: '1' } }] }))).toEqual([
      { path: 'data[].prices', kind: 'renamed', upstream: 'object', mockrouter: 'object', from: 'data[].pricing' },
    ]);
    // Several new fields of that type: the one sharing a word of the gone one's name; the others stay new.
    expect(compareShapes(shapeOf({ data: { contextWindow: 1, new_field: 2 } }), shapeOf({ data: { context_length: 1 } }))).toEqual([
      { path: 'data.contextWindow', kind: 'renamed', upstream: 'integer', mockrouter: 'integer', from: 'data.context_length' },
      { path: 'data.new_field', kind: 'field', upstream: 'integer', mockrouter: 'absent' },
    ]);
  });

  it('does not pair fields of other types, of other parents, or when the names leave a choice', () => {
    // Another type: a field gone and a field new.
    expect(compareShapes(shapeOf({ a: 'x' }), shapeOf({ b: 1 }))).toEqual([
      { path: 'a', kind: 'field', upstream: 'string', mockrouter: 'absent' },
      { path: 'b', kind: 'field', upstream: 'absent', mockrouter: 'integer' },
    ]);
    // Another parent.
    expect(compareShapes(shapeOf({ x: { a: 1 }, y: {} }), shapeOf({ x: {}, y: { b: 1 } }))).toEqual([
      { path: 'x.a', kind: 'field', upstream: 'integer', mockrouter: 'absent' },
      { path: 'y.b', kind: 'field', upstream: 'absent', mockrouter: 'integer' },
    ]);
    // Two gone and two new sharing no word, or a word shared by both gone ones: no rename is certain.
    expect(compareShapes(shapeOf({ c: 1, d: 2 }), shapeOf({ a: 1, b: 2 })).map((d) => d.kind)).toEqual(['field', 'field', 'field', 'field']);
    expect(compareShapes(shapeOf({ max_tokens: 1, other: 2 }), shapeOf({ max_length: 1, max_size: 2 })).map((d) => d.kind)).toEqual(['field', 'field', 'field', 'field']);
  });

  it('reports enum values one side uses and the other never does, only for the listed enum fields', () => {
    const a = shapeOf({ data: { endpoints: [{ quantization: 'fp8', status: 0, tag: 'x' }] } });
    const b = shapeOf({ data: { endpoints: [{ quantization: 'unknown', status: 0, tag: 'y' }] } });
    expect(compareShapes(a, b)).toEqual([
      { path: 'data.endpoints[].quantization', kind: 'enum', upstream: 'uses "fp8"', mockrouter: 'never (uses "unknown")' },
      { path: 'data.endpoints[].quantization', kind: 'enum', upstream: 'never (uses "fp8")', mockrouter: 'uses "unknown"' },
    ]);
  });

  it('reads headers as clients do, and the upstream URL as an API base', () => {
    expect(generationIdFormat('gen-tts-1795568241-sD6nb04CYgypb8Nq8qNF')).toBe('gen-tts-<10 digits>-<20 alphanumerics>');
    expect(contentTypeOf('application/json; charset=utf-8')).toBe('application/json');
    expect(contentTypeOf('audio/pcm; rate=24000; channels=1')).toBe('audio/pcm;rate=24000;channels=1');
    expect(apiBaseOf('https://openrouter.ai').href).toBe('https://openrouter.ai/api/v1');
    expect(apiBaseOf('https://openrouter.ai/api/v1/').href).toBe('https://openrouter.ai/api/v1');
    expect(apiBaseOf('http://proxy:8080/or').href).toBe('http://proxy:8080/or/api/v1');
    expect(apiBaseOf('http://proxy:8080/or/api/v1').href).toBe('http://proxy:8080/or/api/v1');
  });

  it('refuses an upstream URL as mockrouter record does: no http(s), credentials, a query or a fragment', () => {
    const refusal = (text: string): unknown => {
      try {
        apiBaseOf(text);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refusal('openrouter.ai')).toMatchObject({ code: 'E_VERIFY_UPSTREAM_URL', message: expect.stringMatching(/^--upstream: expected an http or https URL/) });
    expect(refusal('ftp://example.com')).toMatchObject({ code: 'E_VERIFY_UPSTREAM_URL', message: expect.stringMatching(/the scheme "ftp:"/) });
    expect(refusal('https://user:secret@example.com')).toMatchObject({ code: 'E_VERIFY_UPSTREAM_URL', message: expect.stringMatching(/no user name or password/) });
    expect((refusal('https://user:secret@example.com') as Error).message).not.toContain('secret');
    expect(refusal('https://openrouter.ai/?via=proxy')).toMatchObject({ code: 'E_VERIFY_UPSTREAM_URL', message: expect.stringMatching(/no query or fragment/) });
    expect(refusal('https://openrouter.ai/#top')).toMatchObject({ code: 'E_VERIFY_UPSTREAM_URL', message: expect.stringMatching(/no query or fragment/) });
  });
});

describe('verify against another mockrouter', () => {
  let real: RunningServer;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  let refusing: RunningServer;
  beforeAll(async () => {
    real = await startServer({ port: 0, seed: 7 });
    standIn = await startStandIn(real, DRIFTED);
    refusing = await startServer({ port: 0, keys: ['sk-other'] });
  }, SLOW_TEST_MS);
  afterAll(async () => {
    await standIn?.close();
    await real?.close();
    await refusing?.close();
  }, SLOW_TEST_MS);

  it('finds no drift against a matching gateway, with and without --spend', async () => {
    const reads = await verifyGateway({ upstream: real.url, apiKey: KEY });
    expect(reads.differences).toEqual([]);
    expect(reads.drift).toBe(false);
    expect(reads.error).toBeNull();
    const list = await fetch(`${real.url}/api/v1/models?output_modalities=speech`, { headers: { authorization: `Bearer ${KEY}` } });
    const speechModels = ((await list.json()) as { data: unknown[] }).data.length;
    expect(speechModels).toBeGreaterThan(0);
    expect(reads.probes.map((probe) => probe.probe)).toEqual([
      'models', 'models-count', ...Array(speechModels).fill('model'), ...Array(speechModels).fill('endpoints'),
      'speech-models', ...Array(speechModels).fill('speech-model'), 'key', 'credits',
    ]);
    expect(reads.probes.every((probe) => probe.compared && probe.upstream === 200 && probe.mockrouter === 200)).toBe(true);
    // Nothing that costs credit was sent without --spend.
    expect(real.gateway.journal.list().some((entry) => entry.operation === 'speech' || entry.operation === 'generation')).toBe(false);

    const spent: VerifyReport = await verifyGateway({ upstream: real.url, apiKey: KEY, spend: true });
    expect(spent.differences).toEqual([]);
    expect(spent.probes.filter((probe) => (probe.probe === 'speech-mp3' || probe.probe === 'speech-pcm' || probe.probe === 'generation')).map((probe) => [probe.probe, probe.upstream, probe.mockrouter])).toEqual([
      ['speech-mp3', 200, 200],
      ['generation', 200, 200],
      ['speech-pcm', 200, 200],
      ['generation', 200, 200],
    ]);
    expect(spent.probes.find((probe) => probe.probe === 'transcription')).toEqual({ probe: 'transcription', request: 'POST /api/v1/audio/transcriptions (openai/whisper-1, 0.5 s WAV as base64 JSON)', upstream: 200, mockrouter: 200, compared: true });
    // The newer request shapes, each to the first model that takes it, and the same status from both sides.
    expect(spent.probes.filter((probe) => probe.probe === 'speech-shapes').map((probe) => [probe.request, probe.upstream, probe.mockrouter])).toEqual([
      ['POST /api/v1/audio/speech (google/gemini-3.1-flash-tts-preview, two turns)', 200, 200],
      ['POST /api/v1/audio/speech (fish-audio/s2.1-pro, a reference clip named @Audio1)', 200, 200],
      ['POST /api/v1/audio/speech (bytedance/seed-audio-1.0, a reference image)', 200, 200],
      ['POST /api/v1/audio/speech (openai/gpt-4o-mini-tts-2025-12-15, provider.zdr true)', 404, 404],
      ['POST /api/v1/audio/speech (openai/gpt-4o-mini-tts-2025-12-15, provider.data_collection deny)', 200, 200],
      ['POST /api/v1/audio/speech (mistralai/voxtral-mini-tts-2603, speed 1.5 on a model without speed control)', 200, 200],
    ]);
    expect(real.gateway.journal.list().filter((entry) => entry.operation === 'transcription').map((entry) => entry.transcription?.format)).toEqual(['wav']);
    expect(textReport(spent)).toMatch(/No drift/);
  }, SLOW_TEST_MS);

  it('compares /credits only when the upstream answers 200 (a key that is no management key gets 403 there)', async () => {
    const keyed = await startServer({ port: 0, keys: [{ key: KEY, management: false }] });
    try {
      const report = await verifyGateway({ upstream: keyed.url, apiKey: KEY });
      expect(report.differences).toEqual([]);
      expect(report.probes.find((probe) => probe.probe === 'credits')).toEqual({
        probe: 'credits',
        request: 'GET /api/v1/credits',
        upstream: 403,
        mockrouter: null,
        compared: false,
        note: 'upstream 403: only a management key may read credits; compared only when the upstream answers 200',
      });
    } finally {
      await keyed.close();
    }
  }, SLOW_TEST_MS);

  it('names a renamed field (one difference), a new one and a changed type of the model lookup, by path and side', async () => {
    const report = await verifyGateway({ upstream: standIn.url, apiKey: KEY });
    expect(report.drift).toBe(true);
    // Every model lookup shows them: no difference names requests, and every lookup is DRIFT.
    expect(report.differences).toEqual([
      { probe: 'model', path: 'data.context_window', kind: 'renamed', upstream: 'integer', mockrouter: 'integer', from: 'data.context_length' },
      { probe: 'model', path: 'data.created', kind: 'type', upstream: 'string', mockrouter: 'integer' },
      { probe: 'model', path: 'data.new_field', kind: 'field', upstream: 'integer', mockrouter: 'absent' },
    ]);
    const text = textReport(report);
    expect(text).toContain('    renamed upstream: data.context_length → data.context_window (integer)\n');
    const lookups = report.probes.filter((probe) => probe.probe === 'model');
    expect(text.split('\n').filter((line) => /^ {2}DRIFT model /.test(line))).toHaveLength(lookups.length);
  }, SLOW_TEST_MS);

  it('names which model lookups differ when only some do: on the difference, and DRIFT on their lines only', async () => {
    const list = await fetch(`${real.url}/api/v1/models?output_modalities=speech`, { headers: { authorization: `Bearer ${KEY}` } });
    const ids = ((await list.json()) as { data: { id: string }[] }).data.map((model) => model.id);
    expect(ids.length).toBeGreaterThan(2);
    const [odd, other] = [ids[1]!, ids[2]!];
    const oneDrifted = await startStandIn(real, (data) => {
      if (data['id'] === odd) data['extra'] = true;
      if (data['id'] === odd || data['id'] === other) data['created'] = String(data['created']);
    });
    try {
      const report = await verifyGateway({ upstream: oneDrifted.url, apiKey: KEY });
      const lookup = (id: string) => `GET /api/v1/model/${id}`;
      expect(report.differences).toEqual([
        { probe: 'model', path: 'data.created', kind: 'type', upstream: 'integer|string', mockrouter: 'integer', requests: [lookup(odd), lookup(other)] },
        { probe: 'model', path: 'data.extra', kind: 'field', upstream: 'boolean', mockrouter: 'absent', requests: [lookup(odd)] },
      ]);
      const text = textReport(report);
      expect(text).toContain(`    only upstream has data.extra (boolean) [${lookup(odd)}]\n`);
      expect(text).toContain(`    data.created: upstream: integer|string, mockrouter: integer (type) [${lookup(odd)}, ${lookup(other)}]\n`);
      const marks = text.split('\n').filter((line) => / model {9}GET /.test(line));
      expect(marks).toHaveLength(ids.length);
      expect(marks.filter((line) => line.startsWith('  DRIFT')).map((line) => line.split(' ').find((word) => word.startsWith('/api/')))).toEqual([`/api/v1/model/${odd}`, `/api/v1/model/${other}`]);
      expect(marks.filter((line) => line.startsWith('  ok'))).toHaveLength(ids.length - 2);
      expect(marks).toContain(`  DRIFT model         ${lookup(odd)}  upstream 200, mockrouter 200 (2 differences)`);
      expect(marks).toContain(`  DRIFT model         ${lookup(other)}  upstream 200, mockrouter 200 (1 difference)`);
    } finally {
      await oneDrifted.close();
    }
  }, SLOW_TEST_MS);

  it('names a renamed or retyped speech parameter of the speech model discovery reads by its JSON path', async () => {
    type Parameters = Record<string, Record<string, unknown>>;
    const drifted = await startStandIn(real, () => {}, () => {}, (json) => {
      for (const model of [json.data].flat() as { output_modalities: { supported_parameters: Parameters }[] }[]) {
        const parameters = model.output_modalities[0]!.supported_parameters;
        parameters['format'] = parameters['response_format']!; // renamed
        delete parameters['response_format'];
        if (parameters['voice']?.['type'] === 'enum') parameters['voice']['type'] = 'list'; // a kind of another name
      }
    });
    try {
      const report = await verifyGateway({ upstream: drifted.url, apiKey: KEY });
      expect(report.drift).toBe(true);
      const found = report.differences.filter((d) => d.probe === 'speech-models' || d.probe === 'speech-model').map((d) => [d.probe, d.path, d.kind]);
      for (const [probe, root] of [['speech-models', 'data[]'], ['speech-model', 'data']] as const) {
        // Renamed: one difference, from the old path to the new.
        expect(report.differences).toContainEqual(expect.objectContaining({ probe, path: `${root}.output_modalities[].supported_parameters.format`, kind: 'renamed', from: `${root}.output_modalities[].supported_parameters.response_format` }));
        expect(found).not.toContainEqual([probe, `${root}.output_modalities[].supported_parameters.response_format`, 'field']);
        expect(found).toContainEqual([probe, `${root}.output_modalities[].supported_parameters.voice.type`, expect.any(String)]);
      }
    } finally {
      await drifted.close();
    }
  }, SLOW_TEST_MS);

  it('names a transcription the upstream answers otherwise (a status of its own)', async () => {
    const down = await startServer({ port: 0, seed: 7, scenarios: [{ name: 'stt-down', rules: [{ match: { operation: 'transcription' }, error: { status: 503, message: 'No transcription provider is available' } }] }], scenario: 'stt-down' });
    try {
      const report = await verifyGateway({ upstream: down.url, apiKey: KEY, spend: true });
      expect(report.differences).toEqual([
        { probe: 'transcription', request: 'POST /api/v1/audio/transcriptions (openai/whisper-1, 0.5 s WAV as base64 JSON)', path: 'status', kind: 'status', upstream: '503', mockrouter: '200' },
      ]);
    } finally {
      await down.close();
    }
  }, SLOW_TEST_MS);

  it('names the headers clients read when they differ: Content-Type and the format of X-Generation-Id', async () => {
    const headersDrift = await startStandIn(real, () => {}, (path, headers) => {
      if (path !== '/api/v1/audio/speech') return;
      headers['x-generation-id'] = 'gen-1234';
      if (headers['content-type'] === 'audio/mpeg') headers['content-type'] = 'audio/mp3';
    });
    try {
      // The rewritten ids are no generation's: their lookups answer 404 upstream, asked once (no wait).
      const report = await verifyGateway({ upstream: headersDrift.url, apiKey: KEY, spend: true, generationWaitMs: 0 });
      const model = TTS;
      // The newer shapes' 200s carry the rewritten id too (their 404 envelopes carry none).
      const shapes = report.differences.filter((difference) => difference.probe === 'speech-shapes');
      expect(shapes.length).toBeGreaterThan(0);
      expect(shapes.every((difference) => difference.path === 'header X-Generation-Id')).toBe(true);
      expect(report.differences.filter((difference) => difference.probe !== 'speech-shapes')).toEqual([
        { probe: 'speech-mp3', request: `POST /api/v1/audio/speech (${model}, voice alloy, mp3)`, path: 'header Content-Type', kind: 'header', upstream: 'audio/mp3', mockrouter: 'audio/mpeg' },
        { probe: 'speech-mp3', request: `POST /api/v1/audio/speech (${model}, voice alloy, mp3)`, path: 'header X-Generation-Id', kind: 'header', upstream: 'gen-<4 digits>', mockrouter: 'gen-tts-<10 digits>-<20 alphanumerics>' },
        { probe: 'generation', request: "GET /api/v1/generation?id=<the mp3 call's X-Generation-Id>", path: 'status', kind: 'status', upstream: '404', mockrouter: '200' },
        { probe: 'speech-pcm', request: `POST /api/v1/audio/speech (${model}, voice alloy, pcm)`, path: 'header X-Generation-Id', kind: 'header', upstream: 'gen-<4 digits>', mockrouter: 'gen-tts-<10 digits>-<20 alphanumerics>' },
        { probe: 'generation', request: "GET /api/v1/generation?id=<the pcm call's X-Generation-Id>", path: 'status', kind: 'status', upstream: '404', mockrouter: '200' },
      ]);
    } finally {
      await headersDrift.close();
    }
  }, SLOW_TEST_MS);

  it('exits 0 on no drift and 1 on drift, with the report on stdout and never the key', async () => {
    // Four runs of the command, independent of each other: side by side.
    const [same, spent, text, json] = await Promise.all([
      runVerify(['--upstream', real.url], { OPENROUTER_API_KEY: KEY }),
      runVerify(['--upstream', `${real.url}/api/v1`, '--spend', '--json'], { OPENROUTER_API_KEY: KEY }),
      runVerify(['--upstream', standIn.url], { OPENROUTER_API_KEY: KEY }),
      runVerify(['--upstream', standIn.url, '--json'], { OPENROUTER_API_KEY: KEY }),
    ]);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/No drift/);
    expectNoKey(same);

    expect(spent.code).toBe(0);
    expect(JSON.parse(spent.stdout)).toMatchObject({ drift: false, spend: true, differences: [] });
    expectNoKey(spent);

    expect(text.code).toBe(1);
    expect(text.stdout).toContain('renamed upstream: data.context_length → data.context_window (integer)');
    expect(text.stdout).toContain('only upstream has data.new_field');
    expect(text.stdout).toContain('data.created: upstream: string, mockrouter: integer');
    expectNoKey(text);

    expect(json.code).toBe(1);
    const document = JSON.parse(json.stdout) as VerifyReport;
    expect(document.drift).toBe(true);
    expect(document.differences.map((d) => [d.probe, d.path, d.kind, d.upstream, d.mockrouter, d.from])).toEqual([
      ['model', 'data.context_window', 'renamed', 'integer', 'integer', 'data.context_length'],
      ['model', 'data.created', 'type', 'string', 'integer', undefined],
      ['model', 'data.new_field', 'field', 'integer', 'absent', undefined],
    ]);
    expectNoKey(json);
  }, SLOW_TEST_MS);

  it('exits 2 when it cannot run: an unreachable upstream (named), a 401, no key, a bad flag', async () => {
    const port = await freePort();
    // Four runs of the command, independent of each other: side by side.
    const [unreachable, refused, noKey, noUpstream] = await Promise.all([
      runVerify(['--upstream', `http://127.0.0.1:${port}`], { OPENROUTER_API_KEY: KEY }),
      runVerify(['--upstream', refusing.url, '--json'], { OPENROUTER_API_KEY: KEY }),
      runVerify(['--upstream', real.url]),
      runVerify([], { OPENROUTER_API_KEY: KEY }),
    ]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(`cannot reach the upstream http://127.0.0.1:${port}/api/v1`);
    expect(unreachable.stdout).toBe('');
    expectNoKey(unreachable);

    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/answered 401 to GET .*\/api\/v1\/models: the key in OPENROUTER_API_KEY was refused/);
    // With --json, one document still, saying why: what a CI job keeps as its report.
    expect(JSON.parse(refused.stdout)).toEqual({
      drift: null,
      upstream: refusing.url,
      spend: false,
      probes: [],
      differences: [],
      error: { probe: null, request: null, code: 'E_VERIFY_UNAUTHORIZED', message: expect.stringMatching(/answered 401 to GET .*: the key in OPENROUTER_API_KEY was refused$/) },
    });
    expectNoKey(refused);

    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/OPENROUTER_API_KEY is not set/);

    expect(noUpstream.code).toBe(2);
    expect(noUpstream.stderr).toMatch(/--upstream/);
    expectNoKey(noUpstream);
  }, SLOW_TEST_MS);
});
