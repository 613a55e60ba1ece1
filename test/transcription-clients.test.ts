/**
 * Transcription as its users call it, in every mode (`test/support/modes.ts`): speech the mock said, transcribed back
 * by the official clients (`@openrouter/sdk` 1.3.19 `stt.createTranscription` and `stt.createTranscriptionMultipart`,
 * whose response schemas check the answer's shape; the `openai` client's `audio.transcriptions.create`), exactly to
 * the input, in both speech modes; the generation record it leaves; and each status the SDK maps reaching its typed
 * error (`docs/transcription.md`).
 */
import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modes, type RunningMode } from './support/modes.js';
import { STT, TTS } from './support/speech-model.js';
import { wavOf } from './support/wav.js';

const KEY = 'sk-heard';
const INPUT = 'Every word comes back, in order: nothing more and nothing less.';
const WORDS = ['Every', 'word', 'comes', 'back', 'in', 'order', 'nothing', 'more', 'and', 'nothing', 'less'];
const GEN_ID = /^gen-stt-\d{10}-[A-Za-z0-9]{20}$/;
/** whisper-1's price, USD a second of audio ($0.006 a minute). */
const PER_SECOND = 0.0001;

/** Each status `stt.createTranscription` maps, and the SDK's class for it (`funcs/sttCreateTranscription`). */
const MAPPED: ReadonlyArray<readonly [number, abstract new (...args: never[]) => errors.OpenRouterError]> = [
  [400, errors.BadRequestResponseError],
  [401, errors.UnauthorizedResponseError],
  [402, errors.PaymentRequiredResponseError],
  [403, errors.ForbiddenResponseError],
  [404, errors.NotFoundResponseError],
  [413, errors.PayloadTooLargeResponseError],
  [429, errors.TooManyRequestsResponseError],
  [500, errors.InternalServerResponseError],
  [502, errors.BadGatewayResponseError],
  [503, errors.ServiceUnavailableResponseError],
  [504, errors.GatewayTimeoutResponseError],
  [524, errors.EdgeNetworkTimeoutResponseError],
  [529, errors.ProviderOverloadedResponseError],
];

describe.each(modes)('transcription through the official clients ($name)', (mode) => {
  let mock: RunningMode;
  let openRouter: OpenRouter;
  let openai: OpenAI;

  beforeAll(async () => {
    mock = await mode.start({ seed: 3, keys: [KEY] });
    openRouter = new OpenRouter({ serverURL: mock.baseUrl, apiKey: KEY, retryConfig: { strategy: 'none' } });
    // Built after `start`: the openai client takes the global fetch at construction, which msw patches.
    openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(() => mock.stop());

  /** The mock's speech of `input` in `format` (tones unless `speech` says words), whole. */
  async function said(input: string, format: 'pcm' | 'mp3', speech: 'tones' | 'words' = 'tones'): Promise<Uint8Array> {
    const response = await fetch(`${mock.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'X-Mock-Speech': speech },
      body: JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: format }),
    });
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  }

  it('stt.createTranscription: the PCM the mock said, as base64 JSON, is its input; usage is its seconds at the model price', async () => {
    const pcm = await said(INPUT, 'pcm');
    const answer = await openRouter.stt.createTranscription({ sttRequest: { model: STT, inputAudio: { data: Buffer.from(pcm).toString('base64'), format: 'pcm' } } });
    expect(answer.text).toBe(INPUT);
    const seconds = Math.ceil(pcm.byteLength / 48_000);
    expect(answer.usage).toEqual({ seconds, cost: Number((seconds * PER_SECOND).toFixed(12)) });
  });

  it('stt.createTranscriptionMultipart: the MP3 the mock said, uploaded, is its input, with segments and word times (verbose_json)', async () => {
    const mp3 = await said(INPUT, 'mp3');
    const answer = await openRouter.stt.createTranscriptionMultipart({
      requestBody: { model: STT, file: { fileName: 'speech.mp3', content: mp3 }, responseFormat: 'verbose_json', timestampGranularities: ['word', 'segment'] },
    });
    expect(answer.text).toBe(INPUT);
    expect(answer.task).toBe('transcribe');
    expect(answer.language).toBe('english');
    expect(answer.words!.map((w) => w.word)).toEqual(WORDS);
    expectTimes(answer.words!, answer.duration!);
    expect(answer.segments!.map((s) => s.text).join(' ')).toBe(INPUT);
  });

  it('openai audio.transcriptions.create: an MP3 file, a WAV of the PCM, and verbose_json word times within the audio', async () => {
    const mp3 = await said(INPUT, 'mp3');
    const plain = await openai.audio.transcriptions.create({ file: await toFile(mp3, 'speech.mp3'), model: STT });
    expect(plain.text).toBe(INPUT);
    const pcm = await said(INPUT, 'pcm');
    const verbose = await openai.audio.transcriptions.create({
      file: await toFile(wavOf(pcm), 'speech.wav', { type: 'audio/wav' }),
      model: STT,
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(verbose.text).toBe(INPUT);
    expect(Math.abs(verbose.duration - pcm.byteLength / 48_000)).toBeLessThan(0.001);
    const named = await openai.audio.transcriptions.create({ file: await toFile(mp3, 'speech.mp3'), model: STT, response_format: 'verbose_json', language: 'de' });
    expect(named.language).toBe('german');
    expect(verbose.words!.map((w) => w.word)).toEqual(WORDS);
    expectTimes(verbose.words!, verbose.duration);
  });

  it('speech with words (X-Mock-Speech: words) transcribes to its input too, as PCM and as MP3', async () => {
    for (const format of ['pcm', 'mp3'] as const) {
      const audio = await said(INPUT, format, 'words');
      const answer = await openRouter.stt.createTranscription({
        sttRequest: { model: STT, inputAudio: { data: Buffer.from(audio).toString('base64'), format }, responseFormat: 'verbose_json', timestampGranularities: ['word'] },
      });
      expect(answer.text, format).toBe(INPUT);
      expect(answer.words!.map((w) => w.word)).toEqual(WORDS);
      expectTimes(answer.words!, answer.duration!);
    }
  });

  it('finds the audio whichever replica said it: the journal names the replica of the speech and of its transcription', async () => {
    const pcm = await said('Said here, heard there.', 'pcm');
    const answer = await openRouter.stt.createTranscription({ sttRequest: { model: STT, inputAudio: { data: Buffer.from(pcm).toString('base64'), format: 'pcm' } } });
    expect(answer.text).toBe('Said here, heard there.');
    const [speech, heard] = (await mock.gateway.sharedJournal.list()).slice(-2);
    expect(speech!.operation).toBe('speech');
    expect(heard!.transcription).toMatchObject({ source: 'said', text: 'Said here, heard there.' });
    // Behind the round-robin forwarder of the replicas mode, one after the other are two replicas.
    if (mode.name === 'replicas') expect(heard!.replica).not.toBe(speech!.replica);
  });

  it('leaves a generation record: X-Generation-Id gen-stt-…, api_type stt, the cost of the answer', async () => {
    const pcm = await said(INPUT, 'pcm');
    const response = await fetch(`${mock.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: STT, input_audio: { data: Buffer.from(pcm).toString('base64'), format: 'pcm' } }),
    });
    const id = response.headers.get('x-generation-id');
    expect(id).toMatch(GEN_ID);
    const answer = (await response.json()) as { usage: { cost: number } };
    const record = await openRouter.generations.getGeneration({ id: id! });
    expect(record.data).toMatchObject({ id, model: STT, apiType: 'stt', totalCost: answer.usage.cost, providerName: 'OpenAI' });
  });

  it('X-Mock-Status: every status the SDK maps reaches its typed error, with the gateway envelope', async () => {
    const pcm = Buffer.from(await said('Short.', 'pcm')).toString('base64');
    for (const [status, type] of MAPPED) {
      const error = await openRouter.stt
        .createTranscription({ sttRequest: { model: STT, inputAudio: { data: pcm, format: 'pcm' } } }, { headers: { 'X-Mock-Status': String(status) } })
        .then(
          () => expect.fail(`expected ${type.name} for ${status}`),
          (e: unknown) => e,
        );
      if (error instanceof errors.ResponseValidationError || error instanceof errors.SDKValidationError) expect.fail(`${status}: ${error.message}`);
      expect(error, String(status)).toBeInstanceOf(type);
      const typed = error as errors.OpenRouterError;
      expect(typed.statusCode).toBe(status);
      expect((JSON.parse(typed.body) as { error: { code: number } }).error.code).toBe(status);
    }
  });
});

/** Word times as a transcript gives them: each `end ≥ start`, starts in order, all within the audio's `duration`. */
function expectTimes(words: ReadonlyArray<{ start: number; end: number }>, duration: number): void {
  let before = 0;
  for (const word of words) {
    expect(word.start).toBeGreaterThanOrEqual(before);
    expect(word.end).toBeGreaterThanOrEqual(word.start);
    expect(word.end).toBeLessThanOrEqual(duration + 0.001);
    before = word.start;
  }
}
