/**
 * `mockrouter record` never records in a circle: an `--upstream` that is its own listening address is refused at
 * start (exit 1), a request that comes back to it by another way (a circle through another recorder) is answered
 * 508 at once, and a recorder records only what the gateway answered, never a recorder's own error answers (its
 * own come back, or another recorder's in a chain).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.js';
import { killRecordClis, runRecordCli, startRecordCli } from './support/record-cli.js';
import { tempFolders } from './support/temp-folders.js';

// A recorder a failed test left running stops with the file.
afterAll(killRecordClis);

const AUTH = { Authorization: 'Bearer sk-record-loop-test' };
const folder = tempFolders('mockrouter-record-loop-');

describe('mockrouter record, an upstream that leads back to the recorder', () => {
  it('refuses an --upstream that is its own listening address, by IP or by name, and exits 1', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const port = await freePort();
      const out = folder();
      const cli = runRecordCli(['--upstream', `http://${host}:${port}/api/v1`, '--out', out, '--port', String(port)]);
      expect(await cli.exited(), cli.output()).toBe(1);
      expect(cli.output()).toContain(`mockrouter record: --upstream http://${host}:${port} is this recorder's own address`);
      expect(cli.output()).not.toMatch(/^\s+at /m);
      // The lock was released: the folder is as it was.
      expect(existsSync(join(out, '.mockrouter-record.lock'))).toBe(false);
    }
  });

  it('answers 508 to a request that comes back through another recorder, recording nothing', async () => {
    const portA = await freePort();
    const [outA, outB] = [folder(), folder()];
    // B forwards to A, A to B: a circle neither sees at start.
    const b = await startRecordCli(['--upstream', `http://127.0.0.1:${portA}`, '--out', outB, '--port', '0']);
    const a = await startRecordCli(['--upstream', b.baseUrl, '--out', outA, '--port', String(portA)]);
    try {
      const response = await fetch(`${a.baseUrl}/model/openai/gpt-4o-mini`, { headers: AUTH, signal: AbortSignal.timeout(15_000) });
      expect(response.status).toBe(508);
      expect(response.headers.get('x-mockrouter-record-error')).toBe('loop');
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(508);
      await a.waitForLine((line) => line.warn && line.text.includes('came back to this recorder'));
    } finally {
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
    }
    // One trip around the circle, counted once both exited (their logs whole): A answered twice (the client, and
    // the request come back), B forwarded once.
    expect(a.lines().filter((line) => line.text === 'request')).toHaveLength(2);
    expect(b.lines().filter((line) => line.text === 'request')).toHaveLength(1);
    for (const out of [outA, outB]) expect(existsSync(join(out, 'scenarios')), out).toBe(false);
  });

  it('records only what the gateway answered: not the 502 of a recorder in front of an unreachable one', async () => {
    const gone = await freePort();
    const [outA, outB] = [folder(), folder()];
    const b = await startRecordCli(['--upstream', `http://127.0.0.1:${gone}`, '--out', outB, '--port', '0']);
    const a = await startRecordCli(['--upstream', b.baseUrl, '--out', outA, '--port', '0']);
    try {
      const response = await fetch(`${a.baseUrl}/model/openai/gpt-4o-mini`, { headers: AUTH });
      expect(response.status).toBe(502);
      expect(response.headers.get('x-mockrouter-record-error')).toBe('unreachable');
      await response.arrayBuffer();
      await a.waitForLine((line) => line.text.includes("not recorded: the answer is a recorder's own"));
    } finally {
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
    }
    for (const out of [outA, outB]) expect(existsSync(join(out, 'scenarios')), out).toBe(false);
  });
});
