/**
 * The upstream's answer to one request the recording proxy forwarded (`proxy.ts`): its head checked and passed on
 * (`answer-head.ts`), its bytes piped to the client as they come, a copy kept of an answer the recorder records, and
 * that copy, once the answer ended whole, decoded (`Content-Encoding` undone) and recorded (`recorder.ts`). No body
 * bytes for `upstreamTimeoutMs` once the answer started cuts it (not recorded).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { forwardableHead } from './answer-head.js';
import { isOwnAnswer, type OwnAnswerReason } from './own-answers.js';
import type { RecordedFolder } from './recorded-folder.js';
import { recordExchange, type recordedOperation } from './recorder.js';

/** What the proxy logs: one entry per request, and warnings. pino's `Logger` is one. */
export interface RecorderLogger {
  info(entry: object, message?: string): void;
  warn(entry: object, message?: string): void;
}

/** What the recording proxy shares across its requests. */
export interface ProxyState {
  folder: RecordedFolder;
  /** Most bytes of one answer kept for recording; longer ones are forwarded, not recorded. */
  maxRecordBytes: number;
  /** Longest wait, ms, for each chunk of an answer's body once it started. */
  upstreamTimeoutMs: number;
  logger?: RecorderLogger | undefined;
  /** The recordings under way, each removed once it settled. */
  pending: Set<Promise<unknown>>;
}

/** One forwarded request, as its answer needs it. */
export interface ForwardedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: string;
  operation: ReturnType<typeof recordedOperation>;
  /** The credential values the request carries. */
  secrets: string[];
  /** The request as logged (its URL redacted), and as named in warnings. */
  logged: { method: string; url: string };
  about: string;
  /** When the request came, ms since the epoch. */
  started: number;
  /** Answers the recorder's own envelope (once), logs the request and one warning; nothing once the client left. */
  fail(reason: OwnAnswerReason, message: string, warning: string): void;
  /** Whether the client closed the connection before the answer ended. */
  clientGone(): boolean;
  /** Whether the recorder is stopping (`close()` of `proxy.ts`): an answer cut then was cut by it. */
  stopping(): boolean;
  /** The request body kept for recording, as it stands; `undefined` when none is kept. */
  body(): Buffer | undefined;
}

/** Passes `answer`, the upstream's answer to `request`, on to the client, and records it once it ended whole. */
export function passAnswer(answer: IncomingMessage, request: ForwardedRequest, proxy: ProxyState, shown: string): void {
  const { req, res, method, path, query, operation, secrets, logged, about, started, fail } = request;
  const { folder, maxRecordBytes, upstreamTimeoutMs, logger, pending } = proxy;
  const status = answer.statusCode ?? 0;
  const head = forwardableHead(status, answer.statusMessage ?? '', answer.rawHeaders, headerText(answer.headers.connection) || undefined);
  if ('problem' in head) {
    answer.destroy();
    fail('invalid-answer', `the upstream ${shown} answered a status line or header HTTP cannot pass on`, `the upstream answered ${head.problem}, which HTTP cannot pass on; answered 502, nothing recorded`);
    return;
  }
  res.writeHead(head.status, head.statusMessage, head.headers);

  // Records only the gateway's answers: not a recorder's own (come back through a loop, or of one upstream).
  const recordable = operation !== undefined && (status === 200 || status >= 400) && !isOwnAnswer(answer.headers);
  let kept: Buffer[] | undefined = recordable ? [] : undefined;
  let keptBytes = 0;
  let stalled = false;
  // No body bytes for upstreamTimeoutMs cuts the answer, unless the client is the one behind (its buffer full).
  const bodyTimer = setTimeout(function onStall() {
    if (res.writableNeedDrain) {
      bodyTimer.refresh();
      return;
    }
    stalled = true;
    answer.destroy();
    res.destroy();
  }, upstreamTimeoutMs);
  res.on('drain', () => bodyTimer.refresh());
  answer.on('data', (chunk: Buffer) => {
    bodyTimer.refresh();
    if (kept === undefined) return;
    keptBytes += chunk.length;
    if (keptBytes > maxRecordBytes) {
      kept = undefined;
      logger?.warn({ limit_bytes: maxRecordBytes }, `${about}: answer longer than ${maxRecordBytes} bytes; forwarded, not recorded`);
    } else kept.push(chunk);
  });
  answer.on('aborted', () => res.destroy());
  answer.on('error', () => res.destroy());
  answer.pipe(res);

  answer.on('close', () => {
    clearTimeout(bodyTimer);
    const entry = { ...logged, status, ms: Date.now() - started };
    logger?.info(answer.complete ? entry : { ...entry, closed_early: true }, 'request');
    if (!answer.complete) {
      const by = stalled
        ? `by the recorder: no body bytes for ${upstreamTimeoutMs} ms (--upstream-timeout)`
        : request.stopping()
          ? 'by the recorder stopping'
          : request.clientGone()
            ? 'the client closed'
            : 'by the upstream';
      logger?.warn({}, `${about}: answer cut short (${by}); not recorded`);
      return;
    }
    if (operation !== undefined && !recordable && isOwnAnswer(answer.headers)) {
      logger?.info({}, `${about}: not recorded: the answer is a recorder's own, not the gateway's`);
    }
    if (kept === undefined) return;
    let body: Buffer;
    try {
      body = decoded(Buffer.concat(kept), headerText(answer.headers['content-encoding']), maxRecordBytes);
    } catch (error) {
      logger?.warn({}, `${about}: the answer's Content-Encoding could not be decoded (${error instanceof Error ? error.message : String(error)}); not recorded`);
      return;
    }
    kept = undefined;
    const job = recordExchange(
      {
        method,
        path,
        query,
        requestBody: request.body(),
        requestContentType: headerText(req.headers['content-type']),
        status,
        contentType: headerText(answer.headers['content-type']),
        retryAfter: answer.headers['retry-after'] === undefined ? undefined : headerText(answer.headers['retry-after']),
        body,
        secrets,
      },
      folder,
    ).then(
      (notes) => {
        for (const note of notes) {
          if (note.warn) logger?.warn({}, `${about}: ${note.text}`);
          else logger?.info({ recorded: note.text }, `${about}: ${note.text}`);
        }
      },
      (error: unknown) => logger?.warn({}, `${about}: recording failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    pending.add(job);
    void job.finally(() => pending.delete(job));
  });
}

/**
 * `body` with its `Content-Encoding` undone (`gzip`, `x-gzip`, `deflate`, `br`, in the order listed, last first;
 * `identity` or none: as is), so a compressed answer is recorded as what the client reads.
 *
 * @throws for an unknown coding, bytes that do not decode, or a decoded body longer than `maxBytes`.
 */
function decoded(body: Buffer, contentEncoding: string, maxBytes: number): Buffer {
  const codings = contentEncoding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let out = body;
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out, { maxOutputLength: maxBytes });
    else if (coding === 'deflate') out = inflateSync(out, { maxOutputLength: maxBytes });
    else if (coding === 'br') out = brotliDecompressSync(out, { maxOutputLength: maxBytes });
    else throw new Error('an unknown coding');
  }
  return out;
}

/** A header's value as one text (several joined by `, `; none: empty). */
function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}
