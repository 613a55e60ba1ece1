/**
 * The speech request as the gateway's newer SDKs send it (`POST /api/v1/audio/speech`; `docs/behaviour.md`, "Speech",
 * "Reference clips and images", "Data policy" and "Speed"), through every mode: `input_references` (1 to 3 reference
 * clips, each optionally followed by its transcript, named in the input as `@AudioN`; or one image for voice design),
 * `provider.zdr` and `provider.data_collection` (a request no endpoint meets is the gateway's 404), `speed` on a model
 * without speed control (ignored, or refused where the catalog says so), and `voice` required with the model's voices
 * named. Each refusal names its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, modes, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const SEED = 'bytedance/seed-audio-1.0';
const FISH = 'fish-audio/s2.1-pro';
const GEMINI = 'google/gemini-3.1-flash-tts-preview';
const clip = (n: number) => ({ type: 'input_audio', input_audio: { data: Buffer.from(`RIFF clip ${n}`).toString('base64'), format: 'wav' } });
const transcript = (text: string) => ({ type: 'text', text });
const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from('PNG image').toString('base64')}` } };

describe.each(modes)('the newer speech request shapes ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 5 });
  });
  afterAll(() => mock.stop());

  const speech = (body: Record<string, unknown>) => postSpeech(mock.baseUrl, { model: SEED, voice: 'any-speaker', input: 'Hello there.', ...body }, auth());
  const ok = async (body: Record<string, unknown>) => {
    const res = await speech(body);
    expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    return res;
  };
  const refused = async (body: Record<string, unknown>, status: number, message: string) => {
    const res = await speech(body);
    expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(status);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message);
  };
  const generationOf = async (res: Response) => {
    const got = await fetch(`${mock.baseUrl}/generation?id=${res.headers.get('x-generation-id')}`, { headers: auth() });
    return ((await got.json()) as { data: { provider_name: string | null } }).data;
  };

  it('takes 1 to 3 reference clips, each optionally followed by its transcript, named in the input as @Audio1 to @Audio3', async () => {
    await ok({ input_references: [clip(1)] });
    await ok({ input: '@Audio1 says hello.', input_references: [clip(1), transcript('The first clip.')] });
    await ok({ input: '@Audio1 greets @Audio2, then @Audio3 answers.', input_references: [clip(1), transcript('One.'), clip(2), clip(3), transcript('Three.')] });
    await ok({ input_references: [] });
  });

  it('refuses a fourth clip, a transcript with no clip before it, and an @AudioN with no such clip, naming the part', async () => {
    await refused({ input_references: [clip(1), clip(2), clip(3), clip(4)] }, 400, 'input_references: must hold at most 3 input_audio parts, got 4');
    await refused({ input_references: [transcript('Orphan.'), clip(1)] }, 400, 'input_references[0]: a text part must follow the input_audio part it transcribes');
    await refused({ input_references: [clip(1), transcript('One.'), transcript('Again.')] }, 400, 'input_references[2]: a text part must follow the input_audio part it transcribes');
    await refused({ input: '@Audio2 speaks.', input_references: [clip(1)] }, 400, 'input: @Audio2 names no reference clip (input_references holds 1 input_audio part)');
    await refused({ input: '@Audio1 speaks.' }, 400, 'input: @Audio1 names no reference clip (input_references holds no input_audio part)');
    await refused({ input: 'Then @Audio0.', input_references: [clip(1)] }, 400, 'input: @Audio0 names no reference clip (input_references holds 1 input_audio part)');
  });

  it("names the turn whose @AudioN has no clip, on a model that takes turns and clips (Fish Audio S2.1 Pro)", async () => {
    const turns = [{ text: '@Audio1 first.' }, { text: 'Then @Audio2.', voice: 'other-id' }];
    await refused({ model: FISH, input: turns, input_references: [clip(1)] }, 400, 'input[1].text: @Audio2 names no reference clip (input_references holds 1 input_audio part)');
    await ok({ model: FISH, input: turns, input_references: [clip(1), clip(2)] });
  });

  it('takes exactly one image for voice design on a model whose inputs include image, and never mixed with clips', async () => {
    await ok({ input_references: [image] });
    await refused({ input_references: [image, clip(1)] }, 400, 'input_references[0]: an image_url part must be the only part (voice design from one image does not mix with reference clips or text), got 2 parts');
    await refused({ input_references: [clip(1), image] }, 400, 'input_references[1]: an image_url part must be the only part (voice design from one image does not mix with reference clips or text), got 2 parts');
    await refused({ input_references: [{ type: 'image_url', image_url: { url: 'https://example.com/face.png' } }] }, 400, 'input_references[0].image_url.url: must be a data URL of an image (data:image/png;base64,...)');
    await refused({ input_references: [{ type: 'image_url' }] }, 400, 'input_references[0].image_url: required, an object {url}');
  });

  it('refuses a reference of a kind the model does not take, naming its input modalities', async () => {
    await refused({ model: FISH, input_references: [image] }, 400, `input_references: model ${FISH} does not take a reference image (voice design); its input modalities are text, audio`);
    await refused({ model: TTS, voice: 'alloy', input_references: [clip(1)] }, 400, `input_references: model ${TTS} does not take reference audio (voice cloning); its input modalities are text`);
  });

  it('routes by provider.zdr and provider.data_collection, and answers 404 when no endpoint meets them', async () => {
    // Seed Audio's provider has no policy written in the catalog: the gateway's stance, retains and trains.
    await refused({ provider: { zdr: true } }, 404, 'No endpoints found matching your data policy (Zero data retention). Configure: https://openrouter.ai/settings/privacy');
    await refused({ provider: { data_collection: 'deny' } }, 404, 'No endpoints found matching your data policy (Paid model training). Configure: https://openrouter.ai/settings/privacy');
    await refused({ provider: { zdr: true, data_collection: 'deny' } }, 404, 'No endpoints found matching your data policy (Zero data retention, Paid model training). Configure: https://openrouter.ai/settings/privacy');
    await ok({ provider: { zdr: null, data_collection: 'allow' } });
    // OpenAI keeps prompts a while but does not train on them; Deepgram trains; Kokoro on DeepInfra retains nothing.
    await ok({ model: TTS, voice: 'alloy', provider: { data_collection: 'deny' } });
    await refused({ model: TTS, voice: 'alloy', provider: { zdr: true } }, 404, 'No endpoints found matching your data policy (Zero data retention). Configure: https://openrouter.ai/settings/privacy');
    await refused({ model: 'deepgram/aura-2', voice: 'aura-2-thalia-en', provider: { data_collection: 'deny' } }, 404, 'No endpoints found matching your data policy (Paid model training). Configure: https://openrouter.ai/settings/privacy');
    const kokoro = await ok({ model: 'hexgrad/kokoro-82m', voice: 'af_heart', provider: { zdr: true, data_collection: 'deny' } });
    expect((await generationOf(kokoro)).provider_name).toBe('DeepInfra');
    await refused({ provider: { zdr: 'yes' } }, 400, 'provider.zdr: must be a boolean or null');
    await refused({ provider: { data_collection: 'never' } }, 400, 'provider.data_collection: must be "allow", "deny" or null');
  });

  it('applies the same data policy to transcription: whisper-1 (OpenAI) is not ZDR, chirp-3 (Google Vertex) is', async () => {
    const transcribe = (model: string) =>
      fetch(`${mock.baseUrl}/audio/transcriptions`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ model, input_audio: { data: Buffer.alloc(4800).toString('base64'), format: 'pcm' }, provider: { zdr: true } }),
      });
    const refusedStt = await transcribe('openai/whisper-1');
    expect(refusedStt.status).toBe(404);
    expect(((await refusedStt.json()) as { error: { message: string } }).error.message).toMatch(/^No endpoints found matching your data policy \(Zero data retention\)/);
    const heard = await transcribe('google/chirp-3');
    expect(heard.status).toBe(200);
    expect((await generationOf(heard)).provider_name).toBe('Google');
  });

  it('refuses a speed other than 1 on Gemini TTS (no speed control, refused), and ignores it on Voxtral (no speed control, ignored)', async () => {
    await refused({ model: GEMINI, voice: 'Puck', speed: 1.5 }, 400, `speed: model ${GEMINI} has no speed control and takes only the default, 1; got 1.5 (leave speed out)`);
    await ok({ model: GEMINI, voice: 'Puck', speed: 1 });
    const voxtral = { model: 'mistralai/voxtral-mini-tts-2603', voice: 'en_paul_neutral' };
    const [fast, plain] = await Promise.all([speech({ ...voxtral, speed: 2 }), speech(voxtral)]);
    expect([fast.status, plain.status]).toEqual([200, 200]);
    const [a, b] = await Promise.all([fast.arrayBuffer(), plain.arrayBuffer()]);
    expect(a.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("requires voice, naming the model's voices (or that it takes any id), though the SDKs' types let it be left out", async () => {
    const res = await postSpeech(mock.baseUrl, { model: TTS, input: 'Hi.' }, auth());
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      "voice: required here (the gateway's SDKs let it be left out for a model's default voice; this simulator requires it); supported voices: alloy, ash, ballad, coral, echo, fable, onyx, nova, sage, shimmer, verse, marin, cedar",
    );
    await refused({ model: FISH, voice: '' }, 400, `voice: must not be empty here (the gateway's SDKs let it be left out for a model's default voice; this simulator requires it); model ${FISH} takes any voice id of its provider (it lists none)`);
    await refused({ voice: 7 }, 400, 'voice: must be a string, got number 7');
  });

  it('names a long wrong value by its first 100 characters, not the whole of it', async () => {
    await refused({ response_format: 'w'.repeat(100_000) }, 400, `response_format: must be one of mp3, pcm, got string "${'w'.repeat(100)}…"`);
    await refused({ response_format: 'wav' }, 400, 'response_format: must be one of mp3, pcm, got string "wav"');
  });
});
