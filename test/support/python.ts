/**
 * Finding a Python interpreter that can import a module, for the tests that run the docs' Python examples.
 *
 * The `python3` on the PATH is not always Debian's: under pyenv it is a shim to pyenv's own build, which does not
 * see the packages of Debian's `/usr/bin/python3` (`/usr/lib/python3/dist-packages`), and the reverse. So the
 * interpreters are tried one by one, each by its path: the repository's own `.venv` first (what `.ci/run` makes,
 * with `pip install` into it), then `python3` on the PATH, then Debian's.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The interpreters tried, in order: the repository's `.venv`, the PATH's `python3`, Debian's `/usr/bin/python3`. */
export const PYTHON_CANDIDATES: readonly string[] = [
  fileURLToPath(new URL('../../.venv/bin/python', import.meta.url)),
  'python3',
  '/usr/bin/python3',
];

/** An interpreter found by {@link findPythonWith}: its command and the module's `__version__`. */
export interface PythonWithModule {
  python: string;
  version: string;
}

/**
 * The first interpreter of `candidates` (default {@link PYTHON_CANDIDATES}) that imports `module`, with the
 * module's `__version__` (`''` when it has none); or, when none does, why: a string naming the interpreters tried
 * and what each lacked, for a skip line or a failure under CI. Runs each candidate once (`-c`, 30 s at most);
 * throws nothing.
 */
export function findPythonWith(module: string, candidates: readonly string[] = PYTHON_CANDIDATES): PythonWithModule | string {
  const lacks: string[] = [];
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', `import ${module}; print(getattr(${module}, "__version__", ""))`], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (probe.error === undefined && probe.status === 0) return { python, version: probe.stdout.trim() };
    lacks.push(`${python}: ${probe.error === undefined ? `no module ${module}` : 'not installed'}`);
  }
  return `no Python with the ${module} module (${lacks.join('; ')})`;
}
