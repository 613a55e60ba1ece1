/**
 * What `mockrouter record` writes, `--fixtures` loads: each record is checked against `FOLDER_LIMITS`
 * (`src/core/formats/folder-limits.ts`) before it is kept, so a record too deep (or too deep to serialize at all) is
 * refused alone and never keeps later records from being written; a kind whose file (or the audio) is full is no
 * longer recorded, with one warning; `models.json` is written before any other file; a folder deleted while
 * recording is written again whole, with no index naming a missing file. The CLI runs as a user runs it, in front
 * of a raw `node:net` upstream.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FOLDER_LIMITS } from '../src/core/formats/folder-limits.js';
import { speechKeyOf } from '../src/core/formats/recording-schema.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { prettyBytesAt } from '../src/recorder/file-budget.js';
import { audioFileName } from '../src/recorder/recorder.js';
import { killRecordClis, startRecordCli, type LogLine } from './support/record-cli.js';
import { jsonAnswer, rawAnswer, startRawUpstream, type RawUpstream } from './support/raw-upstream.js';
import { TTS } from './support/speech-model.js';
import { tempFolders } from './support/temp-folders.js';

// A recorder a failed test left running stops with the file.
afterAll(killRecordClis);

const AUTH = { Authorization: 'Bearer sk-record-limits-test', 'Content-Type': 'application/json' };
const fixtures = loadFixtures();
const template = fixtures.models.find((m) => !m.architecture.output_modalities.includes('speech'))!;
const model = (id: string) => ({ ...template, id, canonical_slug: id, links: { details: `/api/v1/models/${id}/endpoints` } });
const folder = tempFolders('mockrouter-record-limits-');
const speech = (input: string) => ({ model: TTS, input, voice: 'alloy', response_format: 'mp3' });

/** Sends `path` (GET, or POST of `body`) through the recorder and reads the whole answer. */
async function through(baseUrl: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${baseUrl}${path}`, body === undefined ? { headers: AUTH } : { method: 'POST', headers: AUTH, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

/** A raw upstream answering `answers[path]` (speech: by the body's `input`). */
function upstreamOf(answers: Record<string, Buffer>): Promise<RawUpstream> {
  return startRawUpstream((request, socket) => {
    const key = request.path.endsWith('/audio/speech') ? `speech:${(JSON.parse(request.body.toString()) as { input: string }).input}` : request.path;
    socket.end(answers[key] ?? jsonAnswer(404, { error: { code: 404, message: 'Not Found', metadata: null } }));
  });
}

describe('the size of a file, measured entry by entry', () => {
  it('adds up to the file written, within a few bytes per container', () => {
    const models = fixtures.models;
    const providers = fixtures.providers ?? {};
    const text = `${JSON.stringify({ models, providers }, null, 2)}\n`;
    const measured = models.reduce((sum, m) => sum + prettyBytesAt(m, 2), 0) + Object.entries(providers).reduce((sum, [id, p]) => sum + prettyBytesAt(p, 2, id), 0);
    const frame = `${JSON.stringify({ models: [], providers: {} }, null, 2)}\n`.length;
    // Two containers one deep: each within 2 × 2 bytes.
    expect(Math.abs(measured + frame - Buffer.byteLength(text))).toBeLessThanOrEqual(2 * 2 * 2);
  });
});

describe('mockrouter record, records past the folder limits', () => {
  it('refuses a model record nesting 2,000 or 200,000 levels deep, alone, and writes the next one', async () => {
    const deep = (levels: number) => `[`.repeat(levels) + `]`.repeat(levels);
    const withExtra = (id: string, levels: number) => Buffer.from(`{"data":${JSON.stringify(model(id)).slice(0, -1)},"extra":${deep(levels)}}}`);
    const answers = {
      '/api/v1/model/deep/two-thousand': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'application/json']], withExtra('deep/two-thousand', 2_000)),
      '/api/v1/model/deep/too-deep-to-serialize': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'application/json']], withExtra('deep/too-deep-to-serialize', 200_000)),
      '/api/v1/model/plain/after': jsonAnswer(200, { data: model('plain/after') }),
    };
    const upstream = await upstreamOf(answers);
    const out = folder();
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    try {
      for (const path of Object.keys(answers)) expect(await through(cli.baseUrl, path.slice('/api/v1'.length))).toBe(200);
      await cli.waitForLine((line) => line.text.endsWith('model plain/after'));
      await cli.waitForLines((line) => line.warn && line.text.includes(`nests deeper than the ${FOLDER_LIMITS.depth} levels`), 2);
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    expect(loadFixtures(out).models.map((m) => m.id)).toEqual(['plain/after']);
    expect(readFileSync(join(out, 'models.json'), 'utf8')).not.toContain('deep/');
  });

  it('stops recording generations once generations.json would pass 10 MiB, warning once, and the folder loads', async () => {
    const padding = 'x'.repeat(1024 * 1024);
    const answers: Record<string, Buffer> = {};
    for (let i = 1; i <= 11; i++) answers[`/api/v1/generation?id=gen-big-${i}`] = jsonAnswer(200, { data: { ...fixtures.generations[0], id: `gen-big-${i}`, padding } });
    const upstream = await upstreamOf(answers);
    const out = folder();
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    const full = (line: LogLine) => line.text.includes('generations are no longer recorded');
    try {
      for (const path of Object.keys(answers)) expect(await through(cli.baseUrl, path.slice('/api/v1'.length))).toBe(200);
      await cli.waitForLines(full, 2);
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    // Warned of once, when the cap was reached; the answer after it is refused without a warning.
    expect(cli.lines().filter((line) => full(line) && line.warn)).toHaveLength(1);
    expect(cli.lines().filter(full)).toHaveLength(2);
    expect(statSync(join(out, 'generations.json')).size).toBeLessThanOrEqual(FOLDER_LIMITS.fileBytes);
    expect(loadFixtures(out).generations.map((g) => g.id)).toEqual(Array.from({ length: 9 }, (_, i) => `gen-big-${i + 1}`));
  });

  it('stops recording audio once it would pass 256 MiB in all, warning once, and the folder loads', async () => {
    // A folder recorded before, holding 250 MiB of audio (sparse files: no disk used).
    const out = folder();
    mkdirSync(join(out, 'audio'));
    writeFileSync(join(out, 'models.json'), JSON.stringify({ models: [], aliases: [], speech: {} }));
    const MiB = 1024 * 1024;
    const recordings = Array.from({ length: 5 }, (_, i) => {
      const key = speechKeyOf(speech(`earlier ${i}`));
      const file = audioFileName(key, 'audio/mpeg');
      writeFileSync(join(out, 'audio', file), '');
      truncateSync(join(out, 'audio', file), 50 * MiB);
      return { key, file, content_type: 'audio/mpeg', bytes: 50 * MiB };
    });
    writeFileSync(join(out, 'audio', 'index.json'), JSON.stringify({ recordings }));
    const answers = {
      'speech:fits': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(4 * MiB, 1)),
      'speech:passes': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(4 * MiB, 2)),
      'speech:after': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(16, 3)),
    };
    const upstream = await upstreamOf(answers);
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    const full = (line: LogLine) => line.text.includes('audio are no longer recorded');
    try {
      expect(await through(cli.baseUrl, '/audio/speech', speech('fits'))).toBe(200);
      await cli.waitForLine((line) => line.text.includes(`audio ${audioFileName(speechKeyOf(speech('fits')), 'audio/mpeg')}`));
      expect(await through(cli.baseUrl, '/audio/speech', speech('passes'))).toBe(200);
      expect(await through(cli.baseUrl, '/audio/speech', speech('after'))).toBe(200);
      await cli.waitForLines(full, 2);
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    expect(cli.lines().filter((line) => full(line) && line.warn)).toHaveLength(1);
    expect(cli.warnings().find((text) => text.includes('audio are no longer recorded'))).toContain(`would pass ${FOLDER_LIMITS.audioTotalBytes} bytes in all`);
    const loaded = loadFixtures(out).recordings!;
    expect([...loaded.keys()].map((key) => (JSON.parse(key) as { input: string }).input).sort()).toEqual(['earlier 0', 'earlier 1', 'earlier 2', 'earlier 3', 'earlier 4', 'fits']);
  });
});

describe('mockrouter record, the order and wholeness of the folder', () => {
  it('writes models.json before any other file of a new folder', async () => {
    const upstream = await upstreamOf({ 'speech:first': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(1000, 5)) });
    const out = folder();
    mkdirSync(join(out, 'audio'));
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    // The names renamed into place, in the order inotify reports them: one watcher per folder (one inotify queue).
    const appeared: string[] = [];
    const seen = (dir: string) => (_event: string, name: string | null) => {
      if (name !== null && !name.includes('.tmp-') && !name.startsWith('.mockrouter') && !appeared.includes(join(dir, name))) appeared.push(join(dir, name));
    };
    const watchers = [watch(out, seen('')), watch(join(out, 'audio'), seen('audio'))];
    try {
      expect(await through(cli.baseUrl, '/audio/speech', speech('first'))).toBe(200);
      await cli.waitForLine((line) => line.text.includes('audio ') && line.text.includes('(1000 bytes'));
    } finally {
      expect(await cli.stop()).toBe(0);
      for (const watcher of watchers) watcher.close();
      await upstream.close();
    }
    const file = audioFileName(speechKeyOf(speech('first')), 'audio/mpeg');
    expect(appeared).toEqual(['models.json', join('audio', file), join('audio', 'index.json')]);
    expect(loadFixtures(out).recordings?.size).toBe(1);
  });

  it('writes a folder deleted while recording again, whole, its index naming only files that exist', async () => {
    const answers = {
      '/api/v1/model/kept/model': jsonAnswer(200, { data: model('kept/model') }),
      '/api/v1/generation?id=gen-kept': jsonAnswer(200, { data: { ...fixtures.generations[0], id: 'gen-kept' } }),
      '/api/v1/model/kept/missing': jsonAnswer(404, { error: { code: 404, message: 'Model not found', metadata: null } }),
      'speech:before': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(100, 1)),
      'speech:after': rawAnswer('HTTP/1.1 200 OK', [['Content-Type', 'audio/mpeg']], Buffer.alloc(200, 2)),
    };
    const upstream = await upstreamOf(answers);
    const out = folder();
    const cli = await startRecordCli(['--upstream', upstream.url, '--out', out, '--port', '0']);
    try {
      for (const path of ['/model/kept/model', '/generation?id=gen-kept', '/model/kept/missing']) await through(cli.baseUrl, path);
      await through(cli.baseUrl, '/audio/speech', speech('before'));
      for (const text of ['model kept/model', 'generation gen-kept', 'scenario rule model-404-1', '(100 bytes']) await cli.waitForLine((line) => line.text.includes(text));

      rmSync(out, { recursive: true, force: true });
      await through(cli.baseUrl, '/audio/speech', speech('after'));
      await cli.waitForLine((line) => line.text.includes('(200 bytes'));
      await cli.waitForLine((line) => line.warn && line.text.includes('was deleted while recording'));
    } finally {
      expect(await cli.stop()).toBe(0);
      await upstream.close();
    }
    const loaded = loadFixtures(out);
    expect(loaded.models.map((m) => m.id)).toEqual(['kept/model']);
    expect(loaded.generations.map((g) => g.id)).toEqual(['gen-kept']);
    expect([...loaded.recordings!.keys()].map((key) => (JSON.parse(key) as { input: string }).input)).toEqual(['after']);
    expect(readFileSync(join(out, 'scenarios', 'recorded.yaml'), 'utf8')).toContain('model-404-1');
    expect(existsSync(join(out, '.mockrouter-record.lock'))).toBe(false);
  });
});
