/**
 * The files of `examples/recording/` shown on `docs/recording.md` (record the real gateway, replay it,
 * check it for drift), run offline: the "real gateway" is a mockrouter started here (`startServer`, seed 1), or a
 * stand-in in front of one (`test/examples.test.ts` checks that the page shows the files byte for byte).
 *
 * - `record-session.sh` runs with bash and curl and `bin/mockrouter.js record`: its curl session, then a command
 *   of one's own added to the same folder; no file written holds the key.
 * - `replay.test.ts` runs in a vitest of its own on that folder (`RECORDED_DIR`): in the suite it is skipped, for
 *   this repository commits no recorded folder (every file of `examples/` must be shown on a page, audio cannot).
 * - `save-catalog.sh` saves the upstream's `GET /api/v1/models?output_modalities=all` into a folder that loads
 *   as `fixtures`.
 * - `verify.yml` is parsed (schedule, the key as a secret, the report kept), and its two `run` steps run with bash
 *   against the upstream (exit 0), without a key (exit 2) and against a stand-in that renames a field (exit 1, the
 *   difference printed).
 *
 * Where bash or curl (or jq, for the `run` steps) is missing, these tests are skipped with a line locally and fail
 * under CI (`describeWithCommands` of `test/support/required-tool.ts`).
 *
 * @module
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runProgram } from './support/programs.js';
import { describeWithCommands } from './support/required-tool.js';
import { startServer } from '../src/server/index.js';
import { TTS } from './support/speech-model.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const read = (relative: string): string => readFileSync(path(relative), 'utf8');
const MOCKROUTER = `node ${path('bin/mockrouter.js')}`;
/** The "real key" of the sessions: no file written may hold it. */
const KEY = 'sk-or-v1-recording-example-secret-0123456789';


/** `runProgram` (`test/support/programs.ts`) with this file's bound. */
const run = (file: string, args: string[], env: Record<string, string | undefined>, cwd?: string) => runProgram(file, args, env, cwd, 60_000);

/** Every file under `dir`, as paths relative to it, sorted. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describeWithCommands('examples/recording/*.sh and replay.test.ts', ['bash', 'curl'], () => {
  let upstream: Awaited<ReturnType<typeof startServer>>;
  let tmp: string;
  beforeAll(async () => {
    upstream = await startServer({ port: 0, seed: 1 });
    tmp = mkdtempSync(join(tmpdir(), 'mockrouter-recording-'));
  });
  afterAll(async () => {
    await upstream?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("record-session.sh records a curl session, then an app's command into the same folder, and stops the recorder; the replay test passes on it", async () => {
    const out = join(tmp, 'recorded');
    const env = { OPENROUTER_API_KEY: KEY, UPSTREAM: upstream.url, OUT: out, PORT: '0', MOCKROUTER };
    const session = await run('bash', [path('examples/recording/record-session.sh')], env);
    expect({ code: session.code, stderr: session.stderr }).toEqual({ code: 0, stderr: '' });
    expect(session.stdout).toMatch(new RegExp(`^recorded: ${TTS}, \\d+ bytes of mp3, gen-tts-\\d{10}-[A-Za-z0-9]{20}\\n`));
    const audio = filesOf(out).filter((f) => f.endsWith('.mp3'));
    expect(filesOf(out)).toEqual([...audio, 'audio/index.json', 'generations.json', 'models.json']);
    expect(audio).toHaveLength(1);
    expect(session.stdout).toContain(`written to ${out}:\n./${audio[0]}\n./audio/index.json\n./generations.json\n./models.json\n`);
    const ids = (): string[] => (JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')) as { models: { id: string }[] }).models.map((m) => m.id);
    expect(ids()).toEqual([TTS]);

    // The app's own command, with OPENROUTER_BASE_URL pointed at the recorder: added to the folder.
    const app = 'curl -sSf -H "Authorization: Bearer $OPENROUTER_API_KEY" "$OPENROUTER_BASE_URL/models?output_modalities=speech" -o /dev/null';
    const second = await run('bash', [path('examples/recording/record-session.sh'), 'bash', '-c', app], env);
    expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
    expect(ids().length).toBeGreaterThan(3);
    expect(ids()).toContain(TTS);

    // Neither the key nor an Authorization header is on disk.
    for (const file of filesOf(out)) {
      const text = readFileSync(join(out, file), 'latin1');
      expect(text, file).not.toContain(KEY);
      expect(text.toLowerCase(), file).not.toContain('authorization');
    }

    // replay.test.ts, in a vitest of its own, on this folder: its three tests run and pass.
    const replay = await run(path('node_modules/.bin/vitest'), ['run', 'examples/recording/replay.test.ts'], { RECORDED_DIR: out, NO_COLOR: '1', FORCE_COLOR: undefined, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined, NODE_OPTIONS: undefined }, path('.'));
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/Tests +3 passed \(3\)/);
    expect(replay.stdout).not.toMatch(/skipped/);
  });

  it('record-session.sh needs the key, and says so', async () => {
    const result = await run('bash', [path('examples/recording/record-session.sh')], { OPENROUTER_API_KEY: undefined, UPSTREAM: upstream.url, OUT: join(tmp, 'none'), PORT: '0', MOCKROUTER });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('set OPENROUTER_API_KEY');
  });

  it('save-catalog.sh saves GET /models?output_modalities=all into a folder that loads as fixtures', async () => {
    const out = join(tmp, 'catalog');
    const result = await run('bash', [path('examples/recording/save-catalog.sh')], { OPENROUTER_API_KEY: KEY, UPSTREAM: upstream.url, OUT: out });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const saved = JSON.parse(readFileSync(join(out, 'models.json'), 'utf8')) as { data: { id: string }[] };
    expect(result.stdout).toBe(`saved ${saved.data.length} models\n`);
    expect(saved.data.length).toBeGreaterThan(10);
    expect(filesOf(out)).toEqual(['models.json']);

    const served = await startServer({ port: 0, fixtures: out });
    try {
      const model = await fetch(`${served.baseUrl}/model/${TTS}`, { headers: { Authorization: 'Bearer sk-test' } });
      expect(model.status).toBe(200);
      expect(((await model.json()) as { data: { id: string } }).data.id).toBe(TTS);
    } finally {
      await served.close();
    }
  });
});

/** A step of the workflow, as the example writes it. */
interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

describe('examples/recording/verify.yml', () => {
  const workflow = parse(read('examples/recording/verify.yml')) as {
    on: { schedule: { cron: string }[] };
    jobs: { verify: { 'runs-on': string; steps: Step[] } };
  };
  const steps = workflow.jobs.verify.steps;
  const verifyStep = steps.find((s) => s.run?.includes('mockrouter verify'))!;
  const driftStep = steps.find((s) => s.name === 'Show what drifted')!;

  it('runs on a cron schedule, with the key from a secret, and keeps the JSON report whatever happened', () => {
    expect(workflow.on.schedule[0]!.cron).toMatch(/^\d+ \d+ \* \* \*$/);
    expect(verifyStep.env).toEqual({ OPENROUTER_API_KEY: '${{ secrets.OPENROUTER_API_KEY }}' });
    expect(verifyStep.run).toBe('npx mockrouter verify --upstream https://openrouter.ai --json > verify-report.json');
    expect(driftStep.if).toBe('failure()');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with?.path).toBe('verify-report.json');
    expect(steps.findIndex((s) => s.run?.startsWith('npm ci'))).toBeLessThan(steps.indexOf(verifyStep));
  });

  describeWithCommands('its run steps, with bash', ['bash', 'jq'], () => {
    let upstream: Awaited<ReturnType<typeof startServer>>;
    let standIn: Server;
    let standInUrl: string;
    let tmp: string;
    beforeAll(async () => {
      upstream = await startServer({ port: 0, seed: 1 });
      // A gateway that renamed a field of the model record: context_length is context_size.
      standIn = createServer((req, res) => {
        void (async () => {
          const answer = await fetch(new URL(req.url!, upstream.url), { headers: { Authorization: req.headers.authorization ?? '' } });
          let body = await answer.text();
          if (req.url!.startsWith('/api/v1/model/')) body = body.replace('"context_length":', '"context_size":');
          res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(body);
        })().catch((error: unknown) => res.destroy(error as Error));
      }).listen(0, '127.0.0.1');
      await once(standIn, 'listening');
      standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
      tmp = mkdtempSync(join(tmpdir(), 'mockrouter-verify-'));
    });
    afterAll(async () => {
      await upstream?.close();
      if (standIn) await new Promise((resolve) => standIn.close(resolve));
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    /** The verify step's command against `url` with this repository's bin, as GitHub runs it (`bash -e`), then the drift step's if it failed. */
    async function runSteps(url: string, key: string | undefined): Promise<{ code: number | null; report: string; drift: string }> {
      const command = verifyStep.run!.replace('npx mockrouter', MOCKROUTER).replace('https://openrouter.ai', url);
      const verify = await run('bash', ['-e', '-c', command], { OPENROUTER_API_KEY: key }, tmp);
      const report = readFileSync(join(tmp, 'verify-report.json'), 'utf8');
      const drift = verify.code === 0 ? '' : (await run('bash', ['-e', '-c', driftStep.run!], {}, tmp)).stdout;
      return { code: verify.code, report, drift };
    }

    it('exits 0 against a gateway that answers as mockrouter does, and the report says so', async () => {
      const { code, report } = await runSteps(upstream.url, KEY);
      expect(code).toBe(0);
      expect(JSON.parse(report)).toMatchObject({ drift: false, differences: [] });
      expect(report).not.toContain(KEY);
    });

    it('exits 1 against a gateway whose model record renamed a field, and the drift step names it', async () => {
      const { code, report, drift } = await runSteps(standInUrl, KEY);
      expect(code).toBe(1);
      expect(JSON.parse(report)).toMatchObject({ drift: true });
      // One line for the rename, not a field gone and a field new.
      expect(drift).toBe('model data.context_size (renamed from data.context_length): upstream integer, mockrouter integer\n');
      expect(report + drift).not.toContain(KEY);
    });

    it('exits 2 without a key', async () => {
      const { code } = await runSteps(upstream.url, undefined);
      expect(code).toBe(2);
    });
  });
});
