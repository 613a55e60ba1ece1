/**
 * One `mockrouter record` per folder: the recorder holds `--out/.mockrouter-record.lock` (its pid) while it runs; a
 * second recorder on the folder exits 1 naming the folder and the other's pid, and touches nothing; a lock left by
 * a process that is gone is taken over; a recorder removes only its own or dead processes' temporary files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderBusyError, startRecorder } from '../src/recorder/index.js';
import { killRecordClis, runRecordCli, startRecordCli } from './support/record-cli.js';
import { tempFolders } from './support/temp-folders.js';

// A recorder a failed test left running stops with the file.
afterAll(killRecordClis);

const LOCK = '.mockrouter-record.lock';
const folder = tempFolders('mockrouter-record-lock-');

/** The pid of a process that has exited. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

describe('mockrouter record, one recorder per folder', () => {
  it('refuses a second recorder on a folder in use, naming the folder and the pid, and leaves the first one\'s files', async () => {
    const out = folder();
    const first = await startRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', out, '--port', '0']);
    try {
      const pid = first.child.pid!;
      expect(readFileSync(join(out, LOCK), 'utf8').trim()).toBe(String(pid));
      // A write of the first recorder's, under way.
      const writing = `models.json.tmp-${pid}-7`;
      writeFileSync(join(out, writing), '{"models": [');
      const second = runRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', out, '--port', '0']);
      expect(await second.exited()).toBe(1);
      expect(second.output()).toContain(`mockrouter record: --out ${out}: another mockrouter record (pid ${pid}) is writing this folder`);
      expect(second.output()).not.toMatch(/^\s+at /m);
      expect(existsSync(join(out, writing))).toBe(true);
      expect(readFileSync(join(out, LOCK), 'utf8').trim()).toBe(String(pid));
      rmSync(join(out, writing));
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(readdirSync(out)).toEqual([]);
  });

  it('takes over the lock of a process that is gone, and removes only its own and dead processes\' temporary files', async () => {
    const out = folder();
    const dead = deadPid();
    writeFileSync(join(out, LOCK), `${dead}\n`);
    const deadTemp = `models.json.tmp-${dead}-1`;
    const liveTemp = `models.json.tmp-${process.pid}-1`;
    writeFileSync(join(out, deadTemp), '{');
    writeFileSync(join(out, liveTemp), '{');
    const cli = await startRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', out, '--port', '0']);
    try {
      expect(readFileSync(join(out, LOCK), 'utf8').trim()).toBe(String(cli.child.pid));
      expect(existsSync(join(out, deadTemp))).toBe(false);
      expect(existsSync(join(out, liveTemp))).toBe(true);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
    expect(readdirSync(out)).toEqual([liveTemp]);
  });

  it('refuses a second recorder of the same process on a folder in use', async () => {
    const out = folder();
    const first = await startRecorder({ upstream: 'http://127.0.0.1:9', out, port: 0 });
    try {
      await expect(startRecorder({ upstream: 'http://127.0.0.1:9', out, port: 0 })).rejects.toThrow(FolderBusyError);
      await expect(startRecorder({ upstream: 'http://127.0.0.1:9', out, port: 0 })).rejects.toThrow(`(pid ${process.pid})`);
    } finally {
      await first.close();
    }
    const again = await startRecorder({ upstream: 'http://127.0.0.1:9', out, port: 0 });
    await again.close();
  });
});

describe('mockrouter record, an --out it cannot record into', () => {
  it('refuses a file, saying so, and leaves no folder behind when it cannot listen', async () => {
    const parent = folder();
    const file = join(parent, 'a-file');
    writeFileSync(file, 'not a folder');
    const onFile = runRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', file, '--port', '0']);
    expect(await onFile.exited()).toBe(1);
    expect(onFile.output()).toBe(`mockrouter record: --out ${file}: a file is there, not a folder; expected a folder to record into (made when missing)\n`);
    expect(readFileSync(file, 'utf8')).toBe('not a folder');

    // A port already taken: the folder this start made goes again.
    const first = await startRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', join(parent, 'first'), '--port', '0']);
    try {
      const port = new URL(first.baseUrl).port;
      const fresh = join(parent, 'fresh');
      const taken = runRecordCli(['--upstream', 'http://127.0.0.1:9', '--out', fresh, '--port', port]);
      expect(await taken.exited()).toBe(1);
      expect(taken.output()).toBe(`mockrouter record: port ${port} on 127.0.0.1 is already in use (use --port 0 for a free port)\n`);
      expect(existsSync(fresh)).toBe(false);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });
});
