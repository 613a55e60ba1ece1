/**
 * Speech, then its transcription, with `@openrouter/sdk` against a mockrouter server (`npm start`, or the
 * `OPENROUTER_BASE_URL` it prints): PCM sent back as base64 JSON, and the usage the answer bills.
 */
import { OpenRouter } from '@openrouter/sdk';

const openRouter = new OpenRouter({
  serverURL: process.env.OPENROUTER_BASE_URL ?? 'http://127.0.0.1:4010/api/v1',
  apiKey: process.env.OPENROUTER_API_KEY ?? 'sk-test',
  retryConfig: { strategy: 'none' },
});

const input = 'Meet me at the station at noon.';
const stream = await openRouter.tts.createSpeech({ speechRequest: { model: 'openai/gpt-4o-mini-tts-2025-12-15', input, voice: 'alloy', responseFormat: 'pcm' } });
const pcm = Buffer.from(await new Response(stream).arrayBuffer());

const heard = await openRouter.stt.createTranscription({ sttRequest: { model: 'openai/whisper-1', inputAudio: { data: pcm.toString('base64'), format: 'pcm' } } });
console.log(heard.text); // Meet me at the station at noon.
console.log(JSON.stringify(heard.usage)); // {"cost":0.0003,"seconds":3}
