/**
 * `mockrouter` (no subcommand): parses the flags and starts the standalone server (`src/cli/index.ts` dispatches
 * here unless the first argument is `record` or `verify`).
 *
 * @module
 */
import { availableParallelism } from 'node:os';
import { KeysError, ConfigFileError, FixtureError, ScenarioError, OptionsError } from '../core/base/errors.js';
import { fileErrorMessage, listenProblem } from './start-failure.js';
import { startBufferCollector } from './buffer-collector.js';
import { createLogger, deferredLogger, type DeferredLogger } from './logger.js';
import { stopWithNpmParent } from './npm-parent.js';
import { FLAG_OF_OPTION, serveFlags } from './serve-flags.js';
import { stopOnStdinClose } from './stdin-close.js';
import { storeLabel } from './store-flags.js';
import { runPrimary, tellPrimary, workerNumber } from './workers.js';
import { bindsAllInterfaces, startServer } from '../server/index.js';

/** The parent's pid at start-up, before anything slow: npm's shell under npx (see src/cli/npm-parent.ts). */
const startingParent = process.ppid;

const flags = serveFlags();

/** This process's worker number under `--workers` (1 to n), or `undefined` in the primary or a lone server. */
const worker = workerNumber();

/**
 * The flag whose file or folder `error` is about: the error's class tells the option, and a `ScenarioError` is
 * `--scenario`'s when it names that file, else about a file or folder of `--scenarios`.
 */
function flagOfFileError(error: ConfigFileError): string | undefined {
  if (error instanceof KeysError) return '--keys';
  if (error instanceof FixtureError) return '--fixtures';
  if (error instanceof ScenarioError) return error.file === flags.scenario ? '--scenario' : '--scenarios';
  return undefined;
}

function fail(message: string): never {
  process.stderr.write(`mockrouter: ${message}\n`);
  process.exit(1);
}

/** The message of an error of `startServer`, after `mockrouter: `: the flag at fault, or the listen problem. */
function failureMessage(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  // The first line is the flag and the message (`--keys keys.yaml: keys[2]: ...`: first problem and the count of the
  // others); each other problem follows.
  if (e instanceof ConfigFileError) return fileErrorMessage(e, flagOfFileError(e));
  if (e instanceof OptionsError) return `${FLAG_OF_OPTION[e.option] ?? e.option}: ${e.problem}`;
  return listenProblem(e, flags.port, flags.host) ?? e.message ?? String(e);
}

/**
 * Prints the ready lines: `mockrouter listening on <base URL>`, with `(<n> workers, store <URL>)` (each part when
 * it applies, `<k> of <n> workers` when some did not listen in time; the store's URL without credentials), then the dashboard's URL unless --no-admin, and the warning
 * of a server open to the network.
 */
function announce(url: string, baseUrl: string, listening: number = flags.workers): void {
  const workers = listening === flags.workers ? `${flags.workers} workers` : `${listening} of ${flags.workers} workers`;
  const notes = [...(flags.workers > 1 ? [workers] : []), ...(flags.store === undefined ? [] : [`store ${storeLabel(flags.store)}`])];
  process.stdout.write(`mockrouter listening on ${baseUrl}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}\n`);
  if (flags.admin) {
    // The token itself is never printed (it may come from the environment, and logs are kept).
    const dashboard = `${url}/__mock/ui`;
    process.stdout.write(flags.adminToken ? `dashboard: ${dashboard} (needs ?token=<admin token> once)\n` : `dashboard: ${dashboard}\n`);
  }
  if (bindsAllInterfaces(flags.host)) {
    process.stderr.write(
      `mockrouter: warning: listening on all interfaces (${flags.host}): anyone who can reach this machine can call it${flags.admin && !flags.adminToken ? ' and its admin API (use --admin-token or --no-admin)' : ''}\n`,
    );
  }
}

/**
 * Stops on SIGINT and SIGTERM, with --stop-on-stdin-close when stdin ends (src/cli/stdin-close.ts), and (but with
 * --outlive-npm or in a worker) when the npm that started it exits. A
 * worker leaves SIGINT (Ctrl-C reaches the whole process group) to the primary, which stops every worker with
 * SIGTERM: so the primary never takes a worker stopped by Ctrl-C for one that died.
 */
function stopOnSignals(stop: () => void): void {
  process.on('SIGINT', worker === undefined ? stop : () => undefined);
  process.on('SIGTERM', stop);
  // A worker's stdin is not the one its starter holds; the primary watches it and stops every worker.
  if (flags.stopOnStdinClose && worker === undefined) {
    stopOnStdinClose(() => {
      process.stderr.write('mockrouter: stdin closed; stopping (--stop-on-stdin-close)\n');
      stop();
    });
  }
  // Under npx or npm start, npm's shell does not pass a kill on to node (src/cli/npm-parent.ts). A worker's parent
  // is the primary, which watches npm for it.
  if (!flags.outliveNpm && worker === undefined) {
    stopWithNpmParent(() => {
      process.stderr.write('mockrouter: the npm that started it has exited; stopping (--outlive-npm keeps it running)\n');
      stop();
    }, startingParent);
  }
}

if (flags.workers > 1 && flags.store === undefined) fail(`--workers ${flags.workers} needs --store <url>: workers share their state through the store`);

if (flags.workers > 1 && worker === undefined) {
  // The primary: it forks the workers, prints the ready line once all listen, and stops them all (src/cli/workers.ts).
  const primary = runPrimary({ count: flags.workers, onListening: ({ url, baseUrl }, listening) => announce(url, baseUrl, listening) });
  stopOnSignals(() => primary.stop(0));
} else {
  await serve();
}

/** Runs the server in this process: alone, or as worker {@link worker} of a primary. */
async function serve(): Promise<void> {
  let server: Awaited<ReturnType<typeof startServer>>;
  // The request log loads after the ready line (pino is not needed to listen); lines before then are held.
  const logger: DeferredLogger | undefined = flags.quiet ? undefined : deferredLogger(() => createLogger());
  try {
    server = await startServer({
      port: flags.port,
      host: flags.host,
      seed: flags.seed,
      fixtures: flags.fixtures,
      scenario: flags.scenario,
      scenarios: flags.scenarios,
      journalSize: flags.journalSize,
      journalBytes: flags.journalBytes,
      keys: flags.keys,
      clock: flags.clock,
      generationDelayMs: flags.generationDelay,
      speech: flags.speech,
      ...(flags.fliteWasm === undefined ? {} : { fliteWasm: flags.fliteWasm }),
      wordsThreads: flags.wordsThreads ?? Math.max(1, Math.floor(availableParallelism() / flags.workers)),
      admin: flags.admin,
      ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
      ...(flags.allowedHosts === undefined ? {} : { allowedHosts: flags.allowedHosts }),
      cors: flags.cors,
      ...(flags.store === undefined ? {} : { store: flags.store, storePrefix: flags.storePrefix }),
      // Worker k of --replica-id <id> is <id>-<k>; without the flag, each worker's default <hostname>:<pid> differs.
      ...(flags.replicaId === undefined ? {} : { replicaId: worker === undefined ? flags.replicaId : `${flags.replicaId}-${worker}` }),
      logger,
    });
  } catch (error) {
    if (worker === undefined) fail(failureMessage(error));
    // The primary prints it, once, and stops the other workers.
    await tellPrimary({ type: 'mockrouter:failed', message: failureMessage(error) });
    process.exit(1);
  }
  // The CLI owns its process: dead audio buffers are collected promptly (src/cli/buffer-collector.ts).
  startBufferCollector();
  if (worker === undefined) announce(server.url, server.baseUrl);
  else await tellPrimary({ type: 'mockrouter:listening', url: server.url, baseUrl: server.baseUrl, port: server.port });
  const logging = logger?.load().catch((error: unknown) => {
    process.stderr.write(`mockrouter: the request log could not start (${error instanceof Error ? error.message : String(error)}); requests are not logged\n`);
  });
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    // The log's held lines are written before the process exits (a stop right after the ready line).
    server.close().then(
      () => Promise.resolve(logging).then(() => process.exit(0)),
      () => process.exit(1),
    );
  };
  stopOnSignals(stop);
}
