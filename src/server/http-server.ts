/**
 * The standalone server's `node:http` server: every request goes to the core through the API's front door, with
 * the admin API and the dashboard around it; what Node's HTTP layer refuses (malformed HTTP, `CONNECT`, an
 * unsupported `Expect`) and what this layer refuses before the core (a path that does not decode, a body over the
 * limit, HTTP/1.1 without `Host`) are answered with the gateway's envelope (`src/core/http/malformed-requests.ts`).
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostPolicyOf } from '../core/admin/hosts.js';
import { frontDoor } from '../core/gateway/api-front-door.js';
import { corsPolicyOf } from '../core/http/cors.js';
import type { Gateway } from '../core/gateway/gateway.js';
import { API_METHODS, badUrl, expectationFailed, hostRequired, malformedRequest, methodNotAllowed } from '../core/http/malformed-requests.js';
import { redactUrl } from '../core/http/redact.js';
import { consoleReporter, type ErrorReporter } from '../core/base/report-error.js';
import type { CoreResponse } from '../core/base/types.js';
import { withAdmin } from './admin.js';
import { answerOrFault, faultAnswer, hasRequestBody, readRequestBody, toCoreRequest } from '../node-adapter/adapter.js';
import { rawHttpResponse, sendResult, writeResult } from '../node-adapter/send.js';
import type { ServerLogger, ServerOptions } from './server-options.js';
import { SERVER_TIMEOUTS, type ServerTimeouts } from './timeouts.js';
import { withDashboard } from './ui.js';
import { bodyLimitOf, splitTarget } from '../core/http/request.js';

/** Options of {@link createHttpServer}: those of `startServer` it serves by, and what `startServer` made of the rest. */
export interface HttpServerOptions extends Pick<ServerOptions, 'logger' | 'admin' | 'adminToken' | 'allowedHosts' | 'cors' | 'timeouts'> {
  /** The simulator to serve. */
  gateway: Gateway;
  /**
   * Where unexpected errors go (a result Node cannot send, a body that fails); default one `console.error` line.
   * `startServer` passes the gateway's reporter (see `src/core/base/report-error.ts`).
   */
  report?: ErrorReporter | undefined;
  /** The addresses the server answers as, for the admin API's Host check: its bound address, or every interface's when bound to all. */
  localHosts?: readonly string[] | undefined;
}

/**
 * Whether the path of request target `url` (before the first `?` or `#`) is valid percent-encoded UTF-8, as
 * fastify's router (find-my-way's `safeDecodeURI`) demanded before the server moved to `node:http`.
 */
function pathDecodes(url: string): boolean {
  if (url.indexOf('%') === -1) return true;
  let end = url.length;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 /* ? */ || c === 35 /* # */) {
      end = i;
      break;
    }
  }
  try {
    decodeURIComponent(url.slice(0, end));
    return true;
  } catch {
    return false;
  }
}

/** The raw path of request target `url`, without its query. */
function pathOf(url: string | undefined): string {
  return splitTarget(url ?? '/').path;
}

/**
 * One `info` line (`msg` `request`) for a response that ended: `method`, `url` (credentials' query values redacted
 * by `redactUrl` of `src/core/http/redact.ts`), `status`, `ms` (from the request's arrival, after its head, to the
 * end of the response, to 0.1 ms), and `scenario` (the applied scenario rule, `X-Mock-Applied`) and
 * `generation_id` when the answer has them.
 */
function logRequest(logger: ServerLogger, request: IncomingMessage, response: ServerResponse, start: number, answered: CoreResponse | undefined): void {
  const headers = answered?.headers;
  logger.info(
    {
      method: request.method,
      url: redactUrl(request.url ?? '/'),
      // 0 when the connection closed before any answer (a `connection-reset` rule, a client gone early).
      status: response.headersSent ? response.statusCode : 0,
      ms: Math.round((performance.now() - start) * 10) / 10,
      // The body stopped before its end: an `audio.truncate` cut, or the client went away.
      ...(response.writableFinished ? {} : { closed_early: true }),
      ...(headers?.['X-Mock-Applied'] ? { scenario: headers['X-Mock-Applied'] } : {}),
      ...(headers?.['X-Generation-Id'] ? { generation_id: headers['X-Generation-Id'] } : {}),
    },
    'request',
  );
}

/**
 * Makes the server (not listening). Each request, in order: a path that does not decode is 400 (`badUrl`); a
 * body is read when the method may carry one and the request says it has one (`hasRequestBody`), at most
 * `MAX_BODY_BYTES` (413 past it); HTTP/1.1 without `Host` is 400; then the answer of the front door
 * (`src/core/gateway/api-front-door.ts`) with the admin API (`withAdmin`, `admin.ts`; only its health check when
 * `admin` is `false`) and the dashboard (`withDashboard`, `ui.ts`) around it, sent by `sendResult` (`src/node-adapter/send.ts`).
 * Any method reaches the core (`OPTIONS` too: CORS preflights are the front door's), which answers a method served
 * nowhere with 405; `CONNECT`, which Node hands to no request handler, gets that 405 here. Request bodies are taken
 * as bytes whatever their content type, so the core validates them the same way in every mode. The server's own
 * answers carry the CORS headers the core's would. Timeouts: {@link SERVER_TIMEOUTS} and `timeouts`.
 *
 * @throws {OptionsError} (`option` `cors`) for a `cors` that is not `*` or `scheme://host[:port]` origins;
 *   (`option` `allowedHosts`) for an `allowedHosts` entry that is no host.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { gateway, logger, admin = true, report = consoleReporter } = options;
  const cors = corsPolicyOf(options.cors);
  const hosts = hostPolicyOf(options.allowedHosts, options.localHosts);
  const answer = withDashboard(withAdmin(frontDoor(gateway, { cors }), gateway, { exposure: admin ? 'on' : 'health', token: options.adminToken, hosts, cors }), admin);
  /** A response the server makes itself, with the CORS headers the core would add for `request`. */
  const own = (request: IncomingMessage, result: CoreResponse) => answer.withCors({ path: pathOf(request.url), headers: request.headers }, result);
  const timeouts: ServerTimeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };

  /** What each response was answered with, for its log line (only with a logger). */
  const answered = new WeakMap<ServerResponse, CoreResponse>();
  const reply = (response: ServerResponse, result: CoreResponse): void => {
    if (logger) answered.set(response, result);
    sendResult(response, result, report);
  };
  const respond = (request: IncomingMessage, response: ServerResponse, body: Uint8Array | undefined): void => {
    // HTTP/1.1 requires Host (RFC 9112, section 3.2); Node's own check would answer a bare 400, so it is done here.
    if (request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && !request.headers.host) reply(response, own(request, hostRequired()));
    else void answerOrFault(request, () => answer(toCoreRequest(request, body)), report).then((result) => reply(response, result));
  };
  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    if (logger) {
      const start = performance.now();
      // 'close' comes once for every response, whether it finished, was cut or was reset.
      response.once('close', () => {
        try {
          logRequest(logger, request, response, start, answered.get(response));
        } catch (error) {
          report(error, 'the request log');
        }
      });
    }
    const url = request.url ?? '/';
    if (!pathDecodes(url)) reply(response, own(request, badUrl(url)));
    else if (!hasRequestBody(request)) respond(request, response, undefined);
    else {
      readRequestBody(request, bodyLimitOf(splitTarget(request.url ?? '/').path))
        .then((read) => ('refused' in read ? reply(response, own(request, read.refused)) : respond(request, response, read.body)))
        .catch((error: unknown) => reply(response, own(request, faultAnswer(request, error, report))));
    }
  };

  const server = createServer(
    {
      headersTimeout: timeouts.headers,
      requestTimeout: timeouts.request,
      keepAliveTimeout: timeouts.keepAlive,
      // Let requests without Host reach the handler (Node would answer a bare 400 with no envelope).
      requireHostHeader: false,
      // Node checks the two timeouts above only this often (default 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headers / 4))),
    },
    serve,
  );
  server.setTimeout(timeouts.idle);
  // A CONNECT never reaches a request handler (Node would close the socket without a word): 405 with Allow.
  server.on('connect', (request: IncomingMessage, socket) => {
    socket.on('error', () => undefined);
    socket.end(rawHttpResponse(answer.withCors({ path: '/', headers: request.headers }, methodNotAllowed('CONNECT', request.url ?? '', API_METHODS).toResponse()), false));
  });
  // An `Expect` other than 100-continue: the envelope instead of Node's bare 417.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => writeResult(response, own(request, expectationFailed(String(request.headers.expect)))));
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // Malformed HTTP that Node's parser rejects before any handler runs (bad Content-Length, bad header, too slow).
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const result = malformedRequest(error.code, error.message);
    // A response to HEAD has no body (clients reject one); the raw packet tells the method when Node has it.
    const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(rawHttpResponse(result, head));
  });
  return server;
}
