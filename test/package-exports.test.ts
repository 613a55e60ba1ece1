/**
 * The package's entry points load from CommonJS as well as from ES modules: `exports` (package.json) gives each one
 * a `default` target, so `require('mockrouter')` gets the ES module through Node's `require(esm)` (Node.js 20.19
 * and 22.12 on) instead of `ERR_PACKAGE_PATH_NOT_EXPORTED`. Run in a child process through the package's
 * self-reference, on `dist/` (built by `npm test`).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What `require(id)` gives a CommonJS script in the package's folder: the type of export `name`, or the error. */
function requireFromCommonJs(id: string, name: string): string {
  const script = `try { console.log(typeof require(${JSON.stringify(id)})[${JSON.stringify(name)}]); } catch (e) { console.log(e.code ?? e.message); }`;
  return execFileSync(process.execPath, ['--no-warnings', '--input-type=commonjs', '-e', script], { cwd: ROOT, encoding: 'utf8' }).trim();
}

describe('the package from CommonJS', () => {
  it.each([
    ['mockrouter', 'createMockRouter'],
    ['mockrouter/server', 'startServer'],
    ['mockrouter/vitest', 'honorsRetryAfter'],
    // The errors startServer throws, without importing the main entry (which needs msw).
    ['mockrouter/server', 'OptionsError'],
    ['mockrouter/server', 'ScenarioError'],
  ])('require(%j) gives %s', (id, name) => {
    expect(requireFromCommonJs(id, name)).toBe('function');
  });
});
