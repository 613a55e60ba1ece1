/**
 * The `mockrouter` command's subcommands through the installed entry (`bin/mockrouter.js`, the bundle of
 * `src/cli/index.ts`): `record` and `verify` reach their own commands (`src/cli/record-command.ts`,
 * `src/cli/verify-command.ts`), anything else the server (`src/cli/serve.ts`). What each does is tested in
 * test/record.test.ts and test/verify.test.ts.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../bin/mockrouter.js', import.meta.url).pathname;

/** Runs `mockrouter <args>` to its end: exit code, stdout and stderr (bounded: 30 s). */
function run(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

describe('mockrouter subcommands', () => {
  it('record --help and verify --help show their own usage under the command name', async () => {
    const record = await run(['record', '--help']);
    expect(record.code).toBe(0);
    expect(record.stdout).toMatch(/^Usage: mockrouter record \[options\]/);
    expect(record.stdout).toContain('--upstream <url>');
    const verify = await run(['verify', '--help']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^Usage: mockrouter verify \[options\]/);
  });

  it('verify without OPENROUTER_API_KEY exits 2 and says why; the server help names both subcommands', async () => {
    const verify = await run(['verify', '--upstream', 'http://127.0.0.1:9'], { OPENROUTER_API_KEY: undefined });
    expect(verify.code).toBe(2);
    expect(verify.stderr).toContain('OPENROUTER_API_KEY');
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('mockrouter record --help');
    expect(help.stdout).toContain('mockrouter verify --help');
  });
});
