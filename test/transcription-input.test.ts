/**
 * Bad input to `POST /api/v1/audio/transcriptions`, each refused with the gateway's envelope naming the field, before
 * any work (`docs/transcription.md`); the limits through the standalone server (its adapter reads the body within the
 * operation's own limit); generated garbage bodies and uploads (fast-check), never a 5xx, always an envelope whose
 * `error.code` is the status, the gateway answering the next valid request as before; and the invented transcripts'
 * determinism and pace.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreRequest, CoreResponse } from '../src/core/base/types.js';
import type { Gateway } from '../src/core/gateway/gateway.js';
import { MAX_UPLOAD_BYTES } from '../src/core/transcription/request-body.js';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { SEED } from './support/fuzz/settings.js';
import { STT, TTS } from './support/speech-model.js';
import { wavOf } from './support/wav.js';

const KEY = { authorization: 'Bearer sk-input' };
const PATH = '/api/v1/audio/transcriptions';
const utf8 = new TextEncoder();

/** The core's request for a transcription with `body` (JSON of a value, or bytes as they are) and `headers`. */
function transcription(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): CoreRequest {
  return { method: 'POST', path: PATH, query: '', headers: { ...KEY, ...headers }, body: body instanceof Uint8Array ? body : utf8.encode(JSON.stringify(body)) };
}

/** A multipart body of `fields` (text) and `files` ([field, name, type, bytes]), with its content type. */
async function multipart(fields: Record<string, string>, files: Array<[string, string, string, Uint8Array]>): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [field, name, type, bytes] of files) form.append(field, new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}

/** The JSON of a response of one piece. */
function json(response: CoreResponse): { error?: { code: number; message: string }; text?: string; words?: unknown[] } {
  expect(typeof response.body === 'string' || response.body instanceof Uint8Array).toBe(true);
  return JSON.parse(typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body as Uint8Array)) as never;
}

/** Asserts `response` is the envelope of `status` whose message starts with `field: `, and that it names `more`. */
function expectRefusal(response: CoreResponse, status: number, field: string, more?: RegExp): void {
  const answer = json(response);
  expect(response.status, answer.error?.message).toBe(status);
  expect(answer.error?.code).toBe(status);
  expect(answer.error?.message.startsWith(`${field}: `), answer.error?.message).toBe(true);
  if (more) expect(answer.error?.message).toMatch(more);
}

let gateway: Gateway;
let pcm: Uint8Array;
beforeAll(async () => {
  gateway = createGateway({ seed: 4 });
  const speech = await gateway.handle({
    method: 'POST',
    path: '/api/v1/audio/speech',
    query: '',
    headers: { ...KEY, 'content-type': 'application/json' },
    body: utf8.encode(JSON.stringify({ model: TTS, input: 'Known words.', voice: 'alloy', response_format: 'pcm' })),
  });
  const chunks: Uint8Array[] = [];
  for await (const chunk of speech.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  pcm = Buffer.concat(chunks);
});

describe('bad input is refused with the envelope naming the field', () => {
  const data = () => Buffer.from(pcm).toString('base64');

  it('no body, no input_audio, no format, an input_audio of another type', async () => {
    expectRefusal(await gateway.handle({ ...transcription({}), body: undefined }), 400, 'Request body is required', /a JSON object/);
    expectRefusal(await gateway.handle(transcription({ model: STT })), 400, 'input_audio', /required/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: data() } })), 400, 'input_audio.format', /required, one of wav, mp3/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: data(), format: 'xyz' } })), 400, 'input_audio.format', /got string "xyz"/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: 'abc' })), 400, 'input_audio', /got string "abc"/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: data(), url: 'https://a.example/x.wav', format: 'pcm' } })), 400, 'input_audio.url', /not both/);
  });

  it('data that is not base64, and a data URI', async () => {
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: 'not base64!', format: 'pcm' } })), 400, 'input_audio.data', /must be base64/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: `data:audio/wav;base64,${data()}`, format: 'wav' } })), 400, 'input_audio.data', /not a data URI/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: '', format: 'pcm' } })), 400, 'input_audio.data', /must not be empty/);
  });

  it('a WAV or an MP3 (or FLAC, Ogg) whose bytes are not of that format', async () => {
    for (const format of ['wav', 'mp3', 'flac', 'ogg']) {
      expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { data: data(), format } })), 400, 'input_audio.data', new RegExp(`not an? ${format === 'ogg' ? 'Ogg' : format.toUpperCase()} file`));
    }
    const upload = await multipart({ model: STT }, [['file', 'fake.wav', 'audio/wav', pcm]]);
    expectRefusal(await gateway.handle(transcription(upload.body, { 'content-type': upload.type })), 400, 'file', /not a WAV file/);
  });

  it('a multipart body with no file part, two files, a file of unknown format, a text field for a file, or no boundary', async () => {
    const none = await multipart({ model: STT }, []);
    expectRefusal(await gateway.handle(transcription(none.body, { 'content-type': none.type })), 400, 'file', /required/);
    const two = await multipart({ model: STT }, [['file', 'a.pcm', '', pcm], ['file', 'b.pcm', '', pcm]]);
    expectRefusal(await gateway.handle(transcription(two.body, { 'content-type': two.type })), 400, 'file', /one file, got 2/);
    const unknown = await multipart({ model: STT }, [['file', 'clip.bin', 'application/octet-stream', pcm]]);
    expectRefusal(await gateway.handle(transcription(unknown.body, { 'content-type': unknown.type })), 400, 'file', /not known from its name "clip\.bin"/);
    const text = await multipart({ model: STT, file: 'just text' }, []);
    expectRefusal(await gateway.handle(transcription(text.body, { 'content-type': text.type })), 400, 'file', /a text field/);
    const deep = await multipart({ model: STT, trace: '['.repeat(100_000) + ']'.repeat(100_000) }, [['file', 'a.pcm', '', pcm]]);
    expectRefusal(await gateway.handle(transcription(deep.body, { 'content-type': deep.type })), 400, 'trace', /nested deeper than 64 levels/);
    const broken = await gateway.handle(transcription(utf8.encode('--x\r\n'), { 'content-type': 'multipart/form-data' }));
    expect(broken.status).toBe(400);
    expect(json(broken).error!.message).toMatch(/^Invalid multipart body: /);
  });

  it('an unknown model, a chat model, a speech model', async () => {
    const body = (model: string) => transcription({ model, input_audio: { data: data(), format: 'pcm' } });
    expect(json(await gateway.handle(body('nobody/nothing'))).error).toEqual({ code: 400, message: 'Model nobody/nothing does not exist', metadata: { error_type: 'invalid_request' } });
    expect(json(await gateway.handle(body('openai/gpt-4o-mini'))).error!.message).toMatch(/^Model openai\/gpt-4o-mini does not support transcription \(its output modalities are text\)/);
    expect(json(await gateway.handle(body(TTS))).error!.message).toMatch(/does not support transcription \(its output modalities are speech\)/);
  });

  it("options the model does not take: diarize with json, diarize, keyterms and a URL on whisper-1, verbose_json on gpt-4o-transcribe", async () => {
    const audio = { data: data(), format: 'pcm' };
    expectRefusal(await gateway.handle(transcription({ model: 'assemblyai/universal-3-5-pro', input_audio: audio, diarize: true })), 400, 'diarize', /verbose_json/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, diarize: true, response_format: 'verbose_json' })), 400, 'diarize', /does not label speakers/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, keyterms: ['mockrouter'] })), 400, 'keyterms', /does not take key terms/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: { url: 'https://audio.example/a.wav' } })), 400, 'input_audio.url', /does not take audio by URL/);
    expectRefusal(await gateway.handle(transcription({ model: 'openai/gpt-4o-transcribe', input_audio: audio, response_format: 'verbose_json' })), 400, 'response_format', /supported: json/);
  });

  it('fields of the wrong type, each named', async () => {
    const audio = { data: data(), format: 'pcm' };
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, temperature: 'hot' })), 400, 'temperature');
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, response_format: 'srt' })), 400, 'response_format', /must be one of json, verbose_json, got string "srt"$/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, timestamp_granularities: ['char'] })), 400, 'timestamp_granularities[0]');
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, language: 'english!' })), 400, 'language', /ISO-639-1/);
    expectRefusal(await gateway.handle(transcription({ model: STT, input_audio: audio, session_id: 'x'.repeat(257) })), 400, 'session_id', /256/);
  });
});

describe('the limits, through the standalone server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('a multipart file over 25 MB is 413 naming file; one of 2 MB is read; a speech body over 1 MiB is still 413', async () => {
    const post = (body: BodyInit, type?: string) =>
      fetch(`${server.baseUrl}/audio/transcriptions`, { method: 'POST', headers: { Authorization: KEY.authorization, ...(type ? { 'Content-Type': type } : {}) }, body });
    const tooBig = new FormData();
    tooBig.append('model', STT);
    tooBig.append('file', new Blob([new Uint8Array(MAX_UPLOAD_BYTES + 1)]), 'big.aac');
    const refused = await post(tooBig);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^file: 26214401 bytes is over the limit of 26214400 bytes/);
    const fits = new FormData();
    fits.append('model', STT);
    fits.append('file', new Blob([new Uint8Array(2 * 1024 * 1024).fill(7)]), 'fits.aac');
    const heard = await post(fits);
    expect(heard.status).toBe(200);
    expect(((await heard.json()) as { text: string }).text.split(' ').length).toBeGreaterThan(200); // 131 s of audio by size
    const speech = await fetch(`${server.baseUrl}/audio/speech`, { method: 'POST', headers: { Authorization: KEY.authorization, 'Content-Type': 'application/json' }, body: JSON.stringify({ model: TTS, voice: 'alloy', input: 'x'.repeat(1024 * 1024) }) });
    expect(speech.status).toBe(413);
  });

  it('a JSON body over 64 MiB is 413, refused by its Content-Length before it is read', async () => {
    const response = await fetch(`${server.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { Authorization: KEY.authorization, 'Content-Type': 'application/json' },
      body: new Uint8Array(64 * 1024 * 1024 + 1).fill(0x20),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Request body is over the limit of 67108864 bytes');
  });
});

describe('generated garbage, never a 5xx', () => {
  /** A request of generated garbage: JSON of any shape, near-valid JSON, or a multipart upload of random parts. */
  const garbage = fc.oneof(
    fc.jsonValue().map((value) => transcription(value)),
    fc
      .record({
        model: fc.oneof(fc.constant(STT), fc.string()),
        input_audio: fc.oneof(fc.record({ data: fc.oneof(fc.base64String(), fc.string()), format: fc.oneof(fc.constantFrom('wav', 'mp3', 'pcm', 'flac', 'ogg', 'aac'), fc.string()) }), fc.jsonValue()),
        response_format: fc.oneof(fc.constantFrom('json', 'verbose_json'), fc.jsonValue()),
        timestamp_granularities: fc.oneof(fc.array(fc.constantFrom('word', 'segment')), fc.jsonValue()),
        diarize: fc.oneof(fc.boolean(), fc.jsonValue()),
      }, { requiredKeys: [] })
      .map((body) => transcription(body)),
    fc.uint8Array({ maxLength: 2048 }).map((bytes) => transcription(bytes)),
    fc
      .tuple(
        fc.dictionary(fc.string({ maxLength: 24 }), fc.string({ maxLength: 64 }), { maxKeys: 6 }),
        fc.array(fc.tuple(fc.constantFrom('file', 'model', 'x'), fc.string({ maxLength: 24 }), fc.constantFrom('', 'audio/wav', 'audio/mpeg', 'text/plain', 'audio/pcm'), fc.uint8Array({ maxLength: 4096 })), { maxLength: 3 }),
        fc.boolean(),
      )
      .map(([fields, files, withModel]) => ({ fields: withModel ? { ...fields, model: STT } : fields, files })),
  );

  it('answers every one with a success or an envelope whose code is its status, and the next valid request as before', async () => {
    const valid = transcription({ model: STT, input_audio: { data: Buffer.from(pcm).toString('base64'), format: 'pcm' } });
    await fc.assert(
      fc.asyncProperty(garbage, async (made) => {
        let request: CoreRequest;
        if ('fields' in made) {
          const upload = await multipart(made.fields, made.files as Array<[string, string, string, Uint8Array]>);
          request = transcription(upload.body, { 'content-type': upload.type });
        } else request = made;
        const response = await gateway.handle(request);
        expect(response.status).toBeLessThan(500);
        const answer = json(response);
        if (response.status !== 200) expect(answer.error?.code).toBe(response.status);
        else expect(typeof answer.text).toBe('string');
        const after = await gateway.handle(valid);
        expect(json(after).text).toBe('Known words.');
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});

describe('invented transcripts', () => {
  const foreign = (seconds: number, fill: number) => wavOf(new Uint8Array(Math.round(seconds * 48_000)).map((_, i) => (i * fill) & 0xff));
  const heard = async (bytes: Uint8Array) => json(await gateway.handle(transcription({ model: STT, input_audio: { data: Buffer.from(bytes).toString('base64'), format: 'wav' } }))).text!;

  it('are the same for the same clip, differ between clips, and run about 2.5 words a second', async () => {
    const ten = foreign(10, 31);
    expect(await heard(ten)).toBe(await heard(ten));
    expect(await heard(foreign(10, 37))).not.toBe(await heard(ten));
    const words = (await heard(ten)).split(' ').length;
    expect(words).toBeGreaterThanOrEqual(20);
    expect(words).toBeLessThanOrEqual(30);
    expect(await heard(foreign(0.1, 31))).toBe('');
  });

  it('differ between seeds', async () => {
    const other = createGateway({ seed: 5 });
    const clip = foreign(4, 41);
    const there = json(await other.handle(transcription({ model: STT, input_audio: { data: Buffer.from(clip).toString('base64'), format: 'wav' } }))).text;
    expect(there).not.toBe(await heard(clip));
  });
});
