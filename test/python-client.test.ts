/**
 * `examples/clients/python-openai.py`, the `openai` Python client of docs/python.md, run against a standalone server
 * started with `examples/scenarios`: what it prints, and the journal the server kept of it, so the retry trap the
 * page describes (a cut body retried twice by default, once with `max_retries=0`, absorbed by a rule with `times`)
 * is what the client does. The interpreter is the first that imports `openai` (`test/support/python.ts`: the
 * repository's `.venv`, which `.ci/run` makes, then `python3`, then Debian's `/usr/bin/python3`); without one the
 * suite is skipped with a line saying so, and fails under CI.
 */
import { describe, expect, it } from 'vitest';
import { startServer } from 'mockrouter/server';
import { runProgram } from './support/programs.js';
import { findPythonWith } from './support/python.js';
import { describeMissingTool } from './support/required-tool.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const EXAMPLE = 'examples/clients/python-openai.py';
const FOUND = findPythonWith('openai');

/** The fields of a journal entry this test reads (docs/admin-api.md, "The journal"). */
interface Entry {
  session: string;
  status: number;
  rule: string | null;
  body_end: string | null;
  headers: Record<string, string>;
}

function pythonClientSuite(python: string, version: string): void {
  it(`prints the speech, the 402 and the retry trap as docs/python.md says (openai ${version})`, async () => {
    const server = await startServer({ port: 0, seed: 1, scenarios: path('examples/scenarios') });
    try {
      const { code, stdout, stderr } = await runProgram(python, [path(EXAMPLE)], { OPENROUTER_BASE_URL: server.baseUrl }, undefined, 120_000);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(
        new RegExp(
          [
            '^speech: \\d{4,} bytes of mp3, gen-tts-\\d{10}-[A-Za-z0-9]{20}, 1 request',
            'X-Mock-Status 402: 402 Insufficient credits\\. Add more using https://openrouter\\.ai/credits, 1 request',
            'truncated-audio, default retries: APIConnectionError after 3 requests',
            'truncated-audio, max_retries=0: APIConnectionError after 1 request',
            'truncated-once, default retries: \\d{4,} bytes of pcm after 2 requests',
            'truncated-audio, streamed: RemoteProtocolError after \\d+ bytes, 1 request\n$',
          ].join('\n'),
        ),
      );

      // The journal, once every body has ended: one session, and each answer as the lines above count it.
      const journal = async (): Promise<Entry[]> => ((await (await fetch(`${server.url}/__mock/requests`)).json()) as { requests: Entry[] }).requests;
      await expect.poll(async () => (await journal()).every((entry) => entry.body_end !== null), { timeout: 30_000 }).toBe(true);
      const entries = await journal();
      expect(new Set(entries.map((entry) => entry.session)).size).toBe(1);
      expect(entries[0]!.session).toMatch(/^python-[0-9a-f]{8}$/);
      expect(entries[0]!.headers['user-agent']).toBe(`OpenAI/Python ${version}`);
      const cut = [200, 'truncated-audio', 'cut'];
      expect(entries.map((entry) => [entry.status, entry.rule, entry.body_end])).toEqual([
        [200, null, 'complete'],
        [402, '402', 'complete'],
        cut, cut, cut, // the default client: the first request and its two retries
        cut, // max_retries=0
        [200, 'cut-once', 'cut'], [200, null, 'complete'], // times: 1, then the retry answered whole
        cut, // streamed: the read fails, no retry
      ]);
    } finally {
      await server.close();
    }
  }, 150_000);
}

if (typeof FOUND !== 'string') describe(EXAMPLE, () => pythonClientSuite(FOUND.python, FOUND.version));
else {
  describeMissingTool(EXAMPLE, 'python3 and the openai module', `${FOUND}; install it with: python3 -m venv .venv && .venv/bin/pip install openai`, () =>
    pythonClientSuite('python3', ''),
  );
}
