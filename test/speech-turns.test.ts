/**
 * Multi-speaker speech input (`POST /api/v1/audio/speech` with `input` a list of turns `{text, voice?, instructions?}`;
 * `docs/behaviour.md`, "Speech"), through every mode: in tones each turn is said in its own voice, one after the
 * other, so a PCM answer is exactly the answers of each turn sent alone, concatenated; refusals are 400s naming the
 * field (`input` for a model without multi-speaker input, `input[i].voice`, the summed character limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, modes, type RunningMode } from './support/modes.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const GEMINI = 'google/gemini-3.1-flash-tts-preview';
const FISH = 'fish-audio/s2.1-pro';

describe.each(modes)('multi-speaker speech input ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 3 });
  });
  afterAll(() => mock.stop());

  const speech = (body: Record<string, unknown>) => postSpeech(mock.baseUrl, { model: GEMINI, voice: 'Puck', response_format: 'pcm', ...body }, auth());
  const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());
  const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;

  it('says each turn in its own voice, in order: the PCM is each turn said alone, concatenated', async () => {
    const turns = [{ text: 'Hello there, how are you?' }, { text: 'Very well, thank you.', voice: 'Kore' }, { text: 'Good.', instructions: 'Say it warmly.' }];
    const res = await speech({ input: turns });
    expect(res.status).toBe(200);
    const whole = await bytes(res);
    const alone = [
      await bytes(await speech({ input: turns[0]!.text })),
      await bytes(await speech({ input: turns[1]!.text, voice: 'Kore' })),
      await bytes(await speech({ input: turns[2]!.text })),
    ];
    expect(whole.byteLength).toBe(alone.reduce((sum, part) => sum + part.byteLength, 0));
    let offset = 0;
    for (const part of alone) {
      expect(Buffer.from(whole.subarray(offset, offset + part.byteLength)).equals(Buffer.from(part))).toBe(true);
      offset += part.byteLength;
    }
  });

  it('says turns in MP3 too, for a model that takes them and MP3 (Fish Audio S2.1 Pro)', async () => {
    const res = await postSpeech(mock.baseUrl, { model: FISH, voice: 'any-voice-id', response_format: 'mp3', input: [{ text: 'One.' }, { text: 'Two.', voice: 'other-id' }] }, auth());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect((await bytes(res)).byteLength).toBeGreaterThan(0);
  });

  it('refuses a list of turns for a model without multi-speaker input, naming input and the model', async () => {
    const res = await postSpeech(mock.baseUrl, { model: TTS, voice: 'alloy', input: [{ text: 'Hi.' }] }, auth());
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatch(new RegExp(`^input: model ${TTS} `));
  });

  it("refuses a turn's voice the model does not list, naming input[i].voice", async () => {
    const res = await speech({ input: [{ text: 'Hi.' }, { text: 'Hello.', voice: 'alloy' }] });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatch(/^input\[1\]\.voice: "alloy" is not supported by model google\/gemini-3\.1-flash-tts-preview; supported voices: Zephyr, Puck/);
  });

  it('counts every turn against the character limit (8000 for Gemini TTS)', async () => {
    const res = await speech({ input: [{ text: 'a'.repeat(4000) }, { text: 'b'.repeat(4001) }] });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe(`input: 8001 characters is over the limit of model ${GEMINI} (8000 characters)`);
  });

  it('refuses an empty list, a turn without text and a turn that is not an object', async () => {
    for (const input of [[], [{ voice: 'Kore' }], ['Hi.'], [{ text: '' }]]) {
      const res = await speech({ input });
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(await errorOf(res)).toMatch(/^input/);
    }
  });

  it('transcribes turns as their texts joined by a space, with diarized speakers that follow the voices', async () => {
    const turns = [{ text: 'Hello there.' }, { text: 'Good morning to you.', voice: 'Kore' }, { text: 'Bye now.' }];
    const pcm = await bytes(await speech({ input: turns }));
    const res = await fetch(`${mock.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'assemblyai/universal-3-5-pro', input_audio: { data: Buffer.from(pcm).toString('base64'), format: 'pcm' }, response_format: 'verbose_json', diarize: true }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { text: string; words: { word: string; start: number; end: number; speaker: number }[] };
    expect(answer.text).toBe('Hello there. Good morning to you. Bye now.');
    expect(answer.words.map((word) => [word.word, word.speaker])).toEqual([['Hello', 0], ['there', 0], ['Good', 1], ['morning', 1], ['to', 1], ['you', 1], ['Bye', 0], ['now', 0]]);
    const starts = answer.words.map((word) => word.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(answer.words.at(-1)!.end).toBeLessThanOrEqual(pcm.byteLength / 2 / 24_000 + 0.001);
  });
});
