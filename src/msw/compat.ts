/**
 * Whether msw is installed, loading it, and which msw runs on which Node.js. The main entry (`src/index.ts`) needs
 * msw, an optional peer dependency: importing it without msw fails at once with {@link MswMissingError} (saying
 * `npm i -D msw`) rather than Node's `ERR_MODULE_NOT_FOUND`, and msw itself loads on the first `createMockRouter`
 * ({@link requireMsw}). msw 3 declares `"engines": { "node": ">=22.12.0" }` in its package.json and
 * calls `Promise.withResolvers` (Node.js 22+) while it handles a request, so on an older Node.js the in-process
 * handlers fail on the first request with `Promise.withResolvers is not a function`. `createMockRouter`
 * (src/index.ts) checks first and fails at once with {@link MswCompatibilityError}, naming the versions.
 *
 * @module
 */
import { MswCompatibilityError, MswMissingError } from '../core/base/errors.js';
import { createRequire } from 'node:module';
import type * as Msw from 'msw';

const require = createRequire(import.meta.url);


/** {@link MswMissingError}'s message. */
export const MSW_MISSING_MESSAGE =
  "mockrouter's in-process handlers need msw, which is not installed: npm i -D msw " +
  "(mockrouter/express, mockrouter/server and the npx mockrouter command do not need it)";

/**
 * Checks that msw resolves from this package, as its handlers resolve it; resolving reads a few `package.json`
 * files and loads nothing.
 *
 * @throws {MswMissingError} when it does not (with Node's error as `cause`).
 */
export function assertMswInstalled(): void {
  try {
    require.resolve('msw');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') throw new MswMissingError(MSW_MISSING_MESSAGE, { cause: error });
    throw error;
  }
}

/**
 * The installed msw's main module, loaded on first call. Through `require`, which loads msw's ES module build
 * (msw 2's `module-sync` export condition; msw 3 is ES modules only) wherever Node.js `require`s ES modules without a
 * flag: 22.12 on, the versions this package supports (`engines`), and 20.19 on, where msw 2 runs too. The module is
 * thus the same instance an `import 'msw/node'` of the program under test gets, so `setupServer` takes the handlers
 * as its own.
 *
 * @throws {MswMissingError} when msw is not installed.
 */
export function requireMsw(): typeof Msw {
  assertMswInstalled();
  return require('msw') as typeof Msw;
}

/** The oldest Node.js msw 3 runs on, from msw 3's `engines.node` (`>=22.12.0`), as `[major, minor]`. */
const MSW3_MIN_NODE: readonly [number, number] = [22, 12];


/** `[major, minor]` of a version string such as `20.19.4`, `v22.12.0` or `3.0.0-beta.1`; `undefined` if not one. */
function majorMinor(version: string): [number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Why this msw cannot run on this Node.js, as one sentence, or `undefined` when it can (or either version is
 * unknown or unparsable: then nothing is claimed). Pure: the versions come in as strings.
 *
 * @param versions.node the running Node.js version (`process.versions.node`, e.g. `20.19.4`; a leading `v` is
 *   accepted).
 * @param versions.msw the installed msw version (its package.json `version`, e.g. `3.0.5`), or `undefined` when
 *   msw is not installed.
 * @example mswCompatibilityProblem({ node: '20.19.4', msw: '3.0.5' }) // 'msw 3.0.5 needs Node.js 22.12 or newer ...'
 */
export function mswCompatibilityProblem(versions: { node: string; msw: string | undefined }): string | undefined {
  if (versions.msw === undefined) return undefined;
  const msw = majorMinor(versions.msw);
  const node = majorMinor(versions.node);
  if (msw === undefined || node === undefined || msw[0] < 3) return undefined;
  const [needMajor, needMinor] = MSW3_MIN_NODE;
  if (node[0] > needMajor || (node[0] === needMajor && node[1] >= needMinor)) return undefined;
  return (
    `msw ${versions.msw} needs Node.js ${needMajor}.${needMinor} or newer, but this is Node.js ${versions.node.replace(/^v/, '')} ` +
    `(msw 3 fails there with "Promise.withResolvers is not a function"). ` +
    `Run Node.js ${needMajor}.${needMinor}+ (what mockrouter supports), or install msw 2 (npm i -D msw@^2.12).`
  );
}

let installedMsw: { version: string | undefined } | undefined;

/**
 * The version of the msw that the handlers import (resolved from this file, as `import 'msw'` is), read once
 * from its package.json; `undefined` when msw is not installed or its package.json cannot be read.
 */
export function installedMswVersion(): string | undefined {
  if (installedMsw === undefined) {
    try {
      const pkg = require('msw/package.json') as { version?: unknown };
      installedMsw = { version: typeof pkg.version === 'string' ? pkg.version : undefined };
    } catch {
      installedMsw = { version: undefined };
    }
  }
  return installedMsw.version;
}

/**
 * Checks that the installed msw runs on the running Node.js ({@link mswCompatibilityProblem} with
 * `process.versions.node` and {@link installedMswVersion}).
 *
 * @throws {MswCompatibilityError} when it cannot (msw 3 on Node.js older than 22.12), naming both versions and
 *   what is needed.
 */
export function assertMswCompatible(): void {
  const problem = mswCompatibilityProblem({ node: process.versions.node, msw: installedMswVersion() });
  if (problem !== undefined) throw new MswCompatibilityError(problem);
}

/**
 * Whether a request to `url` never reaches a network: a `data:` URL (its body is the URL itself) or a `blob:` URL (a
 * body this process holds). msw intercepts `fetch` of these like any other request (mswjs/msw issue 1623, "Data URLs
 * are incorrectly intercepted", closed as intended), and the `openai` SDK fetches `data:,` before its first multipart
 * upload, such as a transcription's file, to find the fetch's `Response` class (`supportsFormData` of its
 * `internal/uploads`): without this, every such suite prints msw's error for `GET null`.
 *
 * @example isLocalUrl('data:,') // true
 * @example isLocalUrl('https://openrouter.ai/api/v1/models') // false
 */
export function isLocalUrl(url: string): boolean {
  return url.startsWith('data:') || url.startsWith('blob:');
}

/** The `Request` of an msw 3 network frame (its `data.request`), or `undefined` for a frame that has none (a WebSocket). */
function requestOfFrame(frame: unknown): Request | undefined {
  const request = (frame as { data?: { request?: unknown } } | null)?.data?.request;
  return request instanceof Request ? request : undefined;
}

/**
 * What the `'error'` strategy does to a request no handler answered, and what msw's string strategies skip first: a
 * request of {@link isLocalUrl}, or a common static asset (msw's own `isCommonAssetRequest`, which msw's string
 * strategies apply and a callback must apply itself). Else it prints msw's own error message (`print`) and fails the
 * request as a network error, so the client's `fetch` rejects as under the `'error'` strategy: msw 2.12 to 2.14 throw
 * their own error from `print` already; msw 2.15 and 3 only print there and take a thrown `Response.error()` as the
 * request's answer (`errorWith` of their network frame), which is a network error.
 *
 * @throws {Response} `Response.error()` for a request that is not skipped (or msw's own error, thrown by `print`).
 */
function refuseUnhandled(request: Request | undefined, print: () => unknown): void {
  if (request !== undefined && (isLocalUrl(request.url) || requireMsw().isCommonAssetRequest?.(request) === true)) return;
  void print();
  throw Response.error();
}

/**
 * `server.listen()` options that fail a test on a request no handler answered, for the installed msw: msw 2 calls
 * the option `onUnhandledRequest`, msw 3 renamed it `onUnhandledFrame` (and ignores the old name, so the check
 * would silently be off). The value is a callback that does what msw's `'error'` strategy does (msw's error message,
 * then the request fails), except for requests that never reach a network ({@link isLocalUrl}: `data:` and `blob:`
 * URLs, such as the `data:,` the `openai` SDK fetches before an upload), which it lets through silently, as msw's own
 * strategies let common static assets through. Its type names both options, optional, so it type-checks against
 * either major.
 *
 * @example server.listen(errorOnUnhandled()); // msw 2: { onUnhandledRequest }; msw 3: { onUnhandledFrame }
 */
export function errorOnUnhandled(): {
  onUnhandledRequest?: (request: Request, print: { error: () => unknown }) => void;
  onUnhandledFrame?: (args: { frame: unknown; defaults: { error: () => unknown } }) => void;
} {
  const major = Number(installedMswVersion()?.split('.')[0]);
  return major >= 3
    ? { onUnhandledFrame: ({ frame, defaults }) => refuseUnhandled(requestOfFrame(frame), () => defaults.error()) }
    : { onUnhandledRequest: (request, print) => refuseUnhandled(request, () => print.error()) };
}
