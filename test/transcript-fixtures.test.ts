/**
 * `transcripts.json` of a fixtures folder: entries by SHA-256 or by clip load into `Fixtures.transcripts`, a
 * transcription of that audio answers the fixture's text, and each kind of bad file fails at start-up naming the
 * file, the path inside it and what was expected.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureError } from '../src/core/base/errors.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { DEFAULT_FIXTURES_DIR } from '../src/node-platform/package-files.js';
import { loadTranscripts } from '../src/node-platform/transcripts.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { toneWav } from '../src/verify/transcription-probe.js';
import { sha256Hex } from './support/sha256.js';
import { STT } from './support/speech-model.js';
import { tempFolders } from './support/temp-folders.js';

const newFolder = tempFolders('mockrouter-transcripts-');
const HELLO = toneWav(0.5, 440);
const BYE = toneWav(0.75, 660);

/** A fixtures folder: the package's `models.json`, `transcripts.json` holding `transcripts` (or `text` as is), and files. */
function folder(transcripts: unknown, files: Record<string, Uint8Array> = {}): string {
  // One level down, so that `../outside.wav` is in a throwaway folder too.
  const dir = join(newFolder(), 'fixtures');
  mkdirSync(dir);
  writeFileSync(join(dir, 'models.json'), readFileSync(join(DEFAULT_FIXTURES_DIR, 'models.json')));
  writeFileSync(join(dir, 'transcripts.json'), typeof transcripts === 'string' ? transcripts : JSON.stringify(transcripts));
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return dir;
}

function errorOf(fn: () => unknown): FixtureError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return error as FixtureError;
  }
  throw new Error('expected a FixtureError');
}

describe('transcripts.json', () => {
  it('loads entries by sha256 and by clip, keyed by the audio\'s SHA-256', () => {
    const words = [
      { word: 'Good', start: 0, end: 0.3 },
      { word: 'bye.', start: 0.3, end: 0.7, speaker: 1 },
    ];
    const dir = folder(
      {
        transcripts: [
          { clip: 'clips/hello.wav', text: 'Hello there.', language: 'en' },
          { sha256: sha256Hex(BYE), text: 'Goodbye.', duration: 0.75, words },
        ],
      },
      { 'clips/hello.wav': HELLO },
    );
    const { transcripts } = loadFixtures(dir);
    expect([...transcripts!.keys()]).toEqual([sha256Hex(HELLO), sha256Hex(BYE)]);
    expect(transcripts!.get(sha256Hex(HELLO))).toEqual({ text: 'Hello there.', language: 'en' });
    expect(transcripts!.get(sha256Hex(BYE))).toEqual({ text: 'Goodbye.', duration: 0.75, words });
    expect(loadTranscripts(dir)!.entries.map((e) => e.entry.clip ?? e.entry.sha256)).toEqual(['clips/hello.wav', sha256Hex(BYE)]);
  });

  it('is optional: a folder without it has no transcripts', () => {
    const dir = folder('{"transcripts": []}');
    expect(loadFixtures(dir).transcripts).toEqual(new Map());
    const none = newFolder();
    writeFileSync(join(none, 'models.json'), readFileSync(join(DEFAULT_FIXTURES_DIR, 'models.json')));
    expect(loadFixtures(none).transcripts).toBeUndefined();
  });

  it('fails at start-up naming the file, the path inside it and what was expected', () => {
    const file = (dir: string) => join(dir, 'transcripts.json');
    const cases: [unknown, Record<string, Uint8Array>, string, RegExp][] = [
      ['{"transcripts": [', {}, 'line 1, column 17', /JSON/i],
      [{ transcripts: [{ text: 'no audio named' }] }, {}, 'transcripts[0]', /exactly one of sha256 and clip/],
      [{ transcripts: [{ sha256: sha256Hex(HELLO), clip: 'a.wav', text: 'both' }] }, {}, 'transcripts[0]', /exactly one of sha256 and clip/],
      [{ transcripts: [{ sha256: 'ABC', text: 'x' }] }, {}, 'transcripts[0].sha256', /64 lower-case hex digits/],
      [{ transcripts: [{ sha256: sha256Hex(HELLO) }] }, {}, 'transcripts[0].text', /string/],
      [{ transcripts: [{ sha256: sha256Hex(HELLO), text: 'x', words: [{ word: 'x', start: -1, end: 1 }] }] }, {}, 'transcripts[0].words[0].start', /0/],
      [{ transcripts: [{ sha256: sha256Hex(HELLO), text: 'x', speaker: 'A' }] }, {}, 'transcripts[0]', /speaker/],
      [{ transcripts: [], extra: true }, {}, '', /extra/],
      [{ transcripts: [{ clip: 'clips/missing.wav', text: 'x' }] }, {}, 'transcripts[0].clip', /clips\/missing\.wav: not found; expected an audio file inside the fixtures folder/],
      [{ transcripts: [{ clip: '/etc/passwd', text: 'x' }] }, {}, 'transcripts[0].clip', /absolute path; expected a path inside the fixtures folder/],
      [{ transcripts: [{ clip: '../outside.wav', text: 'x' }] }, {}, 'transcripts[0].clip', /"\.\.\/outside\.wav" leads out of the fixtures folder/],
      [{ transcripts: [{ clip: 'clips', text: 'x' }] }, { 'clips/a.wav': HELLO }, 'transcripts[0].clip', /not a regular file \(a folder\); expected an audio file/],
      [{ transcripts: [{ clip: 'a.wav', text: 'x' }, { sha256: sha256Hex(HELLO), text: 'y' }] }, { 'a.wav': HELLO }, 'transcripts[1].sha256', /the same audio as transcripts\[0\]/],
    ];
    for (const [content, files, location, problem] of cases) {
      const dir = folder(content, files);
      if (location === 'transcripts[0].clip' && (content as { transcripts: { clip: string }[] }).transcripts[0]!.clip === '../outside.wav') {
        writeFileSync(join(dir, '..', 'outside.wav'), HELLO);
      }
      const error = errorOf(() => loadFixtures(dir));
      expect(error.file, JSON.stringify(content)).toBe(file(dir));
      if (location.startsWith('line')) expect(error.location).toMatch(/^line 1, column \d+$/);
      else expect(error.location, JSON.stringify(content)).toBe(location);
      expect(error.message, JSON.stringify(content)).toMatch(problem);
    }
  });

  it('refuses a clip that leads out of the folder through a link, and one too large', () => {
    const outside = newFolder();
    writeFileSync(join(outside, 'secret.wav'), HELLO);
    const linked = folder({ transcripts: [{ clip: 'clips/hello.wav', text: 'x' }] });
    mkdirSync(join(linked, 'clips'));
    symlinkSync(join(outside, 'secret.wav'), join(linked, 'clips', 'hello.wav'));
    const error = errorOf(() => loadFixtures(linked));
    expect(error.location).toBe('transcripts[0].clip');
    expect(error.message).toMatch(/clips\/hello\.wav: resolves \(through a link\) to .*secret\.wav, outside the folder/);

    const big = folder({ transcripts: [{ clip: 'a.wav', text: 'x' }, { clip: 'b.wav', text: 'y' }] }, { 'a.wav': HELLO, 'b.wav': BYE });
    expect(errorOf(() => loadTranscripts(big, { maxClipBytes: 1000 })).message).toMatch(/transcripts\[0\]\.clip: a\.wav: too large: \d+ bytes; expected at most 1000 bytes/);
    expect(errorOf(() => loadTranscripts(big, { maxClipTotalBytes: HELLO.length + 10 })).message).toMatch(/transcripts\[1\]\.clip: the clips add up to more than/);
  });

  it('refuses more entries than the folder limits allow, before validating them', () => {
    const dir = folder({ transcripts: Array.from({ length: 10_001 }, () => ({})) });
    const error = errorOf(() => loadFixtures(dir));
    expect(error.location).toBe('transcripts');
    expect(error.message).toMatch(/10001 transcripts; expected at most 10000/);
  });
});

describe('a transcription of audio transcripts.json names (examples/transcription/fixtures)', () => {
  let server: RunningServer;
  const GREETING = toneWav(1, 550);
  beforeAll(async () => {
    const example = readFileSync(new URL('../examples/transcription/fixtures/transcripts.json', import.meta.url), 'utf8');
    server = await startServer({ port: 0, fixtures: folder(example, { 'clips/greeting.wav': GREETING }) });
  });
  afterAll(() => server?.close());

  /** The verbose answer to `bytes` sent as base64 JSON. */
  async function transcribe(bytes: Uint8Array): Promise<{ text: string; language: string; duration: number; words: unknown[] }> {
    const response = await fetch(`${server.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk-test', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: STT, input_audio: { data: Buffer.from(bytes).toString('base64'), format: 'wav' }, response_format: 'verbose_json', timestamp_granularities: ['word'] }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { text: string; language: string; duration: number; words: unknown[] };
  }

  it('answers an entry by sha256 with its text, language, duration and words', async () => {
    const answer = await transcribe(toneWav(0.5));
    expect(answer).toMatchObject({ text: 'Goodbye for now.', language: 'english', duration: 0.5 });
    expect(answer.words).toEqual([
      { word: 'Goodbye', start: 0, end: 0.2 },
      { word: 'for', start: 0.22, end: 0.3 },
      { word: 'now.', start: 0.32, end: 0.5 },
    ]);
  });

  it('answers a clip\'s bytes with its text, by JSON and by multipart, its words spread over the audio', async () => {
    const answer = await transcribe(GREETING);
    expect(answer).toMatchObject({ text: 'Hello, and thanks for calling.', language: 'english' });
    expect(answer.duration).toBeCloseTo(1, 2);
    expect(answer.words).toHaveLength(5);

    const form = new FormData();
    form.append('model', STT);
    form.append('file', new File([GREETING], 'greeting.wav', { type: 'audio/wav' }));
    const multipart = await fetch(`${server.baseUrl}/audio/transcriptions`, { method: 'POST', headers: { Authorization: 'Bearer sk-test' }, body: form });
    expect(multipart.status).toBe(200);
    expect(((await multipart.json()) as { text: string }).text).toBe('Hello, and thanks for calling.');
  });
});
