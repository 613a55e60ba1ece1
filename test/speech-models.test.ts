/**
 * Speech model discovery (`GET /api/v1/audio/speech/models` and `/audio/speech/models/{author}/{slug}`;
 * `docs/behaviour.md`, "Speech model discovery"), through every mode: both paths answer shapes that the schema
 * written from the gateway's docs pages accepts, 404 and 401 as every read, and the list says exactly what
 * `POST /audio/speech` accepts: every listed voice × format answers 200, a voice in no endpoint's enum 400, `speed`
 * within the listed range only. The envelope rule (a model's parameters cover its endpoints') is checked on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf } from '../src/core/catalog/speech-models.js';
import { SpeechModelAnswerSchema, SpeechModelsListResponseSchema } from '../src/core/formats/speech-model-schema.js';
import { auth, modes, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

type Listed = ReturnType<typeof SpeechModelsListResponseSchema.parse>['data'][number];

describe.each(modes)('speech model discovery ($name)', (mode) => {
  let mock: RunningMode;
  let listed: Listed[];
  beforeAll(async () => {
    mock = await mode.start({ seed: 3 });
    const res = await fetch(`${mock.baseUrl}/audio/speech/models`, { headers: auth() });
    listed = SpeechModelsListResponseSchema.parse(await res.json()).data;
  });
  afterAll(() => mock.stop());

  const get = (path: string, headers: Record<string, string> = auth()) => fetch(`${mock.baseUrl}${path}`, { headers });
  const speech = (body: Record<string, unknown>) =>
    postSpeech(mock.baseUrl, { input: 'Hi.', ...body }, auth());

  it('lists every speech model of the catalog, and only those, in the documented shape', async () => {
    const res = await get('/audio/speech/models');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const all = (await (await get('/models?output_modalities=speech')).json()) as { data: { id: string }[] };
    expect(listed.map((model) => model.id)).toEqual(all.data.map((model) => model.id));
    for (const model of listed) {
      expect(model.output_modalities).toHaveLength(1);
      expect(model.endpoints.length).toBeGreaterThan(0);
      expect(model.input_modalities).toContainEqual({ type: 'text' });
    }
  });

  it('answers one model by its path, the same as its entry in the list', async () => {
    for (const model of listed) {
      const res = await get(`/audio/speech/models/${model.id}`);
      expect(res.status).toBe(200);
      expect(SpeechModelAnswerSchema.parse(await res.json()).data).toEqual(model);
    }
  });

  it('404 for a model that does not exist or does not speak; 401 without a key, on both paths', async () => {
    for (const id of ['nobody/nothing', 'openai/gpt-4o-mini']) {
      const res = await get(`/audio/speech/models/${id}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`Speech model ${id} not found`);
    }
    for (const path of ['/audio/speech/models', `/audio/speech/models/${listed[0]!.id}`]) expect((await get(path, {})).status).toBe(401);
  });

  it('every listed voice × format answers 200; a voice in no endpoint’s enum, 400', async () => {
    for (const model of listed) {
      const parameters = model.output_modalities[0]!.supported_parameters;
      const voices = parameters.voice?.type === 'enum' ? parameters.voice.values : ['any-voice-id'];
      for (const voice of voices) {
        for (const format of parameters.response_format!.values) {
          const res = await speech({ model: model.id, voice, response_format: format });
          expect(res.status, `${model.id} ${voice} ${format}`).toBe(200);
          await res.arrayBuffer();
        }
      }
      if (parameters.voice?.type === 'enum') {
        const res = await speech({ model: model.id, voice: 'no-such-voice' });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^voice: "no-such-voice" is not supported by model /);
      }
    }
  }, 120_000);

  it('speed is taken within the listed range where one is listed, refused where the model says so, and ignored elsewhere', async () => {
    for (const model of listed) {
      const parameters = model.output_modalities[0]!.supported_parameters;
      const voice = parameters.voice?.type === 'enum' ? parameters.voice.values[0] : 'any-voice-id';
      const outside = await speech({ model: model.id, voice, speed: 4.5 });
      const refuses = model.id === 'google/gemini-3.1-flash-tts-preview';
      expect(outside.status, model.id).toBe(parameters.speed || refuses ? 400 : 200);
      await outside.arrayBuffer();
    }
  });

  it('checks the newer request fields, naming each (session_id, instructions, input_references)', async () => {
    const refused = async (body: Record<string, unknown>, message: string) => {
      const res = await speech({ model: TTS, voice: 'alloy', ...body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
    };
    await refused({ session_id: 's'.repeat(257) }, 'session_id: must be at most 256 characters');
    await refused({ instructions: 5 }, 'instructions: must be a string, got number 5');
    await refused({ input_references: 'x' }, 'input_references: must be an array of reference parts');
    await refused({ input_references: [{ type: 'image' }] }, 'input_references[0].type: must be "input_audio", "text" or "image_url", got string "image"');
    await refused({ input_references: [{ type: 'text', text: 't'.repeat(10_001) }] }, 'input_references[0].text: must be at most 10000 characters');
    await refused({ input_references: [{ type: 'text', text: 'hi' }] }, 'input_references[0]: a text part must follow the input_audio part it transcribes');
    await refused(
      { input_references: [{ type: 'input_audio', input_audio: { data: 'UklGR' } }] },
      `input_references: model ${TTS} does not take reference audio (voice cloning); its input modalities are text`,
    );
    for (const body of [{ session_id: 's'.repeat(256) }, { instructions: 'Speak warmly.' }, { input_references: [] }]) {
      const res = await speech({ model: TTS, voice: 'alloy', ...body });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });

  it('journals both reads under their operation names', async () => {
    await get('/audio/speech/models');
    await get(`/audio/speech/models/${listed[0]!.id}`);
    await mock.gateway.sync();
    const operations = (await mock.gateway.sharedJournal.list()).map((entry) => entry.operation);
    expect(operations).toEqual(expect.arrayContaining(['speech-models', 'speech-model']));
  });
});

describe('the envelope of a model’s endpoints', () => {
  it('unions enums, widens ranges, and is unknown where any endpoint takes any voice', () => {
    expect(
      envelopeOf([
        { voice: { type: 'enum', values: ['a', 'b'] }, response_format: { type: 'enum', values: ['pcm'] }, speed: { type: 'range', min: 0.5, max: 2 } },
        { voice: { type: 'enum', values: ['b', 'c'] }, response_format: { type: 'enum', values: ['mp3', 'pcm'] }, speed: { type: 'range', min: 0.7, max: 4 } },
      ]),
    ).toEqual({ voice: { type: 'enum', values: ['a', 'b', 'c'] }, response_format: { type: 'enum', values: ['pcm', 'mp3'] }, speed: { type: 'range', min: 0.5, max: 4 } });
    expect(envelopeOf([{ voice: { type: 'enum', values: ['a'] } }, { voice: { type: 'unknown' }, instructions: { type: 'unknown' } }])).toEqual({ voice: { type: 'unknown' }, instructions: { type: 'unknown' } });
    expect(envelopeOf([{ response_format: { type: 'enum', values: ['mp3'] } }, {}])).toEqual({ response_format: { type: 'enum', values: ['mp3'] } });
  });
});
