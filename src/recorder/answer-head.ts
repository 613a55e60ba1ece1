/**
 * What of an upstream's answer head (status line and headers) the recording proxy passes on: the hop-by-hop headers
 * dropped (RFC 9110, section 7.6.1: `Connection` and the headers it names, `Keep-Alive`, `Proxy-Connection`,
 * `Proxy-Authenticate`, `Proxy-Authorization`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`), the rest as sent,
 * when HTTP can carry it on: Node's parser takes some heads its own `writeHead` refuses (status `000` or `099`, a
 * DEL or control character in the reason phrase), and an informational status (`101 Switching Protocols`) is no
 * answer to pass on. Such a head is reported, never written (`proxy.ts` answers 502 instead).
 *
 * @module
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';

/** Hop-by-hop header names, lower-case, dropped both ways (see the module's description). `Host` is set apart. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The hop-by-hop names plus those a `Connection` header lists, lower-case. */
export function droppedNames(connection: string | undefined): Set<string> {
  const names = new Set(HOP_BY_HOP);
  for (const name of (connection ?? '').split(',')) if (name.trim() !== '') names.add(name.trim().toLowerCase());
  return names;
}

/** A head the proxy can write: `res.writeHead(status, statusMessage, headers)`. */
export interface ForwardableHead {
  status: number;
  statusMessage: string;
  /** Raw headers, `[name, value, name, value, ...]`, hop-by-hop ones dropped. */
  headers: string[];
}

/** Characters Node refuses in a reason phrase, as in a header value: anything but tab, visible ASCII, space and Latin-1. */
const NOT_IN_REASON = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The head of an answer as the proxy passes it on, or the problem that keeps HTTP from passing it on, in words that
 * quote nothing of the head (it may hold anything, a credential included).
 *
 * @param rawHeaders the answer's raw headers (`IncomingMessage.rawHeaders`).
 * @param connection the answer's `Connection` header, naming more hop-by-hop headers.
 */
export function forwardableHead(status: number, statusMessage: string, rawHeaders: readonly string[], connection: string | undefined): ForwardableHead | { problem: string } {
  if (!Number.isInteger(status) || status < 100 || status > 999) return { problem: `status ${String(status).padStart(3, '0')}, outside the 100 to 999 HTTP has` };
  if (status < 200) return { problem: `status ${status}, informational: no answer to a request of the API` };
  if (NOT_IN_REASON.test(statusMessage)) return { problem: 'a control character in the reason phrase' };
  const dropped = droppedNames(connection);
  const headers: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    try {
      validateHeaderName(name);
    } catch {
      return { problem: 'a header name that is not an HTTP token' };
    }
    try {
      validateHeaderValue(name, value);
    } catch {
      return { problem: 'a header value holding CR, LF or another control character' };
    }
    if (!dropped.has(name.toLowerCase())) headers.push(name, value);
  }
  return { status, statusMessage, headers };
}
