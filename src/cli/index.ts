/**
 * The `mockrouter` command (`bin/mockrouter.js` runs it, bundled into `dist/bin/cli.js`): by its first argument,
 *
 * - `mockrouter record --upstream <url> --out <dir>`: the recording proxy (`record-command.ts`, `src/recorder/`);
 * - `mockrouter verify --upstream <url>`: the drift check against the real gateway (`verify-command.ts`,
 *   `src/verify/`);
 * - anything else: the standalone server and its flags (`serve.ts`; `mockrouter --help`).
 *
 * Each is loaded only when asked for, so the server's start-up does not pay for the others.
 *
 * @module
 */

const subcommand = process.argv[2];
if (subcommand === 'record') {
  const { recordCommand } = await import('./record-command.js');
  await recordCommand().name('mockrouter record').parseAsync(process.argv.slice(3), { from: 'user' });
} else if (subcommand === 'verify') {
  const { verifyCommand } = await import('./verify-command.js');
  await verifyCommand().name('mockrouter verify').parseAsync(process.argv.slice(3), { from: 'user' });
} else {
  await import('./serve.js');
}
