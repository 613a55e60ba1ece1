/**
 * The standalone server's fastify app: every path goes to the core; fastify's own errors (body too large,
 * bad URL, bad content length) become the gateway's envelope.
 *
 * @module
 */
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ADMIN_PREFIX, handleAdmin } from '../core/admin.js';
import type { Gateway } from '../core/gateway.js';
import { errorEnvelope, errorResponse } from '../core/errors.js';
import { MAX_BODY_BYTES } from '../core/request.js';
import type { CoreRequest } from '../core/types.js';
import { sendResult } from './send.js';

/** Options of {@link buildApp}. */
export interface AppOptions {
  /** The simulator to serve. */
  gateway: Gateway;
  /** Request logger: one line per request (method, path, status, ms). `undefined` logs nothing. */
  logger?: Logger | undefined;
}

/**
 * Builds the fastify app (not listening). Routes: the admin API under `/__mock/` ({@link handleAdmin}) and, for
 * any method, every other path through {@link Gateway.handle}. Request bodies are taken as raw bytes whatever their content type, so the
 * core validates them the same way in both modes.
 */
export function buildApp({ gateway, logger }: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: false,
    frameworkErrors: (error, _request, reply) => {
      const status = (error as FastifyError).statusCode ?? 400;
      sendResult(reply as FastifyReply, errorResponse(status, { message: error.message }));
    },
    clientErrorHandler: (error, socket) => {
      // Malformed HTTP that Node's parser rejects before any route runs (bad Content-Length, bad header).
      if (!socket.writable) return;
      const code = (error as NodeJS.ErrnoException).code;
      const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify(errorEnvelope(status, { message: `Malformed HTTP request (${code ?? error.message})` }));
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const message = status === 413 ? `Request body is over the limit of ${MAX_BODY_BYTES} bytes` : error.message;
    sendResult(reply, errorResponse(status, { message }));
  });

  if (logger) {
    app.addHook('onResponse', (request, reply, done) => {
      logger.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
      done();
    });
  }

  const toCore = (request: FastifyRequest): CoreRequest => {
    const url = request.url;
    const q = url.indexOf('?');
    return {
      method: request.method,
      path: q === -1 ? url : url.slice(0, q),
      query: q === -1 ? '' : url.slice(q + 1),
      headers: request.headers,
      body: request.body as Buffer | undefined,
    };
  };
  const handler = (request: FastifyRequest, reply: FastifyReply) => sendResult(reply, gateway.handle(toCore(request)));
  app.all(`${ADMIN_PREFIX}*`, (request, reply) => sendResult(reply, handleAdmin(gateway, toCore(request))));
  app.all('/*', handler);
  app.all('/', handler);
  app.setNotFoundHandler(handler);
  return app;
}
