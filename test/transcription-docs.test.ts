/**
 * The finer claims of `docs/transcription.md`, each as the page states it, through the core gateway in process: a
 * multipart upload takes `keyterms[]` and refuses `provider` and a plain `keyterms`; `input_audio.url` is read by its
 * path alone (another host's `/__mock/requests/<seq>/audio` names this journal's entry; an entry that is not speech
 * is a 400 naming the field); a verbose answer's segments have `seek` 0 and the request's `temperature`, and `diarize` gives `words` without the word granularity; a WAV without samples bills 0 seconds and
 * reads `""`; the said index keeps inputs of up to 20,000 characters and skips longer ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CoreRequest, CoreResponse } from '../src/core/base/types.js';
import type { Gateway } from '../src/core/gateway/gateway.js';
import { MAX_SAID_INPUT_CHARS, sha256Hex, type SaidAudio } from '../src/core/transcription/said-audio.js';
import { createSaidIndex } from '../src/core/transcription/said-index.js';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { STT, TTS } from './support/speech-model.js';
import { wavOf } from './support/wav.js';

const KEY = { authorization: 'Bearer sk-docs-stt' };
const PATH = '/api/v1/audio/transcriptions';
/** The model of the catalog that takes diarization, key terms and audio by URL. */
const ASSEMBLY = 'assemblyai/universal-3-5-pro';
const SAID = 'Meet me at the station. Bring the map.';
const utf8 = new TextEncoder();

function postJson(path: string, body: unknown): CoreRequest {
  return { method: 'POST', path, query: '', headers: { ...KEY, 'content-type': 'application/json' }, body: utf8.encode(JSON.stringify(body)) };
}

/** A multipart transcription request of `fields` (each name once per value) and an MP3 `file`. */
async function upload(fields: Array<[string, string]>, mp3: Uint8Array): Promise<CoreRequest> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  form.append('file', new Blob([mp3 as Uint8Array<ArrayBuffer>], { type: 'audio/mpeg' }), 'said.mp3');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { method: 'POST', path: PATH, query: '', headers: { ...KEY, 'content-type': request.headers.get('content-type')! }, body: new Uint8Array(await request.arrayBuffer()) };
}

async function bytesOf(response: CoreResponse): Promise<Uint8Array> {
  if (response.body instanceof Uint8Array) return response.body;
  if (typeof response.body === 'string') return utf8.encode(response.body);
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

interface Answer {
  text?: string;
  usage?: Record<string, number>;
  segments?: Array<Record<string, unknown>>;
  words?: Array<Record<string, unknown>>;
  error?: { code: number; message: string };
}

async function answerOf(response: CoreResponse): Promise<{ status: number; json: Answer }> {
  return { status: response.status, json: JSON.parse(new TextDecoder().decode(await bytesOf(response))) as Answer };
}

let gateway: Gateway;
let mp3: Uint8Array;
let speechSeq: number;
beforeAll(async () => {
  gateway = createGateway({ seed: 11 });
  const speech = await gateway.handle(postJson('/api/v1/audio/speech', { model: TTS, input: SAID, voice: 'alloy', response_format: 'mp3' }));
  expect(speech.status).toBe(200);
  mp3 = await bytesOf(speech);
  speechSeq = (await gateway.sharedJournal.list()).filter((entry) => entry.operation === 'speech').at(-1)!.seq;
});

describe('the multipart fields', () => {
  it('take keyterms[] (one field per term) and refuse a plain keyterms field and a provider field', async () => {
    const taken = await answerOf(await gateway.handle(await upload([['model', ASSEMBLY], ['keyterms[]', 'station'], ['keyterms[]', 'map']], mp3)));
    expect(taken).toMatchObject({ status: 200, json: { text: SAID } });
    const plain = await answerOf(await gateway.handle(await upload([['model', ASSEMBLY], ['keyterms', 'station']], mp3)));
    expect(plain).toMatchObject({ status: 400, json: { error: { message: 'keyterms: must be an array of strings' } } });
    const provider = await answerOf(await gateway.handle(await upload([['model', STT], ['provider', '{"zdr":true}']], mp3)));
    expect(provider).toMatchObject({ status: 400, json: { error: { message: 'provider: must be an object' } } });
  });
});

describe('input_audio.url', () => {
  it("is read by its path: another host's /__mock/requests/<seq>/audio is this journal's speech", async () => {
    const url = `https://audio.example.com/__mock/requests/${speechSeq}/audio`;
    const heard = await answerOf(await gateway.handle(postJson(PATH, { model: ASSEMBLY, input_audio: { url, format: 'mp3' } })));
    expect(heard).toMatchObject({ status: 200, json: { text: SAID } });
  });

  it('naming an entry that is not a speech answer is a 400 naming the field', async () => {
    await gateway.handle(postJson(PATH, { model: STT, input_audio: { data: Buffer.from(mp3).toString('base64'), format: 'mp3' } }));
    const seq = (await gateway.sharedJournal.list()).filter((entry) => entry.operation === 'transcription').at(-1)!.seq;
    const refused = await answerOf(await gateway.handle(postJson(PATH, { model: ASSEMBLY, input_audio: { url: `http://127.0.0.1/__mock/requests/${seq}/audio`, format: 'mp3' } })));
    expect(refused.status).toBe(400);
    expect(refused.json.error?.message).toMatch(/^input_audio\.url: Journal entry \d+ is not a speech answer/);
  });
});

describe('the verbose answer', () => {
  it("has segments one a sentence, seek 0, with the request's temperature", async () => {
    const heard = await answerOf(await gateway.handle(postJson(PATH, { model: STT, temperature: 0.4, response_format: 'verbose_json', input_audio: { data: Buffer.from(mp3).toString('base64'), format: 'mp3' } })));
    expect(heard.status).toBe(200);
    expect(heard.json.segments?.map((segment) => [segment.text, segment.seek, segment.temperature])).toEqual([
      ['Meet me at the station.', 0, 0.4],
      ['Bring the map.', 0, 0.4],
    ]);
    expect(heard.json.words).toBeUndefined();
  });

  it('with diarize has words labelled speaker 0, A, without the word granularity', async () => {
    const heard = await answerOf(await gateway.handle(postJson(PATH, { model: ASSEMBLY, diarize: true, response_format: 'verbose_json', input_audio: { data: Buffer.from(mp3).toString('base64'), format: 'mp3' } })));
    expect(heard.status).toBe(200);
    expect(heard.json.words?.map((word) => [word.word, word.speaker, word.speaker_label])).toEqual(
      ['Meet', 'me', 'at', 'the', 'station', 'Bring', 'the', 'map'].map((word) => [word, 0, 'A']),
    );
  });
});

it('a WAV without samples reads "" and bills 0 seconds', async () => {
  const empty = wavOf(new Uint8Array(0));
  const heard = await answerOf(await gateway.handle(postJson(PATH, { model: STT, input_audio: { data: Buffer.from(empty).toString('base64'), format: 'wav' } })));
  expect(heard).toEqual({ status: 200, json: { text: '', usage: { seconds: 0, cost: 0 } } });
});

describe('the said index', () => {
  const said = (input: string): SaidAudio => ({ input, voice: 'alloy', speed: 1, seed: 0, mode: 'tones', format: 'pcm', samples: 24_000 });

  it(`keeps an input of ${MAX_SAID_INPUT_CHARS} characters and skips a longer one`, async () => {
    const kept = new Map<string, string>();
    const index = createSaidIndex({ rememberSaid: (hash, text) => void kept.set(hash, text), recallSaid: (hash) => kept.get(hash) }, (error) => { throw error; }, sha256Hex);
    const [atBound, over] = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5, 6])];
    await index.said(said('a'.repeat(MAX_SAID_INPUT_CHARS)), atBound);
    expect(index.said(said('a'.repeat(MAX_SAID_INPUT_CHARS + 1)), over)).toBeUndefined();
    expect((await index.recall([await sha256Hex(atBound)]))?.input.length).toBe(MAX_SAID_INPUT_CHARS);
    expect(await index.recall([await sha256Hex(over)])).toBeUndefined();
    expect(kept.size).toBe(1);
  });
});
