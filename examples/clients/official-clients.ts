// The official clients against the standalone mock (`npm start`): only the base URL changes.
import { OpenRouter } from '@openrouter/sdk';
import OpenAI from 'openai';

const MODEL = 'openai/gpt-4o-mini-tts-2025-12-15';

/** MP3 through `@openrouter/sdk` and PCM through `openai`, from the mock at `baseUrl`. */
export async function speakWithBoth(baseUrl = 'http://127.0.0.1:4010/api/v1'): Promise<{ mp3: Blob; pcm: Blob }> {
  const openRouter = new OpenRouter({ serverURL: baseUrl, apiKey: 'sk-test' });
  const mp3 = await openRouter.tts.createSpeech({
    speechRequest: { model: MODEL, input: 'Hello', voice: 'alloy', responseFormat: 'mp3' },
  });

  const openai = new OpenAI({ baseURL: baseUrl, apiKey: 'sk-test' });
  const pcm = await openai.audio.speech.create({ model: MODEL, input: 'Hello', voice: 'alloy' });

  return { mp3: await new Response(mp3).blob(), pcm: await pcm.blob() };
}
