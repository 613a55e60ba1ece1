/**
 * Requests to the standalone server's admin API (`/__mock/`, `docs/admin-api.md`), for the tests that start a
 * server in a `beforeAll`: the server is read when a request is made, through a getter.
 *
 * @module
 */

/** What an admin request needs of a started server: its origin (`RunningServer.url`, `http://127.0.0.1:<port>`). */
export interface AdminTarget {
  readonly url: string;
}

/** `<origin>/__mock/<path>`; `path` has no leading slash and may carry a query (`requests?status=429`). */
export function adminUrl(target: AdminTarget, path: string): string {
  return `${target.url}/__mock/${path}`;
}

/** Builds the URL of an admin path of the server `target()` gives when called (see {@link adminUrl}). */
export function adminUrls(target: () => AdminTarget): (path: string) => string {
  return (path) => adminUrl(target(), path);
}

/**
 * `fetch` of an admin path of the server `target()` gives when called, `init` as `fetch` takes it (no headers
 * added: a server started with an admin token needs them in `init`).
 */
export function adminFetch(target: () => AdminTarget): (path: string, init?: RequestInit) => Promise<Response> {
  return (path, init) => fetch(adminUrl(target(), path), init);
}
