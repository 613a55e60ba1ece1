/**
 * `mockrouter record`: the recording proxy in front of a mockrouter standing in for the real gateway.
 * What the client gets through it equals what the upstream sends; what comes back is written to the folder in the
 * format of `src/core/formats/recording-schema.ts`; no key is ever written or logged; a SIGKILL mid-recording
 * leaves every earlier recording readable.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { GenerationsFileSchema, ModelsFileSchema } from '../src/core/formats/fixture-schema.js';
import { AudioIndexSchema, speechKeyOf } from '../src/core/formats/recording-schema.js';
import { parseFixtures } from '../src/core/formats/validate-fixtures.js';
import { parseScenario } from '../src/core/scenarios/parse.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { recordCommand } from '../src/cli/record-command.js';
import { startRecorder, upstreamOf, type RunningRecorder } from '../src/recorder/index.js';
import { audioFileName } from '../src/recorder/recorder.js';
import { RecordedFolder } from '../src/recorder/recorded-folder.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const KEY = 'sk-live-secret-123';
const AUTH = { Authorization: `Bearer ${KEY}` };

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** What a client sees of an answer: status, the headers clients read, the body's bytes. */
async function seen(response: Response): Promise<{ status: number; contentType: string | null; body: Buffer }> {
  return { status: response.status, contentType: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
}

/** Polls `url` (GET with the key) until it answers 200; 20 s at most. */
async function until200(url: string): Promise<Response> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await fetch(url, { headers: AUTH });
    if (response.status === 200 || Date.now() > deadline) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('mockrouter record', () => {
  let upstream: RunningServer;
  let recorder: RunningRecorder;
  let out: string;
  const logLines: string[] = [];
  const logger = {
    info: (entry: object, message?: string) => logLines.push(`${message ?? ''} ${JSON.stringify(entry)}`),
    warn: (entry: object, message?: string) => logLines.push(`${message ?? ''} ${JSON.stringify(entry)}`),
  };
  const speechBody = (response_format: 'mp3' | 'pcm') => ({ model: TTS, input: `Recorded in ${response_format}.`, voice: 'alloy', response_format });
  const received: Record<string, { body: Buffer; contentType: string | null; generationId: string | null; transferEncoding: string | null }> = {};

  beforeAll(async () => {
    upstream = await startServer({ port: 0, seed: 1, keys: [KEY], scenarios: [{ name: 'record-cut', rules: [{ match: { operation: 'speech' }, audio: { truncate: 0.5 } }] }] });
    out = mkdtempSync(join(tmpdir(), 'mockrouter-record-'));
    recorder = await startRecorder({ upstream: upstream.url, out, port: 0, logger });
  });
  afterAll(async () => {
    await recorder?.close();
    await upstream?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('answers a model lookup, the list and endpoints exactly as the upstream does', async () => {
    for (const path of ['/model/openai/gpt-4o-mini', '/model/anthropic/claude-3-5-sonnet', `/model/${TTS}`, '/models?output_modalities=all', `/models/${TTS}/endpoints`, '/models/openai/gpt-4o-mini/endpoints']) {
      const through = await seen(await fetch(`${recorder.baseUrl}${path}`, { headers: AUTH }));
      const direct = await seen(await fetch(`${upstream.baseUrl}${path}`, { headers: AUTH }));
      expect(through.status, path).toBe(200);
      expect(through).toEqual(direct);
    }
    // The official SDK through the proxy.
    const sdk = new OpenRouter({ serverURL: recorder.baseUrl, apiKey: KEY, retryConfig: { strategy: 'none' } });
    const { data } = await sdk.models.get({ author: 'openai', slug: 'gpt-4o-mini:free' });
    expect(data.id).toBe('openai/gpt-4o-mini:free');
  });

  it('streams speech through (chunked, whole) and its generation lookup', async () => {
    for (const format of ['mp3', 'pcm'] as const) {
      const response = await postSpeech(recorder.baseUrl, speechBody(format), AUTH);
      expect(response.status).toBe(200);
      const transferEncoding = response.headers.get('transfer-encoding');
      const generationId = response.headers.get('x-generation-id');
      const { body, contentType } = await seen(response);
      received[format] = { body, contentType, generationId, transferEncoding };
      expect(transferEncoding).toBe('chunked');
      expect(generationId).toMatch(/^gen-tts-\d{10}-[A-Za-z0-9]{20}$/);
      // The same request straight to the upstream (same seed): the same bytes and type.
      const direct = await seen(await postSpeech(upstream.baseUrl, speechBody(format), AUTH));
      expect(contentType).toBe(direct.contentType);
      expect(body.equals(direct.body)).toBe(true);
    }
    expect(received.mp3!.contentType).toBe('audio/mpeg');
    const id = received.pcm!.generationId!;
    const through = await until200(`${recorder.baseUrl}/generation?id=${id}`);
    const throughSeen = await seen(through);
    expect(throughSeen.status).toBe(200);
    expect(throughSeen).toEqual(await seen(await fetch(`${upstream.baseUrl}/generation?id=${id}`, { headers: AUTH })));
  });

  it('does not record an answer the upstream cut short', async () => {
    const cut = { ...speechBody('mp3'), input: 'Cut in the middle.' };
    const response = await postSpeech(recorder.baseUrl, cut, { ...AUTH, 'X-Mock-Scenario': 'record-cut' });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
    const deadline = Date.now() + 20_000;
    while (!logLines.some((line) => line.includes('cut short')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logLines.some((line) => line.includes('cut short'))).toBe(true);
  });

  it('passes error answers through, Retry-After included', async () => {
    const direct = await postSpeech(upstream.baseUrl, speechBody('mp3'), { ...AUTH, 'X-Mock-Status': '429' });
    const through = await postSpeech(recorder.baseUrl, speechBody('mp3'), { ...AUTH, 'X-Mock-Status': '429' });
    expect(through.status).toBe(429);
    expect(through.headers.get('retry-after')).toBe(direct.headers.get('retry-after'));
    expect(through.headers.get('retry-after')).not.toBeNull();
    // The same envelope (its X-RateLimit-Reset, a time, aside).
    const envelope = (bytes: Buffer) => (JSON.parse(bytes.toString()) as { error: { code: number; message: string } }).error;
    const [throughEnvelope, directEnvelope] = [envelope((await seen(through)).body), envelope((await seen(direct)).body)];
    expect({ code: throughEnvelope.code, message: throughEnvelope.message }).toEqual({ code: directEnvelope.code, message: directEnvelope.message });
    const unknown = await fetch(`${recorder.baseUrl}/model/nobody/nothing`, { headers: AUTH });
    expect(unknown.status).toBe(404);
    await unknown.arrayBuffer();
  });

  it('has written a folder that loads, holding what the client received, and no key', async () => {
    await recorder.close();
    const models = ModelsFileSchema.parse(JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')));
    const generations = GenerationsFileSchema.parse(JSON.parse(readFileSync(join(out, 'generations.json'), 'utf8')));
    parseFixtures(models, generations);
    const ids = models.models.map((m) => m.id);
    expect(ids).toContain('openai/gpt-4o-mini');
    expect(ids).toContain(TTS);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.some((id) => id.includes(':'))).toBe(false);
    const aliased = (await (await fetch(`${upstream.baseUrl}/model/anthropic/claude-3-5-sonnet`, { headers: AUTH })).json()) as { data: { id: string } };
    expect(aliased.data.id).not.toBe('anthropic/claude-3-5-sonnet');
    expect(models.aliases).toEqual([{ alias: 'anthropic/claude-3-5-sonnet', target: aliased.data.id }]);
    // The lookup's record is the upstream's.
    const direct = (await (await fetch(`${upstream.baseUrl}/model/${TTS}`, { headers: AUTH })).json()) as { data: unknown };
    expect(models.models.find((m) => m.id === TTS)).toEqual(direct.data);
    expect(models.speech[TTS]).toEqual({ ...loadFixtures().speech[TTS], response_formats: ['mp3', 'pcm'] });
    // The speech-to-text models of the listing, each with the package's transcription entry.
    const sttIds = ids.filter((id) => models.models.find((m) => m.id === id)!.architecture.output_modalities.includes('transcription'));
    expect(sttIds).toContain('openai/whisper-1');
    for (const id of sttIds) expect(models.transcription?.[id], id).toEqual(loadFixtures().transcription![id]);
    expect(models.providers?.[TTS]?.[0]?.provider_name).toBe('OpenAI');
    expect(models.providers?.['openai/gpt-4o-mini']?.length).toBeGreaterThan(0);
    expect(generations.generations.map((g) => g.id)).toEqual([received.pcm!.generationId]);

    const index = AudioIndexSchema.parse(JSON.parse(readFileSync(join(out, 'audio', 'index.json'), 'utf8')));
    expect(index.recordings).toHaveLength(2);
    for (const format of ['mp3', 'pcm'] as const) {
      const key = speechKeyOf(speechBody(format));
      const entry = index.recordings.find((r) => r.key === key)!;
      expect(entry.file).toBe(audioFileName(key, received[format]!.contentType!));
      expect(entry.file).toMatch(new RegExp(`^[0-9a-f]{64}\\.${format}$`));
      expect(entry.content_type).toBe(received[format]!.contentType);
      const bytes = readFileSync(join(out, 'audio', entry.file));
      expect(entry.bytes).toBe(bytes.length);
      expect(bytes.equals(received[format]!.body)).toBe(true);
    }

    const scenario = parseScenario(parseYaml(readFileSync(join(out, 'scenarios', 'recorded.yaml'), 'utf8')));
    expect(scenario.name).toBe('recorded');
    const rateLimit = scenario.rules.find((r) => r.name === 'speech-429-1')!;
    expect(rateLimit.match).toEqual({ operation: 'speech', model: TTS });
    expect(rateLimit.error?.status).toBe(429);
    expect(rateLimit.error?.headers?.['Retry-After']).toMatch(/^\d+$/);
    const notFound = scenario.rules.find((r) => r.name === 'model-404-1')!;
    expect(notFound.match).toEqual({ operation: 'model', model: 'nobody/nothing' });

    for (const file of filesUnder(out)) expect(readFileSync(file).includes(KEY), file).toBe(false);
    expect(filesUnder(out).some((f) => f.includes('.tmp-'))).toBe(false);
    expect(logLines.length).toBeGreaterThan(5);
    expect(logLines.join('\n')).not.toContain(KEY);
    expect(logLines.join('\n')).toContain('audio ');
  });

  it('replays from the folder with another seed and no upstream: the recorded audio, model and generation', async () => {
    const fixtures = loadFixtures(out);
    expect(fixtures.models.some((m) => m.id === TTS)).toBe(true);
    const replay = await startServer({ port: 0, seed: 2, keys: [KEY], fixtures: out });
    try {
      for (const format of ['mp3', 'pcm'] as const) {
        const answer = await seen(await postSpeech(replay.baseUrl, speechBody(format), AUTH));
        expect(answer.status).toBe(200);
        expect(answer.contentType).toBe(received[format]!.contentType);
        expect(answer.body.equals(received[format]!.body)).toBe(true);
      }
      const lookup = (await (await fetch(`${replay.baseUrl}/model/${TTS}`, { headers: AUTH })).json()) as { data: unknown };
      const original = (await (await fetch(`${upstream.baseUrl}/model/${TTS}`, { headers: AUTH })).json()) as { data: unknown };
      expect(lookup.data).toEqual(original.data);
      const id = received.pcm!.generationId!;
      const generation = await fetch(`${replay.baseUrl}/generation?id=${id}`, { headers: AUTH });
      expect(generation.status).toBe(200);
      expect(((await generation.json()) as { data: { id: string } }).data.id).toBe(id);
    } finally {
      await replay.close();
    }
  });

  it('adds to a folder recorded before, and refuses one holding an invalid file', async () => {
    const again = await startRecorder({ upstream: `${upstream.url}/api/v1`, out, port: 0 });
    const response = await fetch(`${again.baseUrl}/model/google/gemini-3.1-flash-tts-preview`, { headers: AUTH });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await again.close();
    const models = ModelsFileSchema.parse(JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')));
    expect(models.models.map((m) => m.id)).toEqual(expect.arrayContaining([TTS, 'openai/gpt-4o-mini', 'google/gemini-3.1-flash-tts-preview']));
    expect(models.speech['google/gemini-3.1-flash-tts-preview']).toBeDefined();
    expect(existsSync(join(out, 'audio', 'index.json'))).toBe(true);

    const bad = mkdtempSync(join(tmpdir(), 'mockrouter-record-bad-'));
    try {
      writeFileSync(join(bad, 'generations.json'), '{"generations": [{"id": 3}]}');
      await expect(startRecorder({ upstream: upstream.url, out: bad, port: 0 })).rejects.toThrow(/generations\.json: generations\[0\]/);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it('answers 502 in the gateway envelope when the upstream cannot be reached, writing nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mockrouter-record-none-'));
    const closed = await startServer({ port: 0 });
    const gone = closed.url;
    await closed.close();
    const lonely = await startRecorder({ upstream: gone, out: empty, port: 0 });
    try {
      const response = await fetch(`${lonely.baseUrl}/model/${TTS}`, { headers: AUTH });
      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(502);
      expect(body.error.message).toContain(gone);
    } finally {
      await lonely.close();
    }
    expect(readdirSync(empty)).toEqual([]);
    rmSync(empty, { recursive: true, force: true });
  });
});

describe('mockrouter record in front of a compressing gateway', () => {
  it('records the decoded answer and passes the compressed bytes through', async () => {
    const upstream = await startServer({ port: 0, seed: 1, keys: [KEY] });
    // A stand-in for a gateway behind a CDN: the mock's answer, gzip-compressed.
    const standIn = createServer((req, res) => {
      void fetch(`${upstream.url}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(async (answer) => {
        const bytes = gzipSync(Buffer.from(await answer.arrayBuffer()));
        res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? '', 'Content-Encoding': 'gzip', 'Content-Length': String(bytes.length) });
        res.end(bytes);
      });
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-record-gzip-'));
    const recorder = await startRecorder({ upstream: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, out: dir, port: 0 });
    try {
      const through = await fetch(`${recorder.baseUrl}/model/${TTS}`, { headers: AUTH });
      expect(through.headers.get('content-encoding')).toBe('gzip');
      const direct = await (await fetch(`${upstream.baseUrl}/model/${TTS}`, { headers: AUTH })).text();
      expect(await through.text()).toBe(direct);
      await recorder.close();
      const models = ModelsFileSchema.parse(JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')));
      expect(models.models).toEqual([(JSON.parse(direct) as { data: unknown }).data]);
    } finally {
      await recorder.close();
      await new Promise((resolve) => standIn.close(resolve));
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the recorded folder', () => {
  const voice = {
    id: 'acme/voice-1',
    canonical_slug: 'acme/voice-1-20260101',
    name: 'Acme: Voice One',
    created: 1767225600,
    context_length: null,
    architecture: { modality: 'text->speech', input_modalities: ['text'], output_modalities: ['speech'] },
    pricing: { prompt: '0.000001', completion: '0' },
    top_provider: { context_length: null, max_completion_tokens: null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: [],
    default_parameters: null,
    supported_voices: ['deep'],
    links: { details: '/api/v1/models/acme/voice-1/endpoints' },
  };

  it('derives speech entries, holds providers and aliases until their model is recorded, keeps a variant only for an unknown base', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-record-folder-'));
    try {
      const folder = await RecordedFolder.open(dir, 'http://upstream.test');
      await folder.addProviders('acme/voice-1', [{ provider_name: 'Acme Cloud', tag: 'acme-cloud', quantization: null }]);
      expect(existsSync(join(dir, 'models.json'))).toBe(true);
      expect(ModelsFileSchema.parse(JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8'))).providers).toBeUndefined();
      const key = speechKeyOf({ model: 'acme/voice-1', input: 'hi', voice: 'deep', response_format: 'pcm' });
      await folder.addAudio({ key, file: audioFileName(key, 'audio/pcm'), content_type: 'audio/pcm', bytes: 2 }, new Uint8Array([1, 2]));
      expect(await folder.addModels([{ ...voice, id: 'acme/voice-1:free', name: 'Acme: Voice One (free)', links: { details: '/api/v1/models/acme/voice-1:free/endpoints' } }])).toEqual(['recorded']);
      expect(await folder.addModels([{ ...voice, id: '~acme/voice-latest', alias_target: { slug: 'acme/voice-1', name: 'Acme: Voice One' } }])).toEqual(['alias']);
      expect(await folder.addModels([{ ...voice, supported_voices: [] }, { id: 'broken' }])).toEqual(['invalid: a speech model without supported_voices', expect.stringMatching(/^invalid: /)]);
      let models = ModelsFileSchema.parse(JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')));
      expect(models.models).toEqual([{ ...voice, links: { details: '/api/v1/models/acme/voice-1/endpoints' } }]);
      expect(models.speech['acme/voice-1']).toEqual({ provider_name: 'Acme Cloud', response_formats: ['pcm'], max_input_chars: 4096, supports_speed: false });
      expect(models.providers).toEqual({ 'acme/voice-1': [{ provider_name: 'Acme Cloud', tag: 'acme-cloud', quantization: null }] });
      expect(models.aliases).toEqual([{ alias: '~acme/voice-latest', target: 'acme/voice-1', alias_target: true }]);
      // The base's own record replaces the one kept from its variant; a variant of a known base is not kept.
      await folder.addModels([{ ...voice, pricing: { prompt: '0.000002', completion: '0' } }]);
      expect(await folder.addModels([{ ...voice, id: 'acme/voice-1:nitro' }])).toEqual(['variant-of-known-base']);
      await folder.idle();
      models = ModelsFileSchema.parse(JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')));
      expect(models.models.map((m) => [m.id, m.pricing.prompt])).toEqual([['acme/voice-1', '0.000002']]);
      expect([...(loadFixtures(dir).recordings?.keys() ?? [])]).toEqual([key]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mockrouter record flags', () => {
  /** Parses `args` as `mockrouter record` would, without exiting; resolves to the error message. */
  async function refusal(args: string[]): Promise<string> {
    let written = '';
    const command = recordCommand()
      .exitOverride()
      .configureOutput({ writeErr: (text) => (written += text), writeOut: () => undefined });
    await expect(command.parseAsync(args, { from: 'user' })).rejects.toThrow();
    return written;
  }

  it('requires --upstream and --out, and an http(s) upstream without credentials, query or fragment', async () => {
    expect(await refusal(['--out', 'x'])).toMatch(/--upstream <url>/);
    expect(await refusal(['--upstream', 'https://openrouter.ai'])).toMatch(/--out <dir>/);
    expect(await refusal(['--upstream', 'ftp://example.com', '--out', 'x'])).toMatch(/http or https/);
    expect(await refusal(['--upstream', 'https://user:pw@example.com', '--out', 'x'])).toMatch(/no user name or password/);
    expect(await refusal(['--upstream', 'https://openrouter.ai/?via=proxy', '--out', 'x'])).toMatch(/no query or fragment/);
    expect(await refusal(['--upstream', 'https://openrouter.ai', '--out', 'x', '--port', '70000'])).toMatch(/0 to 65535/);
  });

  it('maps the upstream path: an origin, a prefix, or a URL ending in /api/v1', () => {
    expect(upstreamOf('https://openrouter.ai')).toEqual({ origin: 'https://openrouter.ai', prefix: '' });
    expect(upstreamOf('https://openrouter.ai/api/v1/')).toEqual({ origin: 'https://openrouter.ai', prefix: '' });
    expect(upstreamOf('http://127.0.0.1:8080/gw')).toEqual({ origin: 'http://127.0.0.1:8080', prefix: '/gw' });
    expect(upstreamOf('http://127.0.0.1:8080/gw/api/v1')).toEqual({ origin: 'http://127.0.0.1:8080', prefix: '/gw' });
  });
});

describe('mockrouter record, killed mid-answer', () => {
  let upstream: RunningServer;
  let child: ChildProcessWithoutNullStreams | undefined;
  let out: string;
  let scriptDir: string;

  beforeAll(async () => {
    upstream = await startServer({
      port: 0,
      seed: 1,
      keys: [KEY],
      scenarios: [{ name: 'record-slow-audio', rules: [{ match: { operation: 'speech' }, audio: { dribble: { chunks: 200, over_ms: 60_000 } } }] }],
    });
    out = mkdtempSync(join(tmpdir(), 'mockrouter-record-kill-'));
    scriptDir = mkdtempSync(join(tmpdir(), 'mockrouter-record-child-'));
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await upstream?.close();
    if (out) rmSync(out, { recursive: true, force: true });
    if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
  });

  it('leaves every recording made before a SIGKILL readable', async () => {
    const script = join(scriptDir, 'record.mjs');
    // The command as built in dist/ (which npm test makes first), unbundled, as test/verify.test.ts runs verify's.
    const command = new URL('../dist/cli/record-command.js', import.meta.url).href;
    writeFileSync(script, `import { recordCommand } from ${JSON.stringify(command)};\nawait recordCommand().parseAsync(process.argv.slice(2), { from: 'user' });\n`);
    child = spawn(process.execPath, [script, '--upstream', upstream.url, '--out', out, '--port', '0'], { cwd: process.cwd(), stdio: 'pipe' });
    let output = '';
    const waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const w of waiters.splice(0)) (w.test(output) ? w.resolve : () => waiters.push(w))();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    /** Resolves when the child's output passes `test`; fails after 60 s. */
    const outputWhere = (test: (text: string) => boolean) =>
      new Promise<void>((resolve, reject) => {
        if (test(output)) return resolve();
        const timer = setTimeout(() => reject(new Error(`child output never matched; got:\n${output}`)), 60_000);
        waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
      });

    await outputWhere((text) => /listening on (http:\/\/\S+\/api\/v1)/.test(text));
    const base = /listening on (http:\/\/\S+\/api\/v1)/.exec(output)![1]!;
    expect(output).toContain(`→ ${upstream.url}, writing ${out}`);

    const lookup = await fetch(`${base}/model/${TTS}`, { headers: AUTH });
    expect(lookup.status).toBe(200);
    await lookup.arrayBuffer();
    const speech = { model: TTS, input: 'Before the crash.', voice: 'nova', response_format: 'mp3' };
    const fast = await postSpeech(base, speech, AUTH);
    const fastBytes = Buffer.from(await fast.arrayBuffer());
    await outputWhere((text) => text.includes('audio ') && text.includes(`model ${TTS}`));

    // A slow answer: the first chunk arrives, then the recorder dies before the upstream finishes.
    const slow = await postSpeech(base, { ...speech, input: 'A long answer that is cut by a crash of the recorder.', response_format: 'pcm' }, { ...AUTH, 'X-Mock-Scenario': 'record-slow-audio' });
    expect(slow.headers.get('transfer-encoding')).toBe('chunked');
    const reader = slow.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await expect(reader.read().then(async function drain(r): Promise<unknown> { return r.done ? r : reader.read().then(drain); })).rejects.toThrow();

    const models = ModelsFileSchema.parse(JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')));
    expect(models.models.map((m) => m.id)).toEqual([TTS]);
    const index = AudioIndexSchema.parse(JSON.parse(readFileSync(join(out, 'audio', 'index.json'), 'utf8')));
    expect(index.recordings.map((r) => r.key)).toEqual([speechKeyOf(speech)]);
    expect(readFileSync(join(out, 'audio', index.recordings[0]!.file)).equals(fastBytes)).toBe(true);
    // Nothing of the answer cut short is in the folder.
    expect(readdirSync(join(out, 'audio')).filter((name) => name.endsWith('.pcm'))).toEqual([]);
    for (const file of filesUnder(out)) expect(readFileSync(file).includes(KEY), file).toBe(false);
    expect(output).not.toContain(KEY);

    expect(loadFixtures(out).models.map((m) => m.id)).toEqual([TTS]);
    // A recorder started again on the folder takes it as it is, once the killed one is reaped (until then its pid
    // is still a process, and its lock is taken as held).
    await exited;
    const again = await startRecorder({ upstream: upstream.url, out, port: 0 });
    await again.close();
  }, 120_000);
});
