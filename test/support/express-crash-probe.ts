/**
 * Child-process probe: mounts the MSW handlers in an express 4 app with `@mswjs/http-middleware`, sends one
 * speech request under the scenario named in argv[2], then a model lookup, and prints what the client saw.
 * Run as `node --import tsx test/support/express-crash-probe.ts <scenario>`; used by scenarios-parity.test.ts to
 * show which scenarios take the whole process down under the middleware (so the test runner never does).
 *
 * Prints `SPEECH <status|fetch error>`, `BODY <bytes|body error>`, `NEXT <status|fetch error>` and
 * `SURVIVED`, or dies with the middleware's uncaught error on stderr.
 */
import { writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createMiddleware } from '@mswjs/http-middleware';
import express from 'express';
import { createMockRouter } from '../../src/index.js';
import { TTS } from './speech-model.js';
import { postSpeech } from './speech-request.js';

const scenario = process.argv[2] ?? '';
/** Synchronous, so every line is out before a crash (console.log to a pipe is asynchronous). */
const say = (line: string) => writeSync(1, `${line}\n`);
const mock = createMockRouter({ seed: 1 });
const app = express();
// A type cast only (see asMiddlewareHandlers in modes.ts; not imported, to keep this child process light).
app.use(createMiddleware(...(mock.handlers as unknown as Parameters<typeof createMiddleware>)));
const server = app.listen(0, '127.0.0.1', () => {
  void (async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    try {
      const res = await postSpeech(base, { model: TTS, input: 'Hello there, this is a probe.', voice: 'alloy' }, { Authorization: 'Bearer sk-probe', 'X-Mock-Scenario': scenario });
      say(`SPEECH ${res.status}`);
      try {
        say(`BODY ${(await res.arrayBuffer()).byteLength}`);
      } catch (error) {
        say(`BODY error ${String(error)}`);
      }
    } catch (error) {
      say(`SPEECH fetch error ${String(error)}`);
    }
    const next = await fetch(`${base}/model/openai/gpt-4o-mini`, { headers: { Authorization: 'Bearer sk-probe' } }).then(
      (res) => String(res.status),
      (error: unknown) => `fetch error ${String(error)}`,
    );
    say(`NEXT ${next}`);
    say('SURVIVED');
    server.closeAllConnections();
    server.close();
  })();
});
