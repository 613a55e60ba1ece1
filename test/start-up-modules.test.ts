/**
 * What the start-up leaves for later (bench/README.md, section 4): `import('mockrouter')` and the CLI's server up to its
 * ready line load no `node:crypto` (`src/node-platform/node-crypto.ts` loads it at the first hash or random id), and a
 * `--quiet` server never loads pino (`deferredLogger` of `src/cli/logger.ts` loads it after the ready line, and only
 * for the request log). Each is checked in a new Node.js process: Node's list of the built-in modules it loaded
 * (`process.moduleLoadList`), and a module hook (`module.register`) that writes every module it loads to stderr. The
 * checks of `node:crypto` run where `node:http` itself does not load it (Node.js 20; 22 and 24 do).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from './support/cli.js';

const MAIN_ENTRY = fileURLToPath(new URL('../dist/lib/index.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mockrouter-start-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module hook that writes `loaded <url>` to stderr for each module loaded (the hooks run on their own thread). */
const HOOKS = join(dir, 'hooks.mjs');
writeFileSync(HOOKS, "import { writeSync } from 'node:fs';\nexport async function load(url, context, next) {\n  writeSync(2, `loaded ${url}\\n`);\n  return next(url, context);\n}\n");

/**
 * Preloaded into the CLI: registers {@link HOOKS}; at the ready line, writes `crypto at ready: <true|false>`;
 * answers one model lookup through the server it started; then exits.
 */
const PROBE = join(dir, 'probe.mjs');
writeFileSync(
  PROBE,
  [
    "import { register } from 'node:module';",
    `register(${JSON.stringify(new URL(`file://${HOOKS}`).href)});`,
    'const write = process.stdout.write.bind(process.stdout);',
    'process.stdout.write = (chunk, ...rest) => {',
    '  const text = String(chunk);',
    '  const ready = /listening on (\\S+)/.exec(text);',
    '  if (ready) {',
    "    process.stderr.write(`crypto at ready: ${process.moduleLoadList.includes('NativeModule crypto')}\\n`);",
    "    fetch(`${ready[1]}/model/openai/gpt-4o-mini`, { headers: { Authorization: 'Bearer sk-probe' } })",
    "      .then((response) => response.arrayBuffer().then(() => process.stderr.write(`lookup: ${response.status}\\n`)))",
    '      .finally(() => setTimeout(() => process.exit(0), 200));',
    '  }',
    '  return write(chunk, ...rest);',
    '};',
  ].join('\n'),
);

/** Runs `node <args>` to its exit: its stderr. */
function stderrOf(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stderr) : reject(new Error(`node ${args.join(' ')} exited ${code}:\n${stderr}`))));
  });
}

/**
 * Whether this Node.js loads `node:crypto` with `node:http` itself (Node.js 22 does; 20 does not): then neither
 * mockrouter nor any HTTP server can start without it, and the two checks of `node:crypto` below are skipped.
 */
const HTTP_LOADS_CRYPTO =
  spawnSync(process.execPath, ['--input-type=module', '-e', "await import('node:http'); process.stdout.write(String(process.moduleLoadList.includes('NativeModule crypto')))"], { encoding: 'utf8' }).stdout === 'true';
const cryptoCheck = it.skipIf(HTTP_LOADS_CRYPTO);
const SKIPPED = HTTP_LOADS_CRYPTO ? ` (skipped: Node.js ${process.version} loads node:crypto with node:http)` : '';

describe('what the start-up leaves for later', () => {
  cryptoCheck(`import('mockrouter') loads no node:crypto${SKIPPED}`, async () => {
    const script = `await import(${JSON.stringify(MAIN_ENTRY)}); process.stderr.write(\`crypto: \${process.moduleLoadList.includes('NativeModule crypto')}\\n\`);`;
    expect(await stderrOf(['--input-type=module', '-e', script])).toBe('crypto: false\n');
  }, 60_000);

  it('a --quiet CLI server never loads pino', async () => {
    const stderr = await stderrOf(['--import', PROBE, CLI_BIN, '--port', '0', '--host', '127.0.0.1', '--quiet']);
    expect(stderr).toContain('lookup: 200\n');
    const loaded = stderr.split('\n').filter((line) => line.startsWith('loaded '));
    // The hook sees the bundle's files (a guard: an empty list would pass the check below on nothing).
    expect(loaded.some((line) => line.includes('/dist/bin/cli.js'))).toBe(true);
    expect(loaded.filter((line) => /pino/i.test(line))).toEqual([]);
  }, 60_000);

  cryptoCheck(`a --quiet CLI server loads no node:crypto before its ready line${SKIPPED}`, async () => {
    expect(await stderrOf(['--import', PROBE, CLI_BIN, '--port', '0', '--host', '127.0.0.1', '--quiet'])).toContain('crypto at ready: false\n');
  }, 60_000);

  it('a CLI server with its request log loads pino (a guard for the check above)', async () => {
    const stderr = await stderrOf(['--import', PROBE, CLI_BIN, '--port', '0', '--host', '127.0.0.1']);
    expect(stderr).toContain('lookup: 200\n');
    expect(stderr.split('\n').some((line) => line.startsWith('loaded ') && /pino/i.test(line))).toBe(true);
  }, 60_000);
});
