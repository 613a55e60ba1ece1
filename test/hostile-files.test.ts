/**
 * The files and folders that options and flags name (`--fixtures <dir>`, `--keys`, `--scenario`, `--scenarios`)
 * under hostile input, through the `mockrouter` command and `startServer`; each refused at start-up with one line
 * naming the file, the path inside it and what was expected, never a stack trace, never a quote of a file refused:
 *
 * 1. a small degenerate file neither exhausts memory nor takes long: 10 MiB of `[` in `models.json` (it ran 43-55 s
 *    to a 4.5 GB heap abort, re-parsed as YAML to locate the JSON error), deep, cyclic, wide or alias-heavy YAML;
 *    the depth limit is `FOLDER_LIMITS.depth` (64), for valid JSON too;
 * 2. a folder is a boundary: a file of it that leads out through a link (an `audio/<sha>.mp3` to a file elsewhere,
 *    an `audio/` folder that is a link, a `models.json` to `/proc/self/environ`) is refused without reading it;
 * 3. the limits of the reader are `FOLDER_LIMITS` (record counts checked before the records are validated);
 * 4. a recording's `content_type` with CR/LF is refused at load (it loaded, then each matching request was a 500);
 * 5. ids objects inherit (`toString`, `constructor`) are plain names; `__proto__` is refused (both passed
 *    validation, then were a 500 or a TypeError at start-up).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FOLDER_LIMITS } from '../src/core/formats/folder-limits.js';
import { speechKeyOf } from '../src/core/formats/recording-schema.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { MAX_YAML_ALIASED_NODES, MAX_YAML_ANCHORS, MAX_YAML_TOKENS } from '../src/node-platform/yaml-limits.js';
import { MAX_USER_FILE_BYTES } from '../src/node-platform/read-user-file.js';
import { MAX_RECORDING_BYTES, MAX_RECORDINGS_TOTAL_BYTES } from '../src/node-platform/recorded-audio.js';
import { startServer } from '../src/server/index.js';
import { postSpeech } from './support/speech-request.js';
import { CLI_BIN } from './support/cli.js';

const temp = realpathSync(mkdtempSync(join(tmpdir(), 'mockrouter-hostile-')));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let folders = 0;
/** A fresh folder under `temp` holding `files` (name → text, bytes or a value written as JSON). */
function folder(files: Record<string, unknown> = {}): string {
  const dir = join(temp, `d${++folders}`);
  mkdirSync(dir);
  for (const [name, value] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), value instanceof Uint8Array || typeof value === 'string' ? value : JSON.stringify(value));
  }
  return dir;
}

/** What a run of the command came to: its exit, its stderr, and whether it got as far as its ready line. */
interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  listening: boolean;
}

/**
 * Runs `mockrouter --port 0 <args>` in a V8 heap of `heapMb` MB (old space), with `env` first in its environment;
 * ends at its exit, or at its ready line (then killed: it started, which is what a refusal must prevent).
 */
async function runCli(args: string[], { heapMb = 128, env = {} }: { heapMb?: number; env?: Record<string, string> } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, CLI_BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...process.env } });
  let stderr = '';
  let listening = false;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    if (!listening && d.toString().includes('mockrouter listening on')) {
      listening = true;
      child.kill('SIGKILL');
    }
  });
  // Only a fault reaches this bound (a start-up that never ends).
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stderr, listening };
}

/** A refusal: exit code 1 and the one line `mockrouter: <flag> <file>: [<location>: ]<problem>`. */
function refusal(flag: string, file: string, location: string, problem: string): Partial<CliRun> {
  return { code: 1, listening: false, stderr: `mockrouter: ${flag} ${file}: ${location ? `${location}: ` : ''}${problem}\n` };
}

/** The error `startServer(options)` rejects with (it must reject), as `{name, message}`. */
async function startFailure(options: Parameters<typeof startServer>[0]): Promise<{ name: string; message: string }> {
  const outcome = await startServer({ port: 0, ...options }).then(
    async (server) => {
      await server.close();
      return undefined;
    },
    (error: unknown) => error as Error,
  );
  expect(outcome, 'startServer should have refused').toBeInstanceOf(Error);
  return { name: outcome!.name, message: outcome!.message };
}

const TOO_DEEP = 'arrays and objects nest deeper than 64 levels; expected at most 64';
const good = loadFixtures();
const speechModel = good.models.find((m) => good.speech[m.id]?.response_formats.includes('mp3'))!;
const textModel = good.models.find((m) => !m.architecture.output_modalities.includes('speech'))!;
const voiceOf = (model: typeof speechModel) => model.supported_voices?.[0] ?? 'alloy';
/** A `models.json` of the fixtures shape holding `models`, no aliases, and `speech` (JSON text, so that `__proto__` stays a key). */
const modelsJson = (models: unknown[], speech: Record<string, unknown> | string = {}) =>
  `{"models": ${JSON.stringify(models)}, "aliases": [], "speech": ${typeof speech === 'string' ? speech : JSON.stringify(speech)}}`;

describe('1. a small degenerate file fails at once, in a small heap, naming the file and where', () => {
  it('--fixtures: a models.json of 10,485,700 "[" (under the 10 MiB cap)', async () => {
    const dir = folder({ 'models.json': '['.repeat(10_485_700) });
    expect(await runCli(['--fixtures', dir])).toMatchObject(refusal('--fixtures', join(dir, 'models.json'), 'line 1, column 65', TOO_DEEP));
  });

  it('--keys: the same as YAML, and 400,000 tokens of a flow list', async () => {
    const deep = join(folder({ 'keys.yaml': '['.repeat(10_485_700) }), 'keys.yaml');
    expect(await runCli(['--keys', deep])).toMatchObject(refusal('--keys', deep, 'line 1, column 65', TOO_DEEP));
    // After the lexer's start and `[`, each `0,` is three tokens (a scalar is two): the 400,001st is the comma after
    // the 133,333rd scalar, at offset 2 * 133,333.
    const wide = join(folder({ 'keys.yaml': `[${'0,'.repeat(3_000_000)}0]` }), 'keys.yaml');
    expect(await runCli(['--keys', wide])).toMatchObject(refusal('--keys', wide, `line 1, column ${2 * 133_333 + 1}`, `more than ${MAX_YAML_TOKENS} YAML tokens; expected at most ${MAX_YAML_TOKENS} (about 50,000 lines)`));
  });

  it('valid JSON nested 65 deep is refused as well, at the 65th bracket; 64 deep is read', async () => {
    const deep = join(folder({ 'keys.json': `{"keys": ${'['.repeat(64)}${']'.repeat(64)}}` }), 'keys.json');
    expect(await runCli(['--keys', deep])).toMatchObject(refusal('--keys', deep, 'line 1, column 73', TOO_DEEP));
    const scenario = join(folder({ 's.json': `{"name": "deep", "rules": [{"error": {"status": 500, "metadata": {"a": ${'['.repeat(59)}${']'.repeat(59)}}}}]}` }), 's.json');
    expect((await startServer({ port: 0, scenario }).then((server) => server.close().then(() => 'started')))).toBe('started');
  });

  it('YAML nested by indentation, by compact items, and through an alias inside its own anchor', async () => {
    let indented = '';
    for (let i = 0; i < 70; i++) indented += `${' '.repeat(i)}k:\n`;
    const cases: [string, string, string][] = [
      [indented, 'line 66, column 66', TOO_DEEP],
      [`keys:\n  - ${'- '.repeat(70)}sk-a\n`, 'line 2, column 131', TOO_DEEP],
      ['keys: &a [*a]\n', 'line 1, column 11', TOO_DEEP],
    ];
    for (const [text, location, problem] of cases) {
      const file = join(folder({ 'keys.yaml': text }), 'keys.yaml');
      expect(await runCli(['--keys', file]), text.slice(0, 20)).toMatchObject(refusal('--keys', file, location, problem));
    }
  });

  it('YAML whose aliases stand for too many nodes, or with too many anchors', async () => {
    const expanding = join(folder({ 'keys.yaml': `a: &a [${Array(2000).fill('sk-a').join(', ')}]\nkeys: [${Array(60).fill('*a').join(', ')}]\n` }), 'keys.yaml');
    const where = `line 2, column ${8 + 4 * 49}`; // the 50th *a passes 100,000 nodes (2,001 each)
    expect(await runCli(['--keys', expanding])).toMatchObject(
      refusal('--keys', expanding, where, `aliases stand for more than ${MAX_YAML_ALIASED_NODES} nodes in all; expected at most ${MAX_YAML_ALIASED_NODES} (each use of an anchor counts the nodes under it)`),
    );
    const anchors = join(folder({ 'keys.yaml': `keys: [${Array.from({ length: 600 }, (_, i) => `&a${i} sk-${i}, *a${i}`).join(', ')}]\n` }), 'keys.yaml');
    const { stderr } = await runCli(['--keys', anchors]);
    expect(stderr).toMatch(new RegExp(`^mockrouter: --keys ${anchors}: line 1, column \\d+: more than ${MAX_YAML_ANCHORS} anchors and aliases; expected at most ${MAX_YAML_ANCHORS}\\n$`));
  });

  it('a JSON error names the line and column and what was expected, never quoting the file', async () => {
    const dir = folder({ 'models.json': 'SECRET_TOKEN=hunter2\n' });
    expect(await runCli(['--fixtures', dir])).toMatchObject(
      refusal('--fixtures', join(dir, 'models.json'), 'line 1, column 1', 'invalid JSON: expected a value (an object, array, string, number, true, false or null)'),
    );
    const keys = join(folder({ 'keys.json': '{"keys": [\n  "sk-a" "SECRET_TOKEN"\n]}' }), 'keys.json');
    expect(await runCli(['--keys', keys])).toMatchObject(refusal('--keys', keys, 'line 2, column 10', "invalid JSON: expected ',' or ']' after an array element"));
  });
});

describe('2. a folder is a boundary: links that lead out of it are refused, their targets never read', () => {
  const outside = folder({ 'secret.mp3': 'SECRET-AUDIO-BYTES', 'audio/index.json': '{}', 'models.json': modelsJson([speechModel], { [speechModel.id]: good.speech[speechModel.id] }) });
  const secretBytes = statSync(join(outside, 'secret.mp3')).size;
  const models = modelsJson([speechModel], { [speechModel.id]: good.speech[speechModel.id] });
  const request = { model: speechModel.id, input: 'Hello.', voice: voiceOf(speechModel), response_format: 'mp3' as const };
  const index = (file: string, bytes: number) => ({ recordings: [{ key: speechKeyOf(request), file, content_type: 'audio/mpeg', bytes }] });

  it('an audio/<sha>.mp3 that is a link to a file elsewhere', async () => {
    const name = `${'a'.repeat(64)}.mp3`;
    const dir = folder({ 'models.json': models, 'audio/index.json': index(name, secretBytes) });
    symlinkSync(join(outside, 'secret.mp3'), join(dir, 'audio', name));
    expect(await runCli(['--fixtures', dir])).toMatchObject(
      refusal('--fixtures', join(dir, 'audio', 'index.json'), 'recordings[0].file', `audio/${name} resolves (through a link) to ${join(outside, 'secret.mp3')}, outside the folder ${dir}; expected a file of ${secretBytes} bytes inside it`),
    );
  });

  it.skipIf(!existsSync('/etc/passwd'))('an audio file that is a link to /etc/passwd is not served as speech', async () => {
    const dir = folder({ 'models.json': models, 'audio/index.json': index('p.mp3', statSync('/etc/passwd').size) });
    symlinkSync('/etc/passwd', join(dir, 'audio', 'p.mp3'));
    const { message } = await startFailure({ fixtures: dir });
    expect(message).toBe(`${join(dir, 'audio', 'index.json')}: recordings[0].file: audio/p.mp3 resolves (through a link) to /etc/passwd, outside the folder ${dir}; expected a file of ${statSync('/etc/passwd').size} bytes inside it`);
  });

  it('an audio/ folder that is a link to a folder elsewhere', async () => {
    const elsewhere = folder({ 'index.json': index('x.mp3', secretBytes), 'x.mp3': 'SECRET-AUDIO-BYTES' });
    const dir = folder({ 'models.json': models });
    symlinkSync(elsewhere, join(dir, 'audio'));
    expect(await runCli(['--fixtures', dir])).toMatchObject(
      refusal('--fixtures', join(dir, 'audio', 'index.json'), '', `resolves (through a link) to ${join(elsewhere, 'index.json')}, outside the folder ${dir}; expected a file inside it`),
    );
  });

  it.skipIf(!existsSync('/proc/self/environ'))('a models.json that is a link to /proc/self/environ: refused, nothing of it printed', async () => {
    const dir = folder();
    symlinkSync('/proc/self/environ', join(dir, 'models.json'));
    const run = await runCli(['--fixtures', dir], { env: { MOCKROUTER_TEST_SECRET: 'do-not-print-me' } });
    expect(run.stderr).not.toMatch(/MOCKROUTER_TEST_SECRET|do-not-print-me|PATH=/);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^mockrouter: --fixtures ${join(dir, 'models.json')}: resolves \\(through a link\\) to /proc/\\d+/environ, outside the folder ${dir}; expected a file inside it\\n$`));
  });

  it('generations.json and a scenario of --scenarios that lead out are refused', async () => {
    const dir = folder({ 'models.json': models });
    symlinkSync(join(outside, 'models.json'), join(dir, 'generations.json'));
    expect(await runCli(['--fixtures', dir])).toMatchObject(
      refusal('--fixtures', join(dir, 'generations.json'), '', `resolves (through a link) to ${join(outside, 'models.json')}, outside the folder ${dir}; expected a file inside it`),
    );
    const scenarios = folder({ 'a.yaml': 'name: a\nrules:\n  - error: { status: 500 }\n' });
    symlinkSync(join(outside, 'models.json'), join(scenarios, 'b.json'));
    expect(await runCli(['--scenarios', scenarios])).toMatchObject(
      refusal('--scenarios', join(scenarios, 'b.json'), '', `resolves (through a link) to ${join(outside, 'models.json')}, outside the folder ${scenarios}; expected a file inside it`),
    );
  });

  it('links that stay inside the folder are read, and so is a folder named through a link', async () => {
    const dir = folder({ 'kept/models.json': models, 'kept/a.mp3': 'RECORDED', 'audio/index.json': index('a.mp3', 8) });
    symlinkSync(join(dir, 'kept', 'models.json'), join(dir, 'models.json'));
    symlinkSync(join('..', 'kept', 'a.mp3'), join(dir, 'audio', 'a.mp3'));
    const link = join(temp, `link-to-d${folders}`);
    symlinkSync(dir, link);
    const server = await startServer({ port: 0, fixtures: link });
    try {
      const res = await postSpeech(server.baseUrl, request, { Authorization: 'Bearer sk-a' });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('RECORDED');
    } finally {
      await server.close();
    }
  });
});

describe('3. the reader bounds are FOLDER_LIMITS, record counts checked before the records', () => {
  it('one definition', () => {
    expect({ MAX_USER_FILE_BYTES, MAX_RECORDING_BYTES, MAX_RECORDINGS_TOTAL_BYTES }).toEqual({
      MAX_USER_FILE_BYTES: FOLDER_LIMITS.fileBytes,
      MAX_RECORDING_BYTES: FOLDER_LIMITS.audioFileBytes,
      MAX_RECORDINGS_TOTAL_BYTES: FOLDER_LIMITS.audioTotalBytes,
    });
  });

  it('more model, generation or recording records than the limits', async () => {
    const many = (n: number) => `[${Array(n).fill('{}').join(',')}]`;
    const models = folder({ 'models.json': `{"models": ${many(FOLDER_LIMITS.models + 1)}, "aliases": [], "speech": {}}` });
    expect(await startFailure({ fixtures: models })).toEqual({ name: 'FixtureError', message: `${join(models, 'models.json')}: models: ${FOLDER_LIMITS.models + 1} model records; expected at most ${FOLDER_LIMITS.models}` });
    const saved = folder({ 'models.json': `{"data": ${many(FOLDER_LIMITS.models + 1)}}` });
    expect((await startFailure({ fixtures: saved })).message).toBe(`${join(saved, 'models.json')}: data: ${FOLDER_LIMITS.models + 1} model records; expected at most ${FOLDER_LIMITS.models}`);
    const generations = folder({ 'models.json': modelsJson([textModel]), 'generations.json': `{"generations": ${many(FOLDER_LIMITS.generations + 1)}}` });
    expect((await startFailure({ fixtures: generations })).message).toBe(
      `${join(generations, 'generations.json')}: generations: ${FOLDER_LIMITS.generations + 1} generation records; expected at most ${FOLDER_LIMITS.generations}`,
    );
    const recordings = folder({ 'models.json': modelsJson([textModel]), 'audio/index.json': `{"recordings": ${many(FOLDER_LIMITS.recordings + 1)}}` });
    expect((await startFailure({ fixtures: recordings })).message).toBe(
      `${join(recordings, 'audio', 'index.json')}: recordings: ${FOLDER_LIMITS.recordings + 1} recordings; expected at most ${FOLDER_LIMITS.recordings}`,
    );
  });
});

describe('4. a recording whose content_type is no header value is refused at load', () => {
  it.for(['audio/mpeg\r\nX-Injected: 1', 'audio/mpeg\n', 'audio/\u0000mpeg', 'audio/mpeg; name=\u2603'])('%j', async (contentType) => {
    const request = { model: speechModel.id, input: 'Hi.', voice: voiceOf(speechModel) };
    const dir = folder({
      'models.json': modelsJson([speechModel], { [speechModel.id]: good.speech[speechModel.id] }),
      'audio/index.json': { recordings: [{ key: speechKeyOf(request), file: 'a.pcm', content_type: contentType, bytes: 4 }] },
      'audio/a.pcm': new Uint8Array(4),
    });
    expect(await runCli(['--fixtures', dir])).toMatchObject(
      refusal('--fixtures', join(dir, 'audio', 'index.json'), 'recordings[0].content_type', 'expected a header value of tab, printable ASCII or Latin-1 characters (no CR, LF or other control characters, nothing past U+00FF)'),
    );
  });
});

describe('5. ids that every object inherits are plain names; __proto__ is refused', () => {
  const speech = good.speech[speechModel.id]!;
  /** Starts a server on `models` and asks for speech of `model`: the status and content type. */
  async function speak(models: string, model: string): Promise<[number, string | null]> {
    const server = await startServer({ port: 0, fixtures: folder({ 'models.json': models }) });
    try {
      const res = await postSpeech(server.baseUrl, { model, input: 'Hi.', voice: voiceOf(speechModel), response_format: 'mp3' }, { Authorization: 'Bearer sk-a' });
      await res.arrayBuffer();
      return [res.status, res.headers.get('content-type')];
    } finally {
      await server.close();
    }
  }

  it.for(['toString', 'constructor', 'hasOwnProperty'])('%s: a speech model, a text model, a saved catalog', async (id) => {
    expect(await speak(modelsJson([{ ...speechModel, id }, { ...textModel, id: 'a/text' }], { [id]: speech }), id)).toEqual([200, 'audio/mpeg']);
    expect(await speak(modelsJson([{ ...textModel, id }]), id)).toEqual([400, 'application/json']);
    expect(await speak(JSON.stringify({ data: [{ ...speechModel, id }] }), id)).toEqual([200, 'audio/mpeg']);
  });

  it('toString: a speech model without its speech entry is refused at load (not a 500 later)', async () => {
    const dir = folder({ 'models.json': modelsJson([{ ...speechModel, id: 'toString' }]) });
    expect(await runCli(['--fixtures', dir])).toMatchObject(refusal('--fixtures', join(dir, 'models.json'), 'speech.toString', 'missing entry for speech model "toString"'));
  });

  it('__proto__ as a model id, a speech entry, an alias, a saved model', async () => {
    const problem = '"__proto__" is not taken as a name (JavaScript objects reserve it); expected another model id';
    const entry = JSON.stringify(speech);
    const cases: [string, string][] = [
      [modelsJson([{ ...speechModel, id: '__proto__' }], `{"__proto__": ${entry}}`), 'models[0].id'],
      [modelsJson([speechModel], `{${JSON.stringify(speechModel.id)}: ${entry}, "__proto__": ${entry}}`), 'speech.__proto__'],
      [JSON.stringify({ models: [textModel], aliases: [{ alias: '__proto__', target: textModel.id }], speech: {} }), 'aliases[0].alias'],
      [JSON.stringify({ data: [textModel, { ...speechModel, id: '__proto__' }] }), 'data[1].id'],
    ];
    for (const [models, location] of cases) {
      const dir = folder({ 'models.json': models });
      expect(await startFailure({ fixtures: dir }), location).toEqual({ name: 'FixtureError', message: `${join(dir, 'models.json')}: ${location}: ${problem}` });
    }
    const dir = folder({ 'models.json': cases[0]![0] });
    expect(await runCli(['--fixtures', dir])).toMatchObject(refusal('--fixtures', join(dir, 'models.json'), 'models[0].id', problem));
  });
});
