/**
 * A request with `node:http` rather than `fetch`: it sends any `Host` and any status comes back as is (undici's
 * fetch sets its own `Host` and turns some statuses, such as 407, into network errors).
 *
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** Status, headers (lower-case names) and body text of an answer. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Sends one request and reads its whole answer as UTF-8 text.
 *
 * @param url - absolute `http:` URL.
 * @param options - method (default `GET`), headers, and a body sent as is.
 * @throws (rejects with) the socket's error.
 */
export function rawHttp(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
