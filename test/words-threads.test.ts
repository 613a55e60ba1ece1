/**
 * Speech with words on worker threads (`docs/speech.md`, "Threads"; `src/node-platform/words-pool.ts`):
 *
 * - the same bytes with and without threads (option `wordsThreads`), PCM and MP3, one voice and several turns, through
 *   every mode;
 * - still streamed: the first piece reaches the reader while later ones are still to be said;
 * - a thread that dies: its request starts again on another thread (the same bytes), and fails (a cut stream) when a
 *   second thread dies under it; the next request is answered by a new thread; a render that traps fails its request
 *   alone, and its thread goes on;
 * - `close()` of the last gateway ends the threads, and a process that said words exits with or without it.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src/node-platform/create-gateway.js';
import { contextOf, type Gateway } from '../src/core/gateway/gateway.js';
import type { CoreResponse } from '../src/core/base/types.js';
import { loadFlite } from '../src/core/audio/words/flite-engine.js';
import { nodePlatform } from '../src/node-platform/platform.js';
import { acquireWordsPool, wordsThreadsNow } from '../src/node-platform/words-pool.js';
import { modes } from './support/modes.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest, postSpeech } from './support/speech-request.js';

const AUTH = 'Bearer sk-threads';
const GEMINI = 'google/gemini-3.1-flash-tts-preview';
const headers = { authorization: AUTH, 'content-type': 'application/json' };

/** The requests compared with and without threads: each format, a speed, multi-speaker turns, text Flite cannot say. */
const BODIES: Record<string, unknown>[] = [
  { model: TTS, voice: 'ash', input: 'Threads say the same words. Then a second sentence, with a clause.', response_format: 'pcm' },
  { model: TTS, voice: 'nova', input: 'Threads say the same words in MP3 too. Hello 😀 world, 你好.', response_format: 'mp3', speed: 1.5 },
  { model: GEMINI, voice: 'Charon', input: [{ text: 'Please call me back.' }, { text: 'The weather is sunny.', voice: 'Leda' }], response_format: 'pcm' },
];

/** The whole body of a core response. */
async function bodyOf(response: CoreResponse): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) chunks.push(chunk.slice());
  return Buffer.concat(chunks);
}

const say = async (gateway: Gateway, body: Record<string, unknown>) => bodyOf(await gateway.handle(coreSpeechRequest(body, headers)));
const onMain = createGateway({ speech: 'words', seed: 7, wordsThreads: 0 });
/** Ends every words thread, as if each died (the one saying a request among them). */
const killThreads = () => Promise.all(wordsThreadsNow().map((worker) => worker.terminate()));
const input = (sentences: number, tag: string) => Array.from({ length: sentences }, (_, i) => `This is sentence ${i + 1} of ${tag}.`).join(' ');

describe('the same bytes with and without threads', () => {
  describe.each(modes)('through $name', (mode) => {
    it.skipIf(mode.unsupported !== undefined)('each format, a speed and several turns', async () => {
      const running = await mode.start({ speech: 'words', seed: 7, wordsThreads: 2 });
      try {
        for (const body of BODIES) {
          const res = await postSpeech(running.baseUrl, body, { Authorization: AUTH });
          expect(res.status).toBe(200);
          expect(sha256Hex(new Uint8Array(await res.arrayBuffer()))).toBe(sha256Hex(await say(onMain, body)));
        }
        expect(wordsThreadsNow().length).toBeGreaterThan(0); // said on threads indeed
      } finally {
        await running.stop();
      }
    }, 120_000);
  });
});

describe('on a thread', () => {
  it('streams: the first piece reaches the reader while the later sentences are still to be said', async () => {
    const gateway = createGateway({ speech: 'words', seed: 11, wordsThreads: 1 });
    const response = await gateway.handle(coreSpeechRequest({ model: TTS, voice: 'alloy', input: input(16, 'a long answer'), response_format: 'pcm' }, headers));
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await iterator.next();
    const madeAtFirst = contextOf(gateway).audio.stats().streamedBytes;
    let total = first.value!.byteLength;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) total += next.value.byteLength;
    expect(madeAtFirst).toBeLessThan(total / 2);
    await gateway.close();
  }, 60_000);

  it('a thread that dies: its request starts again elsewhere (the same bytes); a second death fails it; the next is answered', async () => {
    const gateway = createGateway({ speech: 'words', seed: 5, wordsThreads: 1 });
    try {
      const body = { model: TTS, voice: 'sage', input: input(6, 'an answer whose thread dies'), response_format: 'pcm' };
      const expected = sha256Hex(await say(onMain, body));
      // One death: started again on a new thread, the bytes already passed on not passed again.
      const once = (await gateway.handle(coreSpeechRequest(body, headers))).body as AsyncIterable<Uint8Array>;
      const chunks: Uint8Array[] = [];
      for await (const chunk of once) {
        if (chunks.length === 0) await killThreads();
        chunks.push(chunk.slice());
      }
      expect(sha256Hex(Buffer.concat(chunks))).toBe(expected);
      // Two deaths under one request: it fails, as a cut stream.
      const other = { ...body, input: input(6, 'an answer that fails') };
      const twice = (await gateway.handle(coreSpeechRequest(other, headers))).body as AsyncIterable<Uint8Array>;
      let kills = 0;
      await expect(
        (async () => {
          for await (const _ of twice) if (kills++ < 2) await killThreads();
        })(),
      ).rejects.toThrow(/the thread saying these words died/);
      // The next request: a new thread, the same bytes as on the answering thread.
      const again = { ...body, input: input(3, 'the next answer') };
      expect(sha256Hex(await say(gateway, again))).toBe(sha256Hex(await say(onMain, again)));
      expect(wordsThreadsNow().length).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  }, 120_000);

  it('a render that traps fails its request alone; its thread goes on', async () => {
    // A WASI command whose _start traps (`unreachable`): what Flite's own trap would look like to the thread.
    const trapping = new WebAssembly.Module(
      Uint8Array.from([
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01,
        0x07, 0x13, 0x02, 0x06, ...Buffer.from('memory'), 0x02, 0x00, 0x06, ...Buffer.from('_start'), 0x00, 0x00, 0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b,
      ]),
    );
    const flite = await loadFlite(nodePlatform.fliteWasm(undefined) as () => Promise<Uint8Array<ArrayBuffer>>);
    const pool = acquireWordsPool(1);
    try {
      const req = { input: 'A trap fails one request.', voice: 'nova', speed: 1, seed: 1 };
      const collect = async (module: WebAssembly.Module) => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of pool.say(module, req, 'pcm', () => undefined)) chunks.push(chunk);
        return Buffer.concat(chunks);
      };
      await expect(collect(trapping)).rejects.toThrow(/unreachable/);
      const threads = wordsThreadsNow();
      expect((await collect(flite)).byteLength).toBeGreaterThan(24_000);
      expect(wordsThreadsNow()).toEqual(threads);
    } finally {
      await pool.release();
    }
  }, 60_000);
});

describe('options', () => {
  it.each([[-1], [1.5], ['2']])('wordsThreads %j is an OptionsError naming the option', (value) => {
    expect(() => createGateway({ wordsThreads: value as number })).toThrow(`wordsThreads: expected a whole number ≥ 0, got ${typeof value === 'string' ? '"2"' : String(value)}`);
  });

  it('fliteWasm naming a missing file is an OptionsError when the gateway is made, whatever the mode', () => {
    expect(() => createGateway({ fliteWasm: '/nonexistent/flite.wasm' })).toThrow('fliteWasm: cannot read /nonexistent/flite.wasm: no such file');
  });
});

/**
 * Runs `script` (an ES module, from the repository's root: it imports the build in dist/, which npm test makes first)
 * in a new Node.js process: its exit code and output.
 */
function runScript(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('../', import.meta.url).pathname, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ code: child.exitCode ?? (error ? 1 : 0), stdout, stderr }),
    );
  });
}

describe('the process', () => {
  it.each([
    ['after close()', 'await mock.close(); console.log(wordsThreadsNow().length);'],
    ['without close(): idle threads do not hold it open', 'console.log(wordsThreadsNow().length);'],
  ])('exits once its words are said, %s', async (_, end) => {
    const script = [
      "import { setupServer } from 'msw/node';",
      "import { createMockRouter } from './dist/index.js';",
      "import { wordsThreadsNow } from './dist/node-platform/words-pool.js';",
      "const mock = createMockRouter({ seed: 1, speech: 'words', wordsThreads: 2 });",
      'const server = mock.attach(setupServer(...mock.handlers));',
      'server.listen();',
      "const res = await fetch('https://openrouter.ai/api/v1/audio/speech', { method: 'POST', headers: { Authorization: 'Bearer sk-x', 'Content-Type': 'application/json' }, body: JSON.stringify({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: 'Said on a thread, then gone.', voice: 'coral' }) });",
      'console.log(res.status, (await res.arrayBuffer()).byteLength > 24000);',
      'server.close();',
      end,
    ].join('\n');
    const { code, stdout, stderr } = await runScript(script);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim().split('\n')).toEqual(['200 true', end.startsWith('await') ? '0' : '1']);
  }, 120_000);
});
