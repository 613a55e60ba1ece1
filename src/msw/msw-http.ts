/**
 * msw's `http` (the request-handler factory) for the handlers of `src/msw/handlers.ts`, handed over by the entry
 * that creates them instead of imported here, so that importing the package loads no part of msw: Node.js's
 * `createMockRouter` (`src/index.ts`) loads msw on its first call (`requireMsw`, `src/msw/compat.ts`), the browser
 * entry (`src/browser/index.ts`) passes its static import. The response side of msw (`src/msw/convert.ts`) is
 * loaded with the first request.
 *
 * @module
 */
import type { http as MswHttp } from 'msw';

let provided: typeof MswHttp | undefined;

/** Sets the `http` of the installed msw, before handlers are created (each entry's `createMockRouter`). */
export function provideMswHttp(http: typeof MswHttp): void {
  provided = http;
}

/**
 * The `http` given to {@link provideMswHttp}.
 *
 * @throws {Error} when none was given: handlers created without an entry's `createMockRouter` (a bug of the
 *   package, not of its use).
 */
export function mswHttp(): typeof MswHttp {
  if (provided === undefined) throw new Error("mockrouter: msw's http was not provided before creating handlers (src/msw/msw-http.ts)");
  return provided;
}
