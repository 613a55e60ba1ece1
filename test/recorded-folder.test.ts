/**
 * `--fixtures <dir>` / option `fixtures` serving a recorded folder and a saved real catalog (the folder
 * format is `src/core/formats/recording-schema.ts`): a saved `getModels` answer of several hundred generated
 * records loads and answers lookups, variants, list filters, the count, endpoints and speech; a folder with
 * `audio/index.json` answers the recorded bytes for the matching request whatever the seed, and simulates the
 * others; a bad folder fails at start-up naming the file, the path inside it and what was expected.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speechKeyOf } from '../src/core/formats/recording-schema.js';
import { FixtureError } from '../src/core/base/errors.js';
import type { ModelRecord } from '../src/core/formats/fixture-schema.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { loadRecordings } from '../src/node-platform/recorded-audio.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { savedCatalog } from './support/saved-catalog.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const COUNT = 500;
const saved = savedCatalog(COUNT);
const root = mkdtempSync(join(tmpdir(), 'mockrouter-recorded-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
/** A new folder under `root` holding `files` (name → JSON value, or bytes), written as given. */
function folder(files: Record<string, unknown>): string {
  const dir = join(root, `f${folders++}`);
  mkdirSync(join(dir, 'audio'), { recursive: true });
  for (const [name, value] of Object.entries(files)) {
    writeFileSync(join(dir, name), value instanceof Uint8Array ? value : typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

const KEY = 'Bearer sk-recorded';
/** `GET {baseUrl}{path}`, the body parsed as JSON (read loosely: each case checks the fields it needs). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(server: RunningServer, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: KEY } });
  return { status: res.status, body: await res.json() };
}
async function speak(server: RunningServer, body: unknown): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await postSpeech(server.baseUrl, body, { Authorization: KEY });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('a saved real catalog (the answer of GET /models?output_modalities=all)', () => {
  let server: RunningServer;
  const dir = folder({ 'models.json': { ...saved, extra_top_level_key: { ignored: true } } });
  const speechModel = saved.data.find((m) => m.architecture.output_modalities.includes('speech'))!;
  const free = saved.data.find((m) => m.id.endsWith(':free'))!;

  beforeAll(async () => {
    server = await startServer({ port: 0, fixtures: dir, seed: 4 });
  });
  afterAll(() => server.close());

  it('loads every record, with speech entries derived and no generations file', () => {
    const fixtures = loadFixtures(dir);
    expect(fixtures.models).toHaveLength(saved.data.length);
    expect(saved.data.length).toBeGreaterThan(COUNT);
    expect(fixtures.aliases).toEqual([]);
    expect(fixtures.generations).toEqual([]);
    const speechIds = saved.data.filter((m) => m.architecture.output_modalities.includes('speech')).map((m) => m.id);
    expect(Object.keys(fixtures.speech).sort()).toEqual(speechIds.sort());
    expect(fixtures.speech[speechModel.id]).toEqual({ provider_name: speechModel.name.split(': ')[0], response_formats: ['mp3', 'pcm'], max_input_chars: 4096, supports_speed: false });
    const google = speechIds.find((id) => id.startsWith('google/'))!;
    expect(fixtures.speech[google]!.response_formats).toEqual(['pcm']);
  });

  it("gives each speech-to-text record the package's transcription entry, else one derived: provider from the name, by the token where the record prices tokens (else by the second at 0), verbose_json for openai/ only", () => {
    const packaged = loadFixtures();
    const own = packaged.models.filter((m) => m.architecture.output_modalities.includes('transcription'));
    const unknown = (id: string, name: string, pricing: ModelRecord['pricing']): ModelRecord => ({ ...own[0]!, id, canonical_slug: id, name, pricing, links: { details: `/api/v1/models/${id}/endpoints` } });
    const others = [unknown('openai/whisper-9', 'OpenAI: Whisper 9', { prompt: '0', completion: '0' }), unknown('acme/ears-2', 'Acme Labs: Ears 2', { prompt: '0.000001', completion: '0.000004' })];
    const loaded = loadFixtures(folder({ 'models.json': { data: [...saved.data.slice(0, 5), ...own, ...others] } }));
    expect(Object.keys(loaded.transcription ?? {})).toEqual([...own, ...others].map((m) => m.id));
    for (const m of own) expect(loaded.transcription![m.id], m.id).toEqual(packaged.transcription![m.id]);
    expect(loaded.transcription!['openai/whisper-9']).toEqual({ provider_name: 'OpenAI', priced_by: 'second', price_per_second: '0', verbose_json: true });
    expect(loaded.transcription!['acme/ears-2']).toEqual({ provider_name: 'Acme Labs', priced_by: 'token', verbose_json: false });
  });

  it('answers a model lookup with the saved record, unknown fields kept', async () => {
    const withExtra = saved.data.find((m) => 'newly_added_field' in m)!;
    const { status, body } = await get(server, `/model/${withExtra.id}`);
    expect(status).toBe(200);
    expect(body.data).toEqual(withExtra);
  });

  it('serves a listed :free id as saved, and derives the other variants', async () => {
    const listed = await get(server, `/model/${free.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(free);
    const base = free.id.slice(0, -':free'.length);
    const nitro = await get(server, `/model/${base}:nitro`);
    expect(nitro.status).toBe(200);
    expect(nitro.body.data.id).toBe(`${base}:nitro`);
    const other = saved.data.find((m) => !m.id.includes(':') && !saved.data.some((n) => n.id === `${m.id}:free`))!;
    const derived = await get(server, `/model/${other.id}:free`);
    expect(derived.status).toBe(200);
    expect(derived.body.data.pricing.prompt).toBe('0');
    expect((await get(server, `/model/${other.id}:turbo`)).status).toBe(404);
  });

  it('lists, filters and counts the saved models', async () => {
    const speechIds = saved.data.filter((m) => m.architecture.output_modalities.includes('speech')).map((m) => m.id);
    const speech = await get(server, '/models?output_modalities=speech');
    expect(speech.status).toBe(200);
    expect(speech.body.data.map((m: { id: string }) => m.id)).toEqual(speechIds);
    const all = await get(server, '/models?output_modalities=all&limit=1000');
    expect(all.body.data).toHaveLength(saved.data.length);
    const images = await get(server, '/models?input_modalities=image&output_modalities=all&limit=1000');
    expect(images.body.data.map((m: { id: string }) => m.id)).toEqual(saved.data.filter((m) => m.architecture.input_modalities.includes('image')).map((m) => m.id));
    const byAuthor = await get(server, '/models?model_authors=qwen&output_modalities=all&limit=1000');
    expect(byAuthor.body.data.length).toBeGreaterThan(10);
    expect(byAuthor.body.data.every((m: { id: string }) => m.id.startsWith('qwen/'))).toBe(true);
    // `category` is accepted and ignored (model-query.ts): every model passes.
    const category = await get(server, '/models?category=programming');
    expect(category.status).toBe(200);
    expect(category.body.data.length).toBe((await get(server, '/models')).body.data.length);
    const count = await get(server, '/models/count?output_modalities=all');
    expect(count.status).toBe(200);
    expect(count.body.data.count).toBe(saved.data.length);
  });

  it('derives the endpoints of a saved model from its record', async () => {
    const model = saved.data[1]!;
    const { status, body } = await get(server, `/models/${model.id}/endpoints`);
    expect(status).toBe(200);
    expect(body.data.id).toBe(model.id);
    expect(body.data.endpoints).toHaveLength(1);
    expect(body.data.endpoints[0].provider_name).toBe(model.name.split(': ')[0]);
    expect(body.data.endpoints[0].pricing.prompt).toBe(model.pricing.prompt);
    expect(await get(server, `/models/${model.id}/endpoints`)).toEqual({ status, body });
  });

  it('simulates speech on a saved speech model, with a generation record', async () => {
    const { res, bytes } = await speak(server, { model: speechModel.id, input: 'Hello there.', voice: speechModel.supported_voices![0], response_format: 'mp3' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(bytes.byteLength).toBeGreaterThan(100);
    const id = res.headers.get('x-generation-id')!;
    const generation = await get(server, `/generation?id=${id}`);
    expect(generation.status).toBe(200);
    expect(generation.body.data.model).toBe(speechModel.id);
    expect(generation.body.data.provider_name).toBe(speechModel.name.split(': ')[0]);
  });
});

describe('a recorded folder (audio/index.json)', () => {
  const recordedBytes = new Uint8Array(3000).map((_, i) => (i * 7919 + 13) % 256);
  const model = TTS;
  const request = { model, input: 'Recorded words.', voice: 'alloy', response_format: 'mp3' as const };
  const uncataloged = { model: 'someone/not-in-the-catalog', input: 'Recorded too.', voice: 'v1', response_format: 'pcm' as const, speed: 1.5, provider: { options: { b: { y: 1, x: 2 }, a: 1 } } };
  const pcm = new Uint8Array(4800).fill(9);
  const models = loadFixtures();
  const fixturesShaped = { models: models.models, aliases: [], speech: models.speech, transcription: models.transcription };
  const index = {
    recordings: [
      { key: speechKeyOf(request), file: 'a.mp3', content_type: 'audio/mpeg', bytes: recordedBytes.byteLength },
      { key: speechKeyOf(uncataloged), file: 'b.pcm', content_type: 'audio/pcm;rate=24000;channels=1', bytes: pcm.byteLength },
    ],
  };
  const dir = folder({ 'models.json': fixturesShaped, 'audio/index.json': index, 'audio/a.mp3': recordedBytes, 'audio/b.pcm': pcm });
  const apiShaped = folder({ 'models.json': { data: models.models }, 'audio/index.json': index, 'audio/a.mp3': recordedBytes, 'audio/b.pcm': pcm });
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const start = async (fixtures: string, seed: number) => {
    const server = await startServer({ port: 0, fixtures, seed });
    servers.push(server);
    return server;
  };

  it.each([
    ['fixtures-shaped', dir, 1],
    ['fixtures-shaped', dir, 2],
    ['API-shaped', apiShaped, 1],
    ['API-shaped', apiShaped, 2],
  ])('answers the recorded bytes exactly (%s models.json, seed %d), charged and with a generation', async (_, fixtures, seed) => {
    const server = await start(fixtures, seed);
    // Fields that are not part of the key (session_id, user) do not change the match.
    const { res, bytes } = await speak(server, { ...request, user: 'someone', session_id: 's-1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(bytes).toEqual(recordedBytes);
    const id = res.headers.get('x-generation-id')!;
    expect(id).toMatch(/^gen-tts-\d+-[A-Za-z0-9]{20}$/);
    const generation = await get(server, `/generation?id=${id}`);
    expect(generation.status).toBe(200);
    expect(generation.body.data.model).toBe(model);
    expect(generation.body.data.total_cost).toBeCloseTo(15 * Number(models.models.find((m) => m.id === model)!.pricing.prompt), 12);
    expect(generation.body.data.user_agent === null || typeof generation.body.data.user_agent === 'string').toBe(true);
  });

  it('answers a recording of a model the catalog lacks, at no cost; the key ignores the order of provider options', async () => {
    const server = await start(dir, 7);
    const { res, bytes } = await speak(server, { ...uncataloged, provider: { options: { a: 1, b: { x: 2, y: 1 } } } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
    expect(bytes).toEqual(pcm);
    const generation = await get(server, `/generation?id=${res.headers.get('x-generation-id')}`);
    expect(generation.body.data).toMatchObject({ model: uncataloged.model, total_cost: 0, provider_name: null });
  });

  it('simulates a request that was not recorded, and the same request in another format', async () => {
    const server = await start(dir, 1);
    const other = await speak(server, { ...request, input: 'Not recorded.' });
    expect(other.res.status).toBe(200);
    expect(other.res.headers.get('content-type')).toBe('audio/mpeg');
    expect(other.bytes).not.toEqual(recordedBytes);
    const pcmFormat = await speak(server, { ...request, response_format: 'pcm' });
    expect(pcmFormat.res.headers.get('content-type')).toBe('audio/pcm;rate=24000;channels=1');
    // A recorded request that is invalid is still refused: the body is validated first.
    expect((await speak(server, { ...request, speed: 'fast' })).res.status).toBe(400);
  });

  it('answers 404 naming the recording when the journal is asked to render a recorded answer again', async () => {
    const server = await start(dir, 3);
    await speak(server, request);
    await speak(server, { ...request, input: 'Simulated.' });
    const origin = new URL(server.baseUrl).origin;
    const list = (await (await fetch(`${origin}/__mock/requests?operation=speech`)).json()) as { requests: { seq: number }[] };
    const speeches = list.requests.map((e) => e.seq).sort((a, b) => a - b);
    expect(speeches).toHaveLength(2);
    const recorded = await fetch(`${origin}/__mock/requests/${speeches[0]}/audio`);
    expect(recorded.status).toBe(404);
    expect(((await recorded.json()) as { error: { message: string } }).error.message).toMatch(/recorded speech answer .*cannot be rendered again/);
    const simulated = await fetch(`${origin}/__mock/requests/${speeches[1]}/audio`);
    expect(simulated.status).toBe(200);
    await simulated.arrayBuffer();
  });
});

describe('a bad folder fails at start-up, naming the file, the path inside it and what was expected', () => {
  const good = loadFixtures();
  const models = { models: good.models, aliases: [], speech: good.speech, transcription: good.transcription };
  const key = speechKeyOf({ model: 'a/b', input: 'x', voice: 'v' });
  const entry = (over: Record<string, unknown> = {}) => ({ key, file: 'x.mp3', content_type: 'audio/mpeg', bytes: 4, ...over });
  const bytes4 = new Uint8Array([1, 2, 3, 4]);

  /** The error `loadFixtures(dir)` throws (it must throw a FixtureError). */
  function failure(dir: string): FixtureError {
    try {
      loadFixtures(dir);
    } catch (error) {
      expect(error).toBeInstanceOf(FixtureError);
      return error as FixtureError;
    }
    throw new Error('expected loadFixtures to throw');
  }

  it('missing models.json', () => {
    const dir = folder({});
    expect(failure(dir).message).toBe(`${join(dir, 'models.json')}: file not found`);
  });

  it('models.json not JSON', () => {
    const dir = folder({ 'models.json': '{"data": [' });
    expect(failure(dir).message).toMatch(new RegExp(`^${join(dir, 'models.json')}: .*invalid JSON`));
  });

  it('a saved record with a bad price names data[i].pricing.prompt', () => {
    const data = savedCatalog(40).data.map((m, i) => (i === 12 ? { ...m, pricing: { ...m.pricing, prompt: '1e-7' } } : m));
    const dir = folder({ 'models.json': { data } });
    const error = failure(dir);
    expect(error.file).toBe(join(dir, 'models.json'));
    expect(error.location).toBe('data[12].pricing.prompt');
    expect(error.message).toMatch(/expected a decimal string/);
  });

  it('a saved speech model with an empty voice list (null, any voice id, loads), and a duplicate id', () => {
    const data = savedCatalog(20).data;
    const speechAt = data.findIndex((m) => m.architecture.output_modalities.includes('speech'));
    const noVoices = data.map((m, i) => (i === speechAt ? { ...m, supported_voices: [] } : m));
    expect(failure(folder({ 'models.json': { data: noVoices } })).location).toBe(`data[${speechAt}].supported_voices`);
    const anyVoice = data.map((m, i) => (i === speechAt ? { ...m, supported_voices: null } : m));
    expect(loadFixtures(folder({ 'models.json': { data: anyVoice } })).models[speechAt]!.supported_voices).toBeNull();
    const dup = failure(folder({ 'models.json': { data: [...data, data[2]] } }));
    expect(dup.location).toBe(`data[${data.length}].id`);
    expect(dup.message).toMatch(/duplicate model id .* \(also data\[2\]\)/);
  });

  it('a bad generations.json is still validated when present', () => {
    const dir = folder({ 'models.json': models, 'generations.json': { generations: [{ id: 'g' }] } });
    expect(failure(dir).file).toBe(join(dir, 'generations.json'));
  });

  it('an index naming a missing file', () => {
    const dir = folder({ 'models.json': models, 'audio/index.json': { recordings: [entry(), entry({ key: speechKeyOf({ model: 'a/b', input: 'y', voice: 'v' }), file: 'gone.mp3' })] }, 'audio/x.mp3': bytes4 });
    expect(failure(dir).message).toBe(`${join(dir, 'audio', 'index.json')}: recordings[1].file: audio/gone.mp3 not found; expected a file of 4 bytes`);
  });

  it('a file of another length than its entry says', () => {
    const dir = folder({ 'models.json': models, 'audio/index.json': { recordings: [entry({ bytes: 5 })] }, 'audio/x.mp3': bytes4 });
    expect(failure(dir).message).toBe(`${join(dir, 'audio', 'index.json')}: recordings[0].bytes: expected 5 bytes, the length of audio/x.mp3, but it has 4`);
  });

  it('a file name with a folder, and a name that is a folder', () => {
    const dir = folder({ 'models.json': models, 'audio/index.json': { recordings: [entry({ file: '../models.json' })] } });
    const error = failure(dir);
    expect(error.location).toBe('recordings[0].file');
    expect(error.message).toMatch(/no folder/);
    const dots = folder({ 'models.json': models, 'audio/index.json': { recordings: [entry({ file: '..' })] } });
    expect(failure(dots).message).toMatch(/recordings\[0\]\.file: expected a file name under audio\/, got "\.\."/);
    const sub = folder({ 'models.json': models, 'audio/index.json': { recordings: [entry({ file: 'sub' })] } });
    mkdirSync(join(sub, 'audio', 'sub'));
    expect(failure(sub).message).toMatch(/recordings\[0\]\.file: audio\/sub is not a regular file \(a folder\)/);
  });

  it('an index that is not JSON, violates its schema, has a key that is not normalized, or a duplicate key', () => {
    expect(failure(folder({ 'models.json': models, 'audio/index.json': '{' })).message).toMatch(/audio\/index\.json: .*invalid JSON/);
    const schema = failure(folder({ 'models.json': models, 'audio/index.json': { recordings: [entry({ bytes: -1 })] } }));
    expect(schema.location).toBe('recordings[0].bytes');
    const unnormalized = failure(folder({ 'models.json': models, 'audio/index.json': { recordings: [entry({ key: '{"model":"a/b"}' })] }, 'audio/x.mp3': bytes4 }));
    expect(unnormalized.message).toMatch(/recordings\[0\]\.key: expected a normalized speech request/);
    const dup = failure(folder({ 'models.json': models, 'audio/index.json': { recordings: [entry(), entry()] }, 'audio/x.mp3': bytes4 }));
    expect(dup.message).toMatch(/recordings\[1\]\.key: duplicate key \(also recordings\[0\]\)/);
  });

  it('recordings over the total bound name the audio folder', () => {
    const dir = folder({
      'models.json': models,
      'audio/index.json': { recordings: [entry(), entry({ key: speechKeyOf({ model: 'a/b', input: 'z', voice: 'v' }) })] },
      'audio/x.mp3': bytes4,
    });
    expect(loadRecordings(dir, { maxTotalBytes: 8 })?.size).toBe(2); // both entries name the same 4-byte file: 8 bytes
    expect(() => loadRecordings(dir, { maxTotalBytes: 7 })).toThrow(`${join(dir, 'audio')}: the recordings add up to more than 7 bytes (past recordings[1])`);
    expect(() => loadRecordings(dir, { maxFileBytes: 3 })).toThrow(/recordings\[0\]\.bytes: too large: 4 bytes; expected at most 3 bytes/);
  });

  it('startServer rejects a bad folder', async () => {
    const dir = folder({ 'models.json': { data: [{ id: 'x' }] } });
    await expect(startServer({ port: 0, fixtures: dir })).rejects.toThrow(/models\.json: data\[0\]\./);
  });
});
