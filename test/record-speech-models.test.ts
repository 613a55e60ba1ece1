/**
 * `mockrouter record` keeps the speech model discovery reads (`GET /audio/speech/models` and
 * `GET /audio/speech/models/{author}/{slug}`): `--fixtures` then serves, for each speech model recorded, what the
 * upstream's discovery answer said it takes (voices, formats, speed range, instructions, input modalities), and a
 * speech request is checked against it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelsFileSchema } from '../src/core/formats/fixture-schema.js';
import { SpeechModelsListResponseSchema } from '../src/core/formats/speech-model-schema.js';
import type { SpeechModelResponse } from '../src/core/catalog/speech-models.js';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { startRecorder } from '../src/recorder/index.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest } from './support/speech-request.js';

const KEY = 'sk-live-secret-123';
const AUTH = { Authorization: `Bearer ${KEY}` };
const MAI = 'microsoft/mai-voice-2';

/** The speech model discovery list of a gateway loaded from the recorded folder `dir` (`--fixtures`). */
async function servedFrom(dir: string): Promise<{ list: SpeechModelResponse[]; speak: (model: string, voice: string, speed?: number) => Promise<number> }> {
  const gateway = createGateway({ fixtures: dir });
  const answer = await gateway.handle({ method: 'GET', path: '/api/v1/audio/speech/models', query: '', headers: { authorization: `Bearer ${KEY}` } });
  expect(answer.status).toBe(200);
  const list = SpeechModelsListResponseSchema.parse(JSON.parse(typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body as Uint8Array).toString('utf8'))).data as SpeechModelResponse[];
  const speak = async (model: string, voice: string, speed?: number) => {
    const body = { model, input: 'Hello.', voice, response_format: 'mp3', ...(speed === undefined ? {} : { speed }) };
    const response = await gateway.handle(coreSpeechRequest(body, { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }));
    return response.status;
  };
  return { list, speak };
}

async function getJson(url: string): Promise<{ data: unknown }> {
  const response = await fetch(url, { headers: AUTH });
  expect(response.status, url).toBe(200);
  return (await response.json()) as { data: unknown };
}

describe('mockrouter record, speech model discovery', () => {
  let upstream: RunningServer;
  const dirs: string[] = [];
  const folder = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `mockrouter-record-${name}-`));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    upstream = await startServer({ port: 0, seed: 1, keys: [KEY] });
  });
  afterAll(async () => {
    await upstream?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('records the list and lookups so that --fixtures serves them as the upstream did', async () => {
    const out = folder('speech-models');
    const recorder = await startRecorder({ upstream: upstream.url, out, port: 0 });
    let direct: SpeechModelResponse[];
    try {
      await getJson(`${recorder.baseUrl}/models?output_modalities=speech`);
      const list = SpeechModelsListResponseSchema.parse(await getJson(`${recorder.baseUrl}/audio/speech/models`)).data as SpeechModelResponse[];
      direct = SpeechModelsListResponseSchema.parse(await getJson(`${upstream.baseUrl}/audio/speech/models`)).data as SpeechModelResponse[];
      expect(list).toEqual(direct);
      for (const id of [MAI, TTS]) {
        const through = await getJson(`${recorder.baseUrl}/audio/speech/models/${id}`);
        expect(through.data).toEqual(direct.find((model) => model.id === id));
      }
    } finally {
      await recorder.close();
    }

    const served = await servedFrom(out);
    // Every speech model of the upstream, answered alike: ids, voices, formats, ranges, instructions, inputs.
    expect(served.list.map((model) => model.id).sort()).toEqual(direct.map((model) => model.id).sort());
    for (const model of direct) {
      const mine = served.list.find((m) => m.id === model.id)!;
      expect(mine.input_modalities, model.id).toEqual(model.input_modalities);
      expect(mine.output_modalities, model.id).toEqual(model.output_modalities);
    }
    const mai = served.list.find((model) => model.id === MAI)!;
    expect(mai.output_modalities[0]!.supported_parameters).toMatchObject({ voice: { type: 'unknown' }, speed: { type: 'range', min: 0.5, max: 2 } });
    expect(mai.output_modalities[0]!.supported_parameters.instructions).toBeUndefined();
    const tts = served.list.find((model) => model.id === TTS)!;
    expect(tts.output_modalities[0]!.supported_parameters).toMatchObject({ speed: { type: 'range', min: 0.25, max: 4 }, instructions: { type: 'unknown' }, response_format: { type: 'enum', values: ['mp3', 'pcm'] } });

    // The speech checks follow: a voice outside the recorded enum is refused, a listed one (or any, for `unknown`) taken.
    expect(await served.speak(TTS, 'not-a-voice')).toBe(400);
    expect(await served.speak(TTS, 'alloy')).toBe(200);
    expect(await served.speak(MAI, 'en-US-AnyVoice')).toBe(200);
  });

  describe('in front of an upstream whose discovery answer differs from the catalog', () => {
    let standIn: Server;
    let wanted: SpeechModelResponse;

    beforeAll(async () => {
      const record = (await getJson(`${upstream.baseUrl}/model/${TTS}`)).data;
      const original = (await getJson(`${upstream.baseUrl}/audio/speech/models/${TTS}`)).data as SpeechModelResponse;
      const parameters = { voice: { type: 'enum', values: ['alloy', 'nova'] }, response_format: { type: 'enum', values: ['mp3'] }, speed: { type: 'range', min: 0.5, max: 2 } } as const;
      const inputs = [{ type: 'text' }, { type: 'audio' }] as const;
      wanted = {
        ...original,
        input_modalities: inputs,
        output_modalities: [{ type: 'speech', supported_parameters: parameters }],
        endpoints: original.endpoints.map((endpoint) => ({ ...endpoint, input_modalities: inputs, output_modalities: [{ type: 'speech', supported_parameters: parameters }] })),
      };
      const answers: Record<string, unknown> = {
        [`/api/v1/model/${TTS}`]: { data: record },
        '/api/v1/audio/speech/models': { data: [wanted, { id: 'broken/model' }] },
      };
      standIn = createServer((req, res) => {
        const answer = answers[(req.url ?? '').split('?')[0]!];
        res.writeHead(answer === undefined ? 404 : 200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer ?? { error: { code: 404, message: 'Not Found' } }));
      });
      await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => standIn?.close(resolve));
    });

    it('serves exactly the recorded voices, formats, speed range and inputs, in either order of reads', async () => {
      for (const order of [['model', 'discovery'], ['discovery', 'model']] as const) {
        const out = folder('speech-stand-in');
        const notes: string[] = [];
        const logger = { info: (_: object, message?: string) => notes.push(message ?? ''), warn: (_: object, message?: string) => notes.push(message ?? '') };
        const recorder = await startRecorder({ upstream: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`, out, port: 0, logger });
        try {
          for (const read of order) await getJson(read === 'model' ? `${recorder.baseUrl}/model/${TTS}` : `${recorder.baseUrl}/audio/speech/models`);
        } finally {
          await recorder.close();
        }
        const file = ModelsFileSchema.parse(JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')));
        expect(file.models.find((model) => model.id === TTS)?.supported_voices).toEqual(['alloy', 'nova']);
        expect(file.speech[TTS]).toMatchObject({ response_formats: ['mp3'], speed_range: { min: 0.5, max: 2 }, input_modalities: ['audio'] });
        expect(file.speech[TTS]?.instructions).toBeUndefined();
        expect(file.speech[TTS]?.supports_speed).toBeUndefined();

        const served = await servedFrom(out);
        expect(served.list).toEqual([wanted]);
        expect(await served.speak(TTS, 'nova')).toBe(200);
        expect(await served.speak(TTS, 'ash')).toBe(400);
        expect(await served.speak(TTS, 'nova', 2)).toBe(200);
        expect(await served.speak(TTS, 'nova', 3)).toBe(400);
        expect(notes.join('\n'), order.join(' then ')).toMatch(/speech model #1: invalid/);
      }
    });
  });
});
