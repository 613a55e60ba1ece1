/**
 * The pytest plugin of `python/` (`pytest-mockrouter`, docs/python.md): its own pytest suite, `python/tests/`, run in
 * a virtual environment with pytest, pytest-xdist and openai (`test/support/python-venv.ts`), against this
 * repository's `bin/mockrouter.js` (`MOCKROUTER_BIN`). That suite covers speech with the `openai` client, the model and
 * generation lookups, scenarios through `use_scenario` and the marker, clean state between tests, the journal,
 * the clock, `-n 2`, the usage errors, and no server left behind (at the end, on Ctrl-C, when pytest is killed).
 * Without a `python3` that can make a virtual environment the suite is skipped with a line saying so, and fails
 * under CI; a pip install that fails fails here too.
 *
 * Also here: the workflow of `examples/pytest/ci.yml` (what it installs and runs, and that it installs the plugin
 * from this repository's `python/` folder).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runProgram } from './support/programs.js';
import { pythonWithVenv, pytestVenv } from './support/python-venv.js';
import { describeMissingTool } from './support/required-tool.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const FOUND = pythonWithVenv();

function pluginSuite(python: string): void {
  it('passes python/tests/ (pytest, with the plugin installed from python/)', async () => {
    const venvPython = await pytestVenv(python);
    const { code, stdout, stderr } = await runProgram(
      venvPython,
      // Two workers, each file's tests in one of them in order (test_clean_state.py needs its order).
      ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-n', '2', '--dist', 'loadfile', 'tests'],
      { MOCKROUTER_BIN: path('bin/mockrouter.js'), PYTHONDONTWRITEBYTECODE: '1' },
      path('python/'),
      300_000,
    );
    expect({ code, stderr }, stdout).toEqual({ code: 0, stderr: '' });
    // Every test ran: none skipped, none deselected.
    expect(stdout).toMatch(/^\d{2,} passed in [\d.]+s/m);
    expect(stdout).not.toMatch(/skipped|xfail|deselected/);
  }, 900_000);
}

if (typeof FOUND !== 'string') describe('python/ (pytest-mockrouter)', () => pluginSuite(FOUND.python));
else describeMissingTool('python/ (pytest-mockrouter)', 'python3 with venv', FOUND, () => pluginSuite('python3'));

describe('examples/pytest/ci.yml', () => {
  interface Step {
    uses?: string;
    run?: string;
    with?: Record<string, unknown>;
  }
  const workflow = parse(readFileSync(path('examples/pytest/ci.yml'), 'utf8')) as { jobs: { pytest: { steps: Step[] } } };
  const steps = workflow.jobs.pytest.steps;

  it('sets up a supported Node.js and installs the project\'s mockrouter before pytest runs with xdist', () => {
    const node = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(Number(node?.with?.['node-version'])).toBeGreaterThanOrEqual(22);
    const runs = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    expect(runs[0]).toBe('npm ci');
    expect(runs.at(-1)).toBe('pytest -n auto');
    expect(runs[1]).toMatch(/^pip install .* pytest-xdist openai$/);
  });

  it('installs the plugin from the folder of this repository that holds it', () => {
    const install = steps.find((step) => step.run?.startsWith('pip install'))!.run!;
    const [, repository, folder] = /"pytest-mockrouter @ git\+(https:\/\/github\.com\/[^#"]+)#subdirectory=([^"]+)"/.exec(install)!;
    const pkg = JSON.parse(readFileSync(path('package.json'), 'utf8')) as { repository: { url: string } };
    expect(`git+${repository}.git`).toBe(pkg.repository.url);
    expect(readFileSync(path(`${folder}/pyproject.toml`), 'utf8')).toContain('name = "pytest-mockrouter"');
  });
});
