/**
 * Speech, then its transcription, with the `openai` client against a mockrouter server (`npm start`, or the
 * `OPENROUTER_BASE_URL` it prints): the words come back exactly, each with its time.
 */
import OpenAI, { toFile } from 'openai';

const openai = new OpenAI({
  baseURL: process.env.OPENROUTER_BASE_URL ?? 'http://127.0.0.1:4010/api/v1',
  apiKey: process.env.OPENROUTER_API_KEY ?? 'sk-test',
  maxRetries: 0,
});

const input = 'Meet me at the station at noon.';
const speech = await openai.audio.speech.create({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input, voice: 'alloy', response_format: 'mp3' });
const file = await toFile(Buffer.from(await speech.arrayBuffer()), 'said.mp3');

const heard = await openai.audio.transcriptions.create({ file, model: 'openai/whisper-1', response_format: 'verbose_json', timestamp_granularities: ['word'] });
console.log(heard.text); // Meet me at the station at noon.
console.log(heard.words?.map((w) => `${w.word}@${w.start}`).join(' ')); // Meet@0 me@0.318 at@0.56 the@0.826 station@1.087 at@1.618 noon@1.864
