/**
 * The examples of docs/transcription.md (`examples/transcription/`), each run as a user runs it against a standalone
 * server with the default seed: what it prints is what its comments say (the words of the speech, exactly; the word
 * times and the usage of that seed). The shell example needs bash, curl, jq and base64, the Python one the `openai`
 * module (`test/support/python.ts`); under CI their absence fails the suite (`test/support/required-tool.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from 'mockrouter/server';
import { runProgram } from './support/programs.js';
import { findPythonWith } from './support/python.js';
import { describeMissingTool, describeWithCommands } from './support/required-tool.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const SAID = 'Meet me at the station at noon.';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0 });
});
afterAll(() => server.close());

const env = () => ({ OPENROUTER_BASE_URL: server.baseUrl, API: server.baseUrl });

describe('examples/transcription (JavaScript)', () => {
  it('openai-client.ts prints the words said and their times', async () => {
    const { code, stdout, stderr } = await runProgram(process.execPath, ['--import', 'tsx', path('examples/transcription/openai-client.ts')], env(), undefined, 60_000);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trimEnd().split('\n')).toEqual([SAID, 'Meet@0 me@0.318 at@0.56 the@0.826 station@1.087 at@1.618 noon@1.864']);
  });

  it('openrouter-sdk.ts prints the words said and the usage', async () => {
    const { code, stdout, stderr } = await runProgram(process.execPath, ['--import', 'tsx', path('examples/transcription/openrouter-sdk.ts')], env(), undefined, 60_000);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trimEnd().split('\n')).toEqual([SAID, '{"cost":0.0003,"seconds":3}']);
  });
});

describeWithCommands('examples/transcription/curl.sh', ['bash', 'curl', 'jq', 'base64'], () => {
  it('uploads the MP3 it had said, then sends it as base64 JSON: the words, then the first word time and the usage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mockrouter-stt-curl-'));
    try {
      const { code, stdout, stderr } = await runProgram('bash', [path('examples/transcription/curl.sh')], env(), dir, 60_000);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout.trimEnd().split('\n')).toEqual([SAID, '{"duration":2.067,"first":{"word":"Meet","start":0,"end":0.214},"usage":{"seconds":3,"cost":0.0003}}']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const PYTHON = findPythonWith('openai');
const pythonSuite = (python: string) => () => {
  it('python-openai.py writes the speech to a file, uploads it and prints the words said', async () => {
    const { code, stdout, stderr } = await runProgram(python, [path('examples/transcription/python-openai.py')], env(), undefined, 60_000);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(`${SAID}\n`);
  });
};
if (typeof PYTHON !== 'string') describe('examples/transcription/python-openai.py', pythonSuite(PYTHON.python));
else {
  describeMissingTool('examples/transcription/python-openai.py', 'python3 and the openai module', `${PYTHON}; install it with: python3 -m venv .venv && .venv/bin/pip install openai`, pythonSuite('python3'));
}
