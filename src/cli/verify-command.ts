/**
 * `mockrouter verify`: the drift check between the real gateway and the simulator. The engine is
 * `src/verify/`; this file parses the flags, reads the key from the environment and sets the exit code.
 *
 * @module
 */
import { stopWithNpmParent } from './npm-parent.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { withHelpLayout, wrappedHelpText } from './help-layout.js';
import { DEFAULT_VERIFY_DEADLINE_MS, DEFAULT_VERIFY_TIMEOUT_MS, MAX_ANSWER_BYTES, MAX_ANSWER_DEPTH, MAX_ANSWER_ITEMS, MAX_SHAPE_CHARS, MAX_SHAPE_ENTRIES, VerifyError, bytesText, jsonReport, textReport, verifyGateway } from '../verify/index.js';

/** The parent's pid when this module loads, before anything slow: npm's shell under npx (`src/cli/npm-parent.ts`). */
const startingParent = process.ppid;

/** Exit codes of `mockrouter verify`: nothing drifted, something drifted, the check could not run (or finish). */
export const VERIFY_EXIT = { same: 0, drift: 1, cannotRun: 2 } as const;

/** A parser of whole ms from 1 to `max` (`--timeout`: 10 minutes; `--deadline`: 1 hour). */
function wholeMs(max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1 || n > max) {
      throw new InvalidArgumentError(`expected a whole number of ms from 1 to ${max}, got "${value}"`);
    }
    return n;
  };
}

/** `text` with every occurrence of `key` replaced, so nothing printed can carry it (also an upstream's echo of it). */
function withoutKey(text: string, key: string | undefined): string {
  return key && key.trim() !== '' ? text.replaceAll(key.trim(), '[OPENROUTER_API_KEY]') : text;
}

/** The text after the flags: one paragraph or list item a line, wrapped when shown (`help-layout.ts`). */
const HELP_AFTER = [
  '',
  'What it sends, with the key of OPENROUTER_API_KEY (to the upstream only; never printed), to the upstream and to an in-process mockrouter (built-in catalog), one request at a time:',
  '  - GET /api/v1/models and GET /api/v1/models/count, each with ?output_modalities=speech;',
  '  - GET /api/v1/model/<id> and GET /api/v1/models/<id>/endpoints for each speech model both lists hold;',
  '  - GET /api/v1/audio/speech/models, and GET /api/v1/audio/speech/models/<id> for each of those models (speech model discovery);',
  '  - GET /api/v1/key, and GET /api/v1/credits (compared only when the upstream answers 200: it needs a management key).',
  "These reads cost nothing. With --spend, also POST /api/v1/audio/speech once in mp3 and once in pcm (input \"Hi.\", the first speech model both sides know that mockrouter answers in that format), then GET /api/v1/generation of each call's X-Generation-Id (asked again for up to 10 s until it answers 200), POST /api/v1/audio/transcriptions once (half a second of WAV, base64 JSON), and six short speech calls in the request's newer shapes (two turns, a reference clip, a reference image, provider.zdr, provider.data_collection, speed on a model without speed control): about eight short speech calls' and one short transcription's worth of credit.",
  '',
  "It compares status codes, the headers Content-Type, X-Generation-Id (its format) and Retry-After (its presence), and the JSON bodies' shapes: field names, types (integer and number alike; null only where the other side never has null), fields present on every object on one side only, and the values of a few enum fields. Each difference names its JSON path, its probe and what each side has; a field gone and a new field of the same type under the same parent are one rename (old path -> new path), and a difference only some of a probe's requests show names those requests.",
  '',
  '--upstream: the API is under /api/v1 of it (https://openrouter.ai -> https://openrouter.ai/api/v1; a URL already ending in /api/v1 is kept; another path is a prefix: http://proxy/or -> http://proxy/or/api/v1). A user name, password, query or fragment in it is refused, as by mockrouter record.',
  '',
  `Limits: each upstream answer gets --timeout for the whole of it, and at most ${bytesText(MAX_ANSWER_BYTES)} of body once its Content-Encoding (gzip, deflate, br) is decoded; a JSON body may nest ${MAX_ANSWER_DEPTH} levels deep and hold ${MAX_ANSWER_ITEMS} array elements and object fields; one probe's answers may have ${MAX_SHAPE_ENTRIES} JSON paths and enum values together, of ${MAX_SHAPE_CHARS} characters. The whole check gets --deadline (default ${DEFAULT_VERIFY_DEADLINE_MS / 1000} s). An answer past a limit, broken off or not decodable, and the deadline, stop the check there: the report marks that request ERROR and keeps what was compared before it, its "error" (--json) says why, and the exit code is 2.`,
  '',
  'Exit codes: 0 nothing drifted, 1 drift, 2 could not run or finish (no OPENROUTER_API_KEY, the upstream unreachable or timing out, a 401 from the upstream, an upstream answer it could not read, the deadline, a bad flag).',
  'Example: OPENROUTER_API_KEY=sk-or-... mockrouter verify --upstream https://openrouter.ai --json',
].join('\n');

/**
 * The `verify` command (commander), for the `mockrouter` program to add (`program.addCommand(verifyCommand())`).
 * Its action prints the report (text, or JSON with `--json`) to stdout and sets `process.exitCode` to
 * {@link VERIFY_EXIT}'s `same` or `drift`; when the check cannot run it prints `mockrouter verify: <why>` to stderr
 * and sets `cannotRun`, as commander's own flag errors do (overridden from commander's 1, which means drift here).
 * When it stopped at an upstream answer it could not read (the report's `error`), it prints the report, then
 * `mockrouter verify: <probe>: <why>` to stderr, and sets `cannotRun`.
 */
export function verifyCommand(): Command {
  return withHelpLayout(new Command('verify'))
    .description('Compare the real gateway\'s answers with the simulator\'s (the drift check): exit 0 same, 1 drift, 2 could not run or finish.')
    .addOption(new Option('--upstream <url>', 'the gateway to compare with, e.g. https://openrouter.ai (the API under /api/v1)').makeOptionMandatory())
    .addOption(new Option('--json', 'print one JSON document {drift, upstream, spend, probes, differences, error} instead of the text report; when the check cannot start, drift is null and error says why'))
    .addOption(new Option('--spend', 'also send one short speech call per format (mp3, pcm) and its generation lookup, one short transcription, and six short speech calls in the newer request shapes: costs credit'))
    .addOption(new Option('--timeout <ms>', 'time for each upstream request\'s whole answer, ms').default(DEFAULT_VERIFY_TIMEOUT_MS).argParser(wholeMs(600_000)))
    .addOption(new Option('--deadline <ms>', 'time for the whole check, ms (exit 2 when it passes)').default(DEFAULT_VERIFY_DEADLINE_MS).argParser(wholeMs(3_600_000)))
    .addOption(new Option('--outlive-npm', 'keep running when the npm that started it (npx, an npm script) exits; by default it then stops within 0.5 s (exit 2), as the server does'))
    .addHelpText('after', wrappedHelpText(HELP_AFTER))
    .configureOutput({ outputError: (message, write) => write(`mockrouter verify: ${message.replace(/^error: /, '')}`) })
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : VERIFY_EXIT.cannotRun);
    })
    .action(async (flags: { upstream: string; json?: boolean; spend?: boolean; timeout: number; deadline: number; outliveNpm?: boolean }) => {
      const apiKey = process.env['OPENROUTER_API_KEY'];
      // Under npx, npm's shell does not pass a kill on: stop (exit 2) once it is gone, as the server does.
      const stopWatching = flags.outliveNpm
        ? undefined
        : stopWithNpmParent(() => {
            process.stderr.write('mockrouter verify: the npm that started it has exited; stopping (--outlive-npm keeps it running)\n');
            process.exit(VERIFY_EXIT.cannotRun);
          }, startingParent);
      try {
        const report = await verifyGateway({ upstream: flags.upstream, apiKey, spend: flags.spend ?? false, timeoutMs: flags.timeout, deadlineMs: flags.deadline });
        process.stdout.write(withoutKey(flags.json ? jsonReport(report) : textReport(report), apiKey));
        if (report.error !== null) process.stderr.write(`mockrouter verify: ${report.error.probe}: ${withoutKey(report.error.message, apiKey)}\n`);
        process.exitCode = report.error !== null ? VERIFY_EXIT.cannotRun : report.drift ? VERIFY_EXIT.drift : VERIFY_EXIT.same;
      } catch (error) {
        const message = error instanceof VerifyError ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
        // With --json, stdout still holds one document, saying why (a CI job keeps it as its report).
        if (flags.json) {
          const code = error instanceof VerifyError ? error.code : 'E_VERIFY_UNEXPECTED';
          const failed = { drift: null, upstream: flags.upstream, spend: flags.spend ?? false, probes: [], differences: [], error: { probe: null, request: null, code, message } };
          process.stdout.write(withoutKey(`${JSON.stringify(failed)}\n`, apiKey));
        }
        process.stderr.write(`mockrouter verify: ${withoutKey(message, apiKey)}\n`);
        process.exitCode = VERIFY_EXIT.cannotRun;
      } finally {
        stopWatching?.();
      }
    });
}
