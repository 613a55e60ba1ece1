/**
 * The GitHub Actions job `docs/ci.md` gives (`examples/ci/github-actions.yml`): a workflow that runs `.ci/run` in
 * Debian 12 (where `.ci/run` installs the tests' tools as root) on a Node.js the package supports, within CI's 90
 * minutes. GitHub itself is not reachable here; what the job depends on is checked: its YAML, its image, its step, and
 * that `.ci/run` installs each tool the suite fails without under `CI`. And the load layer
 * (`test/support/load-layer.ts`): `.ci/run` runs `npm run test:load` after `npm test`, and that run reaches every test
 * file that holds a test of the layer. And the order the files start in without vitest's durations (a fresh clone):
 * `SLOWEST_FILES` of `vitest.config.ts` first (`test/support/slowest-first.ts`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { LOAD_FILES, SLOWEST_FILES } from '../vitest.config.js';
import { slowestFirst } from './support/slowest-first.js';
import type { TestSpecification } from 'vitest/node';

const root = new URL('../', import.meta.url);
const workflow = parse(readFileSync(new URL('examples/ci/github-actions.yml', root), 'utf8')) as {
  on: string[];
  jobs: Record<string, { 'runs-on': string; container: string; 'timeout-minutes': number; steps: Record<string, string>[] }>;
};
const ciRun = readFileSync(new URL('.ci/run', root), 'utf8');

describe('the GitHub Actions job of docs/ci.md', () => {
  it('runs .ci/run in Debian 12 on a supported Node.js, on pushes and pull requests, within an hour', () => {
    expect(workflow.on).toEqual(['push', 'pull_request']);
    const job = workflow.jobs.test!;
    expect(job.container).toMatch(/^node:(\d+)-bookworm$/);
    const major = Number(/^node:(\d+)/.exec(job.container)![1]);
    const engines = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(major).toBeGreaterThanOrEqual(Number(/>=(\d+)/.exec(engines)![1]));
    expect(job['timeout-minutes']).toBeLessThanOrEqual(90);
    expect(job.steps).toEqual([{ uses: 'actions/checkout@v4' }, { run: 'bash .ci/run' }]);
  });

  it('.ci/run installs every tool the suite needs under CI, then runs npm ci and npm test', () => {
    for (const tool of ['chromium', 'redis-server', 'ffmpeg', 'pocketsphinx pocketsphinx-en-us', 'curl jq python3', 'python3-venv', "'openai"]) expect(ciRun, tool).toContain(tool);
    expect(ciRun.indexOf('npm ci')).toBeLessThan(ciRun.indexOf('npm test'));
  });
});

describe('the load layer', () => {
  it('.ci/run runs npm run test:load after npm test and before the compatibility runs, with its own header line', () => {
    const steps = ['\nnpm test\n', '(npm run test:load)"\nnpm run test:load\n', '\nbash scripts/ci-compat.sh\n'].map((step) => ciRun.indexOf(step));
    expect(steps[0]).toBeGreaterThan(0);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
  });

  it('npm run test:load runs vitest.config.ts\u2019s load files: every test file that imports LOAD_TAG or itLoad', () => {
    const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['test:load']).toBe('MOCKROUTER_LOAD=1 vitest run --tags-filter=load');
    const tagged = ['test', 'examples'].flatMap((dir) =>
      readdirSync(new URL(`${dir}/`, root), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.test.ts'))
        .map((file) => `${dir}/${file.split('\\').join('/')}`)
        .filter((file) => /import \{[^}]*\b(LOAD_TAG|itLoad)\b[^}]*\} from '(?:\.\.?\/)+(?:test\/)?support\/load-layer\.js'/.test(readFileSync(new URL(file, root), 'utf8'))),
    );
    expect(tagged.length).toBeGreaterThan(0);
    expect([...LOAD_FILES].sort()).toEqual(tagged.sort());
  });
});

describe('the order of the test files', () => {
  it('names only test files that exist, each once', () => {
    for (const file of SLOWEST_FILES) expect(existsSync(new URL(`../${file}`, import.meta.url)), file).toBe(true);
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });

  /** What the sequencer sorts: files of two projects, as vitest's specifications (the fields BaseSequencer reads). */
  const spec = (project: string, file: string) => ({ moduleId: `/repo/${file}`, project: { name: project, config: { sequence: { groupOrder: 0 }, isolate: project === 'isolated' } } }) as unknown as TestSpecification;
  const files = [spec('shared', 'test/a.test.ts'), spec('shared', 'test/slow.test.ts'), spec('isolated', 'test/b.test.ts'), spec('shared', 'test/slower.test.ts')];
  /** The sequencer over a results cache holding durations for `cached` (vitest's keys: `<project>:<path>`) only. */
  const sequencer = (cached: Record<string, number>) => {
    const Sequencer = slowestFirst(['test/slower.test.ts', 'test/slow.test.ts']);
    const durations = new Map(Object.entries(cached));
    const cache = {
      getFileTestResults: (key: string) => (durations.has(key) ? { failed: false, duration: durations.get(key)! } : undefined),
      getFileStats: () => ({ size: 1 }),
    };
    return new Sequencer({ config: { root: '/repo' }, cache } as never);
  };
  const names = (sorted: TestSpecification[]) => sorted.map((file) => `${file.project.name}:${file.moduleId.slice('/repo/'.length)}`);

  it('starts the listed files first, slowest first, when vitest knows no durations: each project in a run of its own', async () => {
    const order = ['isolated:test/b.test.ts', 'shared:test/slower.test.ts', 'shared:test/slow.test.ts', 'shared:test/a.test.ts'];
    expect(names(await sequencer({}).sort(files))).toEqual(order);
    // Durations of some listed files only (a run of one file since): still the list.
    expect(names(await sequencer({ 'shared:test/slow.test.ts': 1 }).sort(files))).toEqual(order);
  });

  it("keeps vitest's own order (the longest of the last run first) once it knows every listed file's duration", async () => {
    const cached = { 'shared:test/a.test.ts': 9, 'shared:test/slow.test.ts': 1, 'shared:test/slower.test.ts': 2, 'isolated:test/b.test.ts': 1 };
    expect(names(await sequencer(cached).sort(files))).toEqual(['isolated:test/b.test.ts', 'shared:test/a.test.ts', 'shared:test/slower.test.ts', 'shared:test/slow.test.ts']);
  });

  it('is the sequencer vitest.config.ts gives vitest', async () => {
    const config = (await import('../vitest.config.js')).default as { test: { sequence: { sequencer: { name: string } } } };
    expect(config.test.sequence.sequencer.name).toBe('SlowestFirst');
  });
});
