/**
 * `mockrouter record --upstream <url> --out <dir>`: runs the recording proxy of `src/recorder/` until
 * SIGINT or SIGTERM.
 *
 * @module
 */
import { stopWithNpmParent } from './npm-parent.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigFileError } from '../core/base/errors.js';
import { fileErrorMessage, listenProblem } from './start-failure.js';
import { DEFAULT_RECORD_PORT, DEFAULT_UPSTREAM_TIMEOUT_MS, STOP_DRAIN_MS, startRecorder, upstreamOf, type UpstreamError } from '../recorder/index.js';
import { withHelpLayout, wrappedHelpText } from './help-layout.js';
import { createLogger } from './logger.js';

/** The parent's pid when this module loads, before anything slow: npm's shell under npx (`src/cli/npm-parent.ts`). */
const startingParent = process.ppid;

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) throw new InvalidArgumentError(`expected an integer from 0 to 65535, got "${value}"`);
  return n;
}

function milliseconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a whole number of milliseconds, 1 or more, got "${value}"`);
  return n;
}

function upstream(value: string): string {
  try {
    upstreamOf(value);
  } catch (error) {
    throw new InvalidArgumentError((error as UpstreamError).message.replace(/^--upstream: /, ''));
  }
  return value;
}

/** The parsed flags of `mockrouter record`. */
interface RecordFlags {
  upstream: string;
  out: string;
  port: number;
  host: string;
  upstreamTimeout: number;
  quiet?: boolean;
  outliveNpm?: boolean;
}

/**
 * The `record` command (commander). Its action starts the recorder, prints one ready line
 * `mockrouter record listening on <base URL> → <upstream>, writing <dir>`, logs one line per request (method, URL
 * with credentials' query values redacted, status, ms, what was written) unless `--quiet`, and on SIGINT or SIGTERM
 * stops, waits for the writes under way, and exits 0. A bad flag or folder, a folder another recorder writes
 * (`FolderBusyError`, naming its pid) or an upstream that is the recorder's own address prints
 * `mockrouter record: <problem>` (never a stack trace) and exits 1.
 */
export function recordCommand(): Command {
  return withHelpLayout(new Command('record'))
    .description('Record the real gateway: a proxy that forwards each request to --upstream and writes what comes back to --out, for --fixtures <dir> to serve')
    .addOption(new Option('--upstream <url>', 'the gateway to forward to: http(s) origin with an optional path prefix; /api/v1/... is forwarded to <url>/api/v1/... (a URL ending in /api/v1 means the same), e.g. https://openrouter.ai').makeOptionMandatory().argParser(upstream))
    .addOption(new Option('--out <dir>', 'folder to write (created when missing; a folder recorded before is added to)').makeOptionMandatory())
    .addOption(new Option('-p, --port <port>', 'TCP port to listen on; 0 picks a free port').default(DEFAULT_RECORD_PORT).argParser(port))
    .addOption(new Option('-H, --host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(
      new Option('--upstream-timeout <ms>', 'longest wait for the upstream\'s answer head (then 504) and for each chunk of its body once it started (then the answer is cut, not recorded)')
        .default(DEFAULT_UPSTREAM_TIMEOUT_MS)
        .argParser(milliseconds),
    )
    .addOption(new Option('-q, --quiet', 'do not log requests (the ready line and warnings are still printed)'))
    .addOption(new Option('--outlive-npm', 'keep running when the npm that started it (npx, an npm script) exits; by default it then stops within 0.5 s, as the server does'))
    // Each line one paragraph or table row, wrapped when shown (src/cli/help-layout.ts).
    .addHelpText(
      'after',
      wrappedHelpText(
        '\nPoint your client\'s base URL at the printed URL and use your real key: its Authorization is passed to the upstream, ' +
          'nothing is added but a Via entry, and the answer (status, headers, bytes) comes back as it streams.\n\n' +
          'Written to --out, each file replaced whole (temporary file, then rename) so a crash loses nothing recorded before it:\n' +
          '  models.json              model records (200 of model lookups, the model list), their endpoints\' providers, a speech entry per TTS model\n' +
          '  generations.json         generation records (200 of GET /generation?id=)\n' +
          '  audio/index.json         speech answers (200 of POST /audio/speech), keyed by the normalized request body; the bytes in audio/<sha256>.mp3|.pcm\n' +
          '  transcripts.json         transcripts (200 of POST /audio/transcriptions, JSON or multipart), keyed by the SHA-256 of the audio bytes\n' +
          '  scenarios/recorded.yaml  error answers (status, message, metadata, Retry-After) as rules of the scenario "recorded"\n' +
          'An answer over 32 MiB (bytes) or cut short is forwarded but not recorded (a transcription request is kept up to 64 MiB). Request headers are never written; ' +
          'no key, cookie or Authorization value is written or logged, and a record holding the request\'s key in any form ' +
          '(as sent, another case, base64, hex, URL-encoded, escaped) is dropped with a warning.\n' +
          'An upstream answer HTTP cannot pass on (a status outside 200-999, a control character in the status line or a header) ' +
          'is answered 502; no answer head within --upstream-timeout is answered 504; both in the gateway\'s error envelope, never recorded.\n' +
          'Each file stays within what --fixtures reads (10 MiB a file, 64 levels deep, 20,000 models or generations, 10,000 ' +
          'recordings or transcripts, 64 MiB an audio file, 256 MiB of audio): a record past them is refused, and a kind whose file is full ' +
          'is no longer recorded (one warning).\n' +
          'One recorder per folder: it holds --out/.mockrouter-record.lock (its pid) while it runs; a second one exits 1. ' +
          'An --upstream that is the recorder\'s own address is refused.\n\n' +
          'Replay: mockrouter --fixtures <dir> [--scenarios <dir>/scenarios --scenario recorded]. ' +
          `On SIGINT or SIGTERM it takes no more connections, lets the answers under way end (at most ${STOP_DRAIN_MS / 1000} s; past it they are cut and not recorded) ` +
          'and exits once their recordings are written; a second signal exits at once (a recording under way is then left out; the folder stays readable).\n',
      ),
    )
    .action(async (flags: RecordFlags) => {
      let recorder: Awaited<ReturnType<typeof startRecorder>>;
      try {
        recorder = await startRecorder({
          upstream: flags.upstream,
          out: flags.out,
          port: flags.port,
          host: flags.host,
          upstreamTimeoutMs: flags.upstreamTimeout,
          logger: flags.quiet ? warningsOnly() : await createLogger(),
        });
      } catch (error) {
        process.stderr.write(`mockrouter record: ${startFailure(error, flags)}\n`);
        process.exit(1);
      }
      let closing = false;
      const stop = () => {
        if (closing) {
          process.stderr.write('mockrouter record: stopping at once; answers still under way are cut and not recorded\n');
          process.exit(1);
        }
        closing = true;
        recorder.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      // Before the ready line: a signal sent as soon as it is read stops the recorder as a signal should.
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      // Under npx, npm's shell does not pass a kill on: stop once it is gone, as the server does.
      if (!flags.outliveNpm) {
        stopWithNpmParent(() => {
          process.stderr.write('mockrouter record: the npm that started it has exited; stopping (--outlive-npm keeps it running)\n');
          stop();
        }, startingParent);
      }
      process.stdout.write(`mockrouter record listening on ${recorder.baseUrl} → ${recorder.upstream}, writing ${flags.out}\n`);
      if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(flags.host)) {
        process.stderr.write(`mockrouter record: warning: listening on ${flags.host}: anyone who can reach this machine can call the upstream through it (with their own key)\n`);
      }
    });
}

/**
 * Why the recorder did not start, after `mockrouter record: `: a file already in `--out` that is no recording (the
 * flag, the file, where and what was expected, then each other problem), the listen problem in words, or the error's
 * own message (a bad `--upstream`, a folder another recorder holds, an `--out` that is a file).
 */
function startFailure(error: unknown, flags: RecordFlags): string {
  if (error instanceof ConfigFileError) return fileErrorMessage(error, '--out');
  return listenProblem(error, flags.port, flags.host) ?? (error as Error).message ?? String(error);
}

/** With `--quiet`: warnings (an answer not recorded, a write that failed) on stderr, nothing else. */
function warningsOnly() {
  return {
    info: () => undefined,
    warn: (_entry: object, message?: string) => process.stderr.write(`mockrouter record: ${message ?? ''}\n`),
  };
}
