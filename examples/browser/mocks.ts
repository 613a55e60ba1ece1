// The mock gateway in a browser app (Vite, or any bundler): MSW's service worker answers the app's calls to
// https://openrouter.ai/api/v1 from mockrouter; every other request goes to the network as usual.
// Once per project: `npx msw init public/ --save` copies mockServiceWorker.js to the folder your app serves.
import { setupWorker } from 'msw/browser';
import { createMockRouter } from 'mockrouter/browser';

export const mock = createMockRouter({ seed: 1 });
export const worker = setupWorker(...mock.handlers);

/** Starts the worker; call it before the app's first request (in Vite: `if (import.meta.env.DEV) await startMocks()`). */
export async function startMocks(): Promise<void> {
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
}

/** Speaks `text` with the app's own code path: the answer is real MP3 that the page can play. */
export async function speak(text: string): Promise<HTMLAudioElement> {
  const res = await fetch('https://openrouter.ai/api/v1/audio/speech', {
    method: 'POST',
    headers: { Authorization: 'Bearer sk-dev', 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: text, voice: 'alloy', response_format: 'mp3' }),
  });
  if (!res.ok) throw new Error(`speech failed: ${res.status} ${(await res.json()).error.message}`);
  return new Audio(URL.createObjectURL(await res.blob()));
}
