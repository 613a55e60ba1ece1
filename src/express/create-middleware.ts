/**
 * `createMiddleware`: the gateway mounted in an express 4 or 5 app (or any connect-style app on `node:http`),
 * answering from the core directly: no msw, no Fetch objects. Routing, CORS and the index are the API front door's
 * (`src/core/gateway/api-front-door.ts`), as in every other mode; the request and the answer go through the
 * standalone server's Node adapter (`src/node-adapter/adapter.ts`). No admin API: the controls are on the
 * middleware, as on `createMockRouter`'s result.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { controlsOf, type MockControls } from '../core/gateway/mock-controls.js';
import { frontDoor } from '../core/gateway/api-front-door.js';
import { corsPolicyOf } from '../core/http/cors.js';
import type { CoreResponse } from '../core/base/types.js';
import { createGateway } from '../node-platform/create-gateway.js';
import { answerOrFault, faultAnswer, hasRequestBody, readRequestBody, sendResult, toCoreRequest } from '../node-adapter/adapter.js';
import type { MiddlewareOptions } from './middleware-options.js';
import { bodyConsumed, parsedBodyBytes, type MiddlewareRequest } from './parsed-body.js';
import { servesPath } from './served-paths.js';
import { bodyLimitOf, splitTarget } from '../core/http/request.js';

/** express's `next`: called with no argument to pass the request on to the app's next middleware or route. */
export type NextFunction = (error?: unknown) => void;

/**
 * The middleware: a function `(request, response, next)` for `app.use(...)` (or `app.use('/prefix', ...)`), with
 * the gateway behind it and the controls a test uses between cases ({@link MockControls}: `gateway`, `journal`,
 * `useScenario`, `reset`), named as on `createMockRouter`'s result.
 */
export interface MockRouterMiddleware extends MockControls {
  /**
   * Answers a request under `/api/v1` of the mount path (`servesPath` of `served-paths.ts`), or calls `next()`
   * for any other. Never throws and never calls `next(error)`: a failure while answering is the gateway's 500
   * envelope, or, once bytes were sent, that response cut, reported through option `onError`.
   */
  (request: MiddlewareRequest, response: ServerResponse, next: NextFunction): void;
}

/** The raw path of request target `url`, without its query. */
function pathOf(url: string): string {
  return splitTarget(url).path;
}

/**
 * Creates a gateway and the express middleware that serves it.
 *
 * Each request whose path, relative to where the middleware is mounted (`request.url`, which express makes
 * relative to `app.use`'s path), is `/api/v1` or under it is answered as the standalone server answers it
 * (`src/server/http-server.ts`): its body read when its method may carry one and it says it has one
 * (`hasRequestBody`), at most 1 MiB (past it the 413 envelope); then the front door's answer (the index at
 * `GET /api/v1`, CORS preflights, the operations, the gateway's envelopes), sent by `sendResult`. The journal
 * records the path relative to the mount (`/api/v1/...`). Every other request goes on to the app (`next()`), its
 * body unread. When an earlier body parser already read the body (`express.json()`, `express.raw()`,
 * `express.text()`), the gateway gets `request.body` instead (`parsedBodyBytes` of `parsed-body.ts`: parsed JSON
 * is re-serialized). A failure after the answer started (a body that fails mid-stream) ends that response only and
 * goes to option `onError` (`gateway.reportError`).
 *
 * @throws an error of `src/core/base/errors.ts` (every entry exports them all), each naming the option or the file
 *   and what was expected: `OptionsError` (the options of `createMockRouter`, and `cors`), `FixtureError`,
 *   `ScenarioError`, `KeysError`.
 * @example
 * const app = express();
 * const mock = createMiddleware({ seed: 1 });
 * app.use(mock); // http://localhost:<port>/api/v1 is the gateway; mock.journal.last() the last request
 */
export function createMiddleware(options: MiddlewareOptions = {}): MockRouterMiddleware {
  const cors = corsPolicyOf(options.cors);
  const gateway = createGateway(options);
  const answer = frontDoor(gateway, { cors });
  const report = (error: unknown, where: string) => gateway.reportError(error, where);
  const reply = (response: ServerResponse, result: CoreResponse) => sendResult(response, result, report);

  const middleware = (request: MiddlewareRequest, response: ServerResponse, next: NextFunction): void => {
    const url = request.url ?? '/';
    if (!servesPath(url)) {
      next();
      return;
    }
    const respond = (body: Uint8Array | undefined) =>
      void answerOrFault(request, () => answer(toCoreRequest(request, body, url)), report).then((result) => reply(response, result));
    const refuse = (refused: CoreResponse) => reply(response, answer.withCors({ path: pathOf(url), headers: request.headers }, refused));
    if (!hasRequestBody(request)) respond(undefined);
    else if (bodyConsumed(request)) {
      const parsed = parsedBodyBytes(request.body, bodyLimitOf(splitTarget(url).path));
      if ('refused' in parsed) refuse(parsed.refused);
      else respond(parsed.body);
    } else {
      readRequestBody(request, bodyLimitOf(splitTarget(request.url ?? '/').path))
        .then((read) => ('refused' in read ? refuse(read.refused) : respond(read.body)))
        .catch((error: unknown) => reply(response, faultAnswer(request, error, report)));
    }
  };
  return Object.assign(middleware, controlsOf(gateway));
}
