/**
 * `mockrouter record` in front of an upstream that answers what HTTP cannot pass on, or nothing: each such request
 * is answered in the gateway's error envelope (502 for a head Node cannot repeat or a 101, 504 for no head within
 * `--upstream-timeout`), or cut once its body stalls, with one warning line each; the recorder never crashes, the
 * requests beside it go on, and none of it is recorded. The CLI runs as a user runs it (`test/support/record-cli.ts`)
 * in front of a raw `node:net` server (`test/support/raw-upstream.ts`).
 */
import { readdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { recordCommand } from '../src/cli/record-command.js';
import { killRecordClis, runRecordCli, startRecordCli } from './support/record-cli.js';
import { rawAnswer, startRawUpstream } from './support/raw-upstream.js';
import { tempFolders } from './support/temp-folders.js';

// A recorder a failed test left running stops with the file.
afterAll(killRecordClis);

const AUTH = { Authorization: 'Bearer sk-hostile-upstream-test' };
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];
const folder = tempFolders('mockrouter-record-hostile-');

/** The envelope of an answer, and its recorder header. */
async function envelope(response: Response): Promise<{ status: number; type: string | null; reason: string | null; code: unknown; message: unknown }> {
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  return { status: response.status, type: response.headers.get('content-type'), reason: response.headers.get('x-mockrouter-record-error'), code: body.error?.code, message: body.error?.message };
}

/** No line of `output` is a stack frame. */
function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(output).not.toMatch(/ERR_INVALID_CHAR|ERR_HTTP_INVALID_STATUS_CODE|Uncaught|TypeError|RangeError/);
}

describe('mockrouter record, an upstream answering heads HTTP cannot pass on', () => {
  /** Each case: the bytes the upstream answers, and the recorder header of the 502 expected. */
  const CASES: Record<string, { bytes: Buffer; reason: string }> = {
    'del-in-reason': { bytes: rawAnswer('HTTP/1.1 200 O\x7fK', [JSON_TYPE], '{}'), reason: 'invalid-answer' },
    'control-in-reason': { bytes: rawAnswer('HTTP/1.1 200 O\x01K', [JSON_TYPE], '{}'), reason: 'invalid-answer' },
    'status-000': { bytes: rawAnswer('HTTP/1.1 000 OK', [JSON_TYPE], '{}'), reason: 'invalid-answer' },
    'status-099': { bytes: rawAnswer('HTTP/1.1 099 OK', [JSON_TYPE], '{}'), reason: 'invalid-answer' },
    'cr-in-header-value': { bytes: rawAnswer('HTTP/1.1 200 OK', [JSON_TYPE, ['X-Echo', 'a\rb']], '{}'), reason: 'invalid-answer' },
    'control-in-header-value': { bytes: rawAnswer('HTTP/1.1 200 OK', [JSON_TYPE, ['X-Echo', 'a\x01b']], '{}'), reason: 'invalid-answer' },
    'invalid-header-name': { bytes: rawAnswer('HTTP/1.1 200 OK', [JSON_TYPE, ['X Echo(', 'b']], '{}'), reason: 'invalid-answer' },
    'switching-protocols': { bytes: Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'), reason: 'invalid-answer' },
    'switching-protocols-bare': { bytes: Buffer.from('HTTP/1.1 101 Switching Protocols\r\n\r\n'), reason: 'invalid-answer' },
  };

  it('answers each with the 502 envelope and one warning, never crashes, and the answer in flight goes on', async () => {
    let slowSocket: Socket | undefined;
    const slowBody = JSON.stringify({ data: { note: 'x'.repeat(5000) } });
    const slowWhole = rawAnswer('HTTP/1.1 200 OK', [JSON_TYPE], slowBody);
    const upstream = await startRawUpstream((request, socket) => {
      const name = request.path.split('/').pop()!;
      if (name === 'slow') {
        // The head and half of the body now, the rest once every hostile answer was answered.
        slowSocket = socket;
        socket.write(slowWhole.subarray(0, slowWhole.length - 2000));
        return;
      }
      socket.end(CASES[name]!.bytes);
    });
    const out = folder();
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    try {
      const slow = await fetch(`${cli.baseUrl}/model/hostile/slow`, { headers: AUTH });
      expect(slow.status).toBe(200);
      const slowText = slow.text();
      slowText.catch(() => undefined); // awaited below; a failure shows there

      for (const [name, { reason }] of Object.entries(CASES)) {
        const answer = await envelope(await fetch(`${cli.baseUrl}/model/hostile/${name}`, { headers: AUTH }));
        expect(answer, name).toEqual({ status: 502, type: 'application/json', reason, code: 502, message: expect.stringContaining(upstream.url) });
      }
      // The recorder still runs, and the answer that was under way completes.
      expect(cli.child.exitCode).toBeNull();
      slowSocket!.end(slowWhole.subarray(slowWhole.length - 2000));
      expect(await slowText).toBe(slowBody);

      // Each warning is printed as its answer is sent: waited for, then counted.
      for (const name of Object.keys(CASES)) await cli.waitForLine((line) => line.warn && line.text.includes(`/hostile/${name}:`));
      const warnings = cli.warnings().filter((w) => w.includes('answered 502'));
      expect(warnings).toHaveLength(Object.keys(CASES).length);
      for (const name of Object.keys(CASES)) expect(warnings.filter((w) => w.includes(`/hostile/${name}:`)), name).toHaveLength(1);
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    expectNoStackTrace(cli.output());
    // Nothing was recorded (the slow answer is no model record), and the lock is gone.
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('mockrouter record --upstream-timeout, an upstream that stalls', () => {
  it('answers 504 when no head comes in time (nothing, or only 100 Continue), and cuts an answer whose body stalls', async () => {
    const TIMEOUT = 300;
    const upstream = await startRawUpstream((request, socket) => {
      const name = request.path.split('/').pop()!;
      if (name === 'continue') socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      if (name === 'body') socket.write(rawAnswer('HTTP/1.1 200 OK', [JSON_TYPE], `{"data": "${'x'.repeat(100)}"}`).subarray(0, 120));
      // 'head': nothing at all. The sockets stay open until the upstream closes.
    });
    const out = folder();
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0', '--upstream-timeout', String(TIMEOUT)]);
    try {
      for (const name of ['head', 'continue']) {
        const started = performance.now();
        const answer = await envelope(await fetch(`${cli.baseUrl}/model/stall/${name}`, { headers: AUTH }));
        expect(performance.now() - started, name).toBeGreaterThanOrEqual(TIMEOUT - 5);
        expect(answer, name).toEqual({ status: 504, type: 'application/json', reason: 'timeout', code: 504, message: expect.stringContaining(`within ${TIMEOUT} ms`) });
      }
      const started = performance.now();
      const cut = await fetch(`${cli.baseUrl}/model/stall/body`, { headers: AUTH });
      expect(cut.status).toBe(200);
      await expect(cut.text()).rejects.toThrow();
      expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT - 5);
      await cli.waitForLine((line) => line.warn && line.text.includes('/stall/body: answer cut short'));
      for (const name of ['head', 'continue']) await cli.waitForLine((line) => line.warn && line.text.includes(`/stall/${name}: no answer head`));
      expect(cli.warnings().filter((w) => w.includes('(--upstream-timeout)'))).toHaveLength(3);
      expect(cli.child.exitCode).toBeNull();
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    expectNoStackTrace(cli.output());
    expect(readdirSync(out)).toEqual([]);
  });

  it('documents the flag and its default, and refuses a value that is no whole number of ms', async () => {
    const help = recordCommand().helpInformation();
    expect(help).toMatch(/--upstream-timeout <ms>[\s\S]*\(default:\s+30000\)/);
    const cli = runRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', folder(), '--upstream-timeout', '0']);
    expect(await cli.exited()).toBe(1);
    expect(cli.output()).toMatch(/--upstream-timeout <ms>.*expected a whole number of milliseconds, 1 or more, got "0"/);
    expectNoStackTrace(cli.output());
  });
});
