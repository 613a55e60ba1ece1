/**
 * The standalone server's fastify app: every path goes to the core; fastify's own errors (body too large,
 * bad URL, bad content length) become the gateway's envelope.
 *
 * @module
 */
import { createServer } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { hostPolicyOf, type AllowedHostsOption } from '../core/admin/hosts.js';
import { corsPolicyOf, type CorsOption } from '../core/http/cors.js';
import { frontDoor } from '../core/http/api-front-door.js';
import type { Gateway } from '../core/gateway.js';
import { API_METHODS, expectationFailed, frameworkError, hostRequired, malformedRequest, methodNotAllowed } from '../core/http/malformed-requests.js';
import { MAX_BODY_BYTES } from '../core/http/request.js';
import { redactUrl } from '../core/http/redact.js';
import { consoleReporter, type ErrorReporter } from '../core/report-error.js';
import type { CoreRequest, CoreResponse } from '../core/types.js';
import { rawHttpResponse, sendResult, writeResult } from './send.js';
import { withDashboard } from './ui.js';

/** `type/subtype` with optional parameters, as fastify's parser accepts. */
const VALID_MEDIA_TYPE = /^\s*[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+\s*(;.*)?$/i;
const originalContentType = new WeakMap<object, string>();

/** Options of {@link buildApp}. */
export interface AppOptions {
  /** The simulator to serve. */
  gateway: Gateway;
  /**
   * Request logger: one line per request (method, URL with credentials' query values redacted by `redactUrl` of
   * `src/core/http/redact.ts`, status, ms, and the applied scenario rule and generation id when there are any).
   * `undefined` logs nothing.
   */
  logger?: Logger | undefined;
  /**
   * Serve the admin API under `/__mock/` (default `true`); `false` answers those paths with the 404 envelope,
   * but `GET /__mock/health`, the readiness probe.
   */
  admin?: boolean | undefined;
  /** Overrides of {@link SERVER_TIMEOUTS}, ms. */
  timeouts?: Partial<ServerTimeouts> | undefined;
  /**
   * Require this token on admin requests but health (`Authorization: Bearer`, `X-Mock-Admin-Token`, or the login
   * cookie `mockrouter_admin_<port>` a browser gets from `?token=` or `POST /__mock/login`).
   */
  adminToken?: string | undefined;
  /**
   * Hosts the admin API answers besides `localhost`, `127.0.0.1`, `[::1]` and {@link localHosts} (DNS rebinding
   * defense, `src/core/admin/hosts.ts`): names, IP addresses, `.domain` for a domain and its subdomains, as a
   * comma-separated string or a list; `all` or `true` for any.
   */
  allowedHosts?: AllowedHostsOption | undefined;
  /**
   * Where unexpected errors go (a result Node cannot send, a body that fails); default one `console.error` line.
   * `startServer` passes the gateway's reporter (see `src/core/report-error.ts`).
   */
  report?: ErrorReporter | undefined;
  /** The addresses the server answers as: its bound address, or every interface's when bound to all (from `startServer`). */
  localHosts?: readonly string[] | undefined;
  /**
   * Which origins may call cross-origin: `*` (any, the default, as the gateway; the admin API stays same-origin),
   * or origins `scheme://host[:port]`, as a comma-separated string or a list (they may call the admin API too).
   * See `src/core/http/cors.ts`.
   */
  cors?: CorsOption | undefined;
}

/**
 * Timeouts of the standalone server, ms. They bound what a stalled or malicious client can hold: a client that
 * sends its headers slowly is cut after `headers`, one that stalls while sending its body after `request`, an
 * idle socket (including one that stops reading a streamed response) after `idle`.
 */
export const SERVER_TIMEOUTS = {
  /** Time to receive the request headers. */
  headers: 10_000,
  /** Time to receive the whole request (headers and body). */
  request: 30_000,
  /** Socket inactivity before it is closed (no bytes in or out). */
  idle: 60_000,
  /** How long an idle keep-alive connection is kept open. */
  keepAlive: 5_000,
} as const;

/** The shape of {@link SERVER_TIMEOUTS}: ms for each. */
export type ServerTimeouts = { [K in keyof typeof SERVER_TIMEOUTS]: number };

/**
 * Builds the fastify app (not listening). Routes: the admin API under `/__mock/` ({@link handleAdmin}) and, for
 * any method (`OPTIONS` too: CORS preflights are answered by the core's front door), every other path through
 * {@link Gateway.handle}. Request bodies are taken as raw bytes whatever their content type, so the core validates
 * them the same way in both modes. Timeouts: {@link SERVER_TIMEOUTS}. The envelopes of fastify's own errors carry
 * the same CORS headers as the core's answers.
 *
 * @throws {OptionsError} (`option` `cors`) for a `cors` that is not `*` or `scheme://host[:port]` origins;
 *   (`option` `allowedHosts`) for an `allowedHosts` entry that is no host.
 */
export function buildApp({ gateway, logger, admin = true, adminToken, timeouts: overrides, cors, allowedHosts, localHosts, report = consoleReporter }: AppOptions): FastifyInstance {
  const answer = withDashboard(frontDoor(gateway, { admin: admin ? 'on' : 'health', adminToken, cors: corsPolicyOf(cors), allowedHosts: hostPolicyOf(allowedHosts, localHosts) }), admin);
  /** A response the server makes itself, with the CORS headers the core would add for `request`. */
  const own = (request: { url?: string | undefined; headers: CoreRequest['headers'] }, result: CoreResponse) => {
    const url = request.url ?? '/';
    const q = url.indexOf('?');
    return answer.withCors({ path: q === -1 ? url : url.slice(0, q), headers: request.headers }, result);
  };
  const timeouts: ServerTimeouts = { ...SERVER_TIMEOUTS, ...overrides };
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    serverFactory: (handler) => {
      const server = createServer(
        {
          headersTimeout: timeouts.headers,
          requestTimeout: timeouts.request,
          keepAliveTimeout: timeouts.keepAlive,
          // Let requests without Host reach the gateway (Node would answer a bare 400 with no envelope).
          requireHostHeader: false,
          // Node checks the two timeouts above only this often (default 30 s).
          connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headers / 4))),
        },
        handler,
      );
      server.setTimeout(timeouts.idle);
      // A CONNECT never reaches a request handler (Node would close the socket without a word): 405 with Allow.
      server.on('connect', (request, socket) => {
        socket.on('error', () => undefined);
        socket.end(rawHttpResponse(own({ url: '/', headers: request.headers }, methodNotAllowed('CONNECT', request.url ?? '', API_METHODS).toResponse()), false));
      });
      // An `Expect` other than 100-continue: the envelope instead of Node's bare 417.
      server.on('checkExpectation', (request, response) => writeResult(response, own(request, expectationFailed(String(request.headers.expect)))));
      return server;
    },
    return503OnClosing: false,
    frameworkErrors: (error, request, reply) => sendResult(reply as FastifyReply, own(request, frameworkError((error as FastifyError).statusCode ?? 400, error.message)), report),
    clientErrorHandler: (error, socket) => {
      // Malformed HTTP that Node's parser rejects before any route runs (bad Content-Length, bad header).
      if (!socket.writable) return;
      const result = malformedRequest((error as NodeJS.ErrnoException).code, error.message);
      // A response to HEAD has no body (clients reject one); the raw packet tells the method when Node has it.
      const head = (error as unknown as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
      socket.end(rawHttpResponse(result, head));
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Fastify refuses a Content-Type that is not `type/subtype` with 415 before any route; the gateway takes the
  // body as bytes whatever its type, so hide such a header from fastify and give the core the original. Only
  // methods that may carry a body pay for this hook.
  const keepContentType = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    const type = request.headers['content-type'];
    if (type !== undefined && !VALID_MEDIA_TYPE.test(type)) {
      originalContentType.set(request.raw, type);
      request.headers['content-type'] = 'application/octet-stream';
    }
    done();
  };

  app.setErrorHandler((error: FastifyError, request, reply) => sendResult(reply, own(request, frameworkError(error.statusCode, error.message)), report));

  /** What each request was answered with, for the log line. */
  const answered = new WeakMap<object, CoreResponse>();
  const send = (request: FastifyRequest, reply: FastifyReply, result: CoreResponse) => {
    if (logger) answered.set(request.raw, result);
    sendResult(reply, result, report);
  };
  if (logger) {
    app.addHook('onResponse', (request, reply, done) => {
      const headers = answered.get(request.raw)?.headers;
      logger.info(
        {
          method: request.method,
          url: redactUrl(request.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          ...(headers?.['X-Mock-Applied'] ? { scenario: headers['X-Mock-Applied'] } : {}),
          ...(headers?.['X-Generation-Id'] ? { generation_id: headers['X-Generation-Id'] } : {}),
        },
        'request',
      );
      done();
    });
  }

  const toCore = (request: FastifyRequest): CoreRequest => {
    const url = request.url;
    const q = url.indexOf('?');
    const type = originalContentType.get(request.raw);
    return {
      method: request.method,
      path: q === -1 ? url : url.slice(0, q),
      query: q === -1 ? '' : url.slice(q + 1),
      headers: type === undefined ? request.headers : { ...request.headers, 'content-type': type },
      body: request.body as Buffer | undefined,
    };
  };
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    // HTTP/1.1 requires Host (RFC 9112, section 3.2); Node's own check would answer a bare 400, so it is done here.
    if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor === 1 && !request.headers.host) {
      send(request, reply, own(request, hostRequired()));
      return;
    }
    send(request, reply, answer(toCore(request)));
  };
  const withoutBody = ['GET', 'HEAD'];
  const withBody = app.supportedMethods.filter((method) => !withoutBody.includes(method));
  for (const url of ['/*', '/']) {
    app.route({ method: withoutBody, url, handler });
    app.route({ method: withBody, url, onRequest: keepContentType, handler });
  }
  app.setNotFoundHandler(handler);
  return app;
}
