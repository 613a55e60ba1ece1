// Runs `npm run build` when what `npm start` runs is missing from dist/ or older than what it is built from, so
// `npm ci && npm start` works on a fresh clone and after an edit, and a second start does not build again. Run as
// `prestart`; the package runs nothing at install (no `prepare`), and `npm test` builds on its own.
//
// Built from: src/ and ui/ (every file), the build's scripts and configuration, package.json, and the installed
// dependencies (node_modules/.package-lock.json, which npm rewrites on every install: the CLI bundles some).
// Compared by modification time: the oldest of the outputs below against the newest of the inputs.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
/** What bin/mockrouter.js loads, the package entries and the dashboard, each written by a different step of the build. */
const OUTPUTS = ['dist/cli/heap-limits.js', 'dist/bin/cli.js', 'dist/lib/index.js', 'dist/ui/app.js', 'dist/ui/index.html'];
const INPUT_FOLDERS = ['src', 'ui'];
const INPUT_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/clean-dist.mjs', 'scripts/bundle-cli.mjs', 'scripts/bundle-lib.mjs', 'scripts/bundle-ui.mjs', 'node_modules/.package-lock.json'];

/** Modification time of `path` (relative to the root) in ms, or `undefined` when it does not exist. */
function mtimeOf(path) {
  return statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs;
}

/** Why dist/ needs building (a missing output, or an input newer than the oldest output), or `undefined`. */
function staleness() {
  let oldest = Infinity;
  for (const output of OUTPUTS) {
    const mtime = mtimeOf(output);
    if (mtime === undefined) return `${output} is missing`;
    oldest = Math.min(oldest, mtime);
  }
  const inputs = [...INPUT_FILES];
  for (const folder of INPUT_FOLDERS) {
    for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) inputs.push(join(entry.parentPath, entry.name).slice(root.length));
    }
  }
  return inputs.find((input) => (mtimeOf(input) ?? 0) > oldest)?.concat(' changed since the last build');
}

const reason = staleness();
if (reason !== undefined) {
  process.stderr.write(`build-if-stale: ${reason}: npm run build\n`);
  // npm sets npm_execpath for its scripts: the same npm builds, whatever is first on the PATH.
  const npm = process.env.npm_execpath;
  const build = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(build.status ?? 1);
}
