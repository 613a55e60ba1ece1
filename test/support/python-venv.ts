/**
 * The virtual environment the pytest plugin's tests run in (`test/pytest-plugin.test.ts`), with pytest,
 * pytest-xdist, openai and hatchling (the plugin's build backend): the project's `.venv` when it has them all (`.ci/run`
 * installs them there, beside the openai client the Python examples use, so `npm ci`, which wipes `node_modules/`,
 * does not cost a minute of pip each time), else one made with `python3 -m venv` under `node_modules/.cache/` from the
 * index pip is set up with. The plugin itself is built and installed again on every run, so the tests always see the
 * package as `pip install ./python` makes it.
 *
 * @module
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** This repository's root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the environment holds besides the plugin. openai 2.x and 3.x are the versions docs/python.md was tried with. */
export const VENV_REQUIREMENTS: readonly string[] = ['pytest>=7', 'pytest-xdist', 'openai>=2,<4', 'hatchling>=1.27'];

/**
 * The `python3` that can make a virtual environment (`import venv, ensurepip`): the PATH's, else Debian's; or why
 * there is none, for a skip line or a failure under CI. Runs each candidate once; throws nothing.
 */
export function pythonWithVenv(candidates: readonly string[] = ['python3', '/usr/bin/python3']): { python: string } | string {
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import venv, ensurepip'], { stdio: 'ignore', timeout: 30_000 });
    if (probe.error === undefined && probe.status === 0) return { python };
  }
  return `no python3 that can make a virtual environment (tried ${candidates.join(', ')}; Debian: apt-get install python3-venv)`;
}

/** Runs `file args` to its end; rejects with its output when it fails or passes `timeoutMs`. */
function run(file: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve();
      else reject(new Error(`${[file, ...args].join(' ')} failed (${error.code ?? error.signal}):\n${stdout}${stderr}`));
    });
  });
}

/**
 * A Python program that exits 0 when every requirement given as an argument (`name>=1.2` and the like) is installed
 * at a version it allows, else 1; `packaging` (which hatchling and pip depend on) reads them as pip does.
 */
const MEETS_REQUIREMENTS = [
  'import sys',
  'from importlib.metadata import version, PackageNotFoundError',
  'from packaging.requirements import Requirement',
  'for text in sys.argv[1:]:',
  '    requirement = Requirement(text)',
  '    try:',
  '        installed = version(requirement.name)',
  '    except PackageNotFoundError:',
  '        sys.exit(1)',
  '    if not requirement.specifier.contains(installed, prereleases=True):',
  '        sys.exit(1)',
].join('\n');

/**
 * The environment's interpreter, with the plugin freshly installed from `python/`: the project's `.venv` when it has
 * every one of {@link VENV_REQUIREMENTS} at a version they allow; else the one under `node_modules/.cache/`, made first when
 * it is missing or was made for other requirements (each pip call with `--retries 0`: an index that cannot be reached
 * fails at once). About 30 s the first time on a 2-core machine, then a few seconds.
 *
 * @param python the interpreter that makes it ({@link pythonWithVenv}).
 * @throws {Error} with pip's output when an install fails.
 */
export async function pytestVenv(python: string): Promise<string> {
  const project = join(ROOT, '.venv', 'bin', 'python');
  if (existsSync(project) && spawnSync(project, ['-c', MEETS_REQUIREMENTS, ...VENV_REQUIREMENTS], { stdio: 'ignore', timeout: 60_000 }).status === 0) {
    await run(project, ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--no-deps', '--force-reinstall', '--no-build-isolation', './python'], 120_000);
    return project;
  }
  const version = spawnSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).stdout.trim();
  const dir = join(ROOT, 'node_modules', '.cache', 'pytest-mockrouter', `venv-${version}`);
  const made = join(dir, '.requirements');
  const venvPython = join(dir, 'bin', 'python');
  const wanted = VENV_REQUIREMENTS.join('\n');
  if (!existsSync(made) || readFileSync(made, 'utf8') !== wanted) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await run(python, ['-m', 'venv', dir], 120_000);
    // The plugin with its dependencies the first time, so its own requirements are checked by pip.
    await run(venvPython, ['-m', 'pip', 'install', '--quiet', '--retries', '0', ...VENV_REQUIREMENTS, './python'], 600_000);
    writeFileSync(made, wanted);
  }
  await run(venvPython, ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--no-deps', '--force-reinstall', '--no-build-isolation', './python'], 120_000);
  return venvPython;
}
