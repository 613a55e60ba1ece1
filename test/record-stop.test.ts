/**
 * How the recorder stops (`close()` of `src/recorder/proxy.ts`, SIGINT and SIGTERM of `mockrouter record`): it takes
 * no more connections, lets the answers under way end and records them; a second signal exits at once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AudioIndexSchema } from '../src/core/formats/recording-schema.js';
import { STOP_DRAIN_MS, startRecorder } from '../src/recorder/index.js';
import { startServer } from '../src/server/index.js';
import { killRecordClis, startRecordCli } from './support/record-cli.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const KEY = 'sk-live-stop-123';
const AUTH = { Authorization: `Bearer ${KEY}` };
/** An upstream whose speech streams as fast as it plays (`audio.dribble`): about 3 s for these sentences. */
const SLOW = { name: 'slow', rules: [{ match: { operation: 'speech' as const }, audio: { dribble: { realtime: 1 } } }] };
const SPEECH = { model: TTS, input: 'An answer under way when the recorder stops.', voice: 'alloy', response_format: 'pcm' };
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mockrouter-record-stop-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  killRecordClis();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('the recorder stopping', () => {
  it('lets an answer under way end, records it, and refuses new connections meanwhile', async () => {
    const upstream = await startServer({ port: 0, seed: 1, keys: [KEY], scenarios: [SLOW], scenario: 'slow' });
    const out = folder();
    const warnings: string[] = [];
    const logger = { info: () => undefined, warn: (_entry: object, message?: string) => void warnings.push(message ?? '') };
    const recorder = await startRecorder({ upstream: upstream.url, out, port: 0, logger });
    try {
      const response = await postSpeech(recorder.baseUrl, SPEECH, AUTH);
      expect(response.status).toBe(200);
      // Stopped once the answer started: it goes on to its end.
      const closed = recorder.close();
      const body = Buffer.from(await response.arrayBuffer());
      await closed;
      await expect(fetch(`${recorder.baseUrl}/models`, { headers: AUTH })).rejects.toThrow();
      expect(warnings).toEqual([`stopping: waiting for 1 answer(s) under way to end (at most ${STOP_DRAIN_MS} ms)`]);
      // Recorded whole: the bytes the client got, which are the whole answer (as many as the audio's length says).
      const { recordings } = AudioIndexSchema.parse(JSON.parse(readFileSync(join(out, 'audio', 'index.json'), 'utf8')));
      expect(recordings).toHaveLength(1);
      expect(readFileSync(join(out, 'audio', recordings[0]!.file)).equals(body)).toBe(true);
      expect(body.byteLength).toBe(recordings[0]!.bytes);
      expect(body.byteLength).toBeGreaterThan(48_000 * 2);
    } finally {
      await recorder.close();
      await upstream.close();
    }
  }, 30_000);

  it('exits at once on a second SIGTERM, saying the answers under way are cut', async () => {
    const upstream = await startServer({ port: 0, seed: 1, keys: [KEY], scenarios: [SLOW], scenario: 'slow' });
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', folder(), '--port', '0']);
    try {
      const response = await postSpeech(cli.baseUrl, SPEECH, AUTH);
      expect(response.status).toBe(200);
      cli.child.kill('SIGTERM');
      // Signals of one kind do not queue: the second is sent once the first was taken.
      await cli.waitForLine((line) => line.warn && line.text.includes('stopping: waiting for 1 answer(s) under way to end'));
      cli.child.kill('SIGTERM');
      expect(await cli.exited()).toBe(1);
      expect(cli.output()).toContain('mockrouter record: stopping at once; answers still under way are cut and not recorded');
      await expect(response.arrayBuffer()).rejects.toThrow();
    } finally {
      await upstream.close();
    }
  }, 30_000);
});
