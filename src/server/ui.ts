/**
 * The dashboard at `GET /__mock/ui` (docs/admin-api.md, "Dashboard"): the standalone server serves the page's built files
 * (`dist/ui/`, read by `src/node-platform/ui-files.ts`) under `/__mock/ui/`. The page is static: everything it shows comes
 * from the admin API, with that API's own guard (the admin token), so the files themselves are served to anyone
 * who reaches the admin API's paths. With `--no-admin` they answer 404 as the rest of the admin API does.
 *
 * - `GET /__mock/ui` and `/__mock/ui/`: `index.html`; `GET /__mock/ui/<file>`: a file of the build (`app.js`,
 *   `app.css`, `icon.svg`). Other methods: 405 with `Allow: GET, HEAD`; an unknown file: 404.
 * - Every answer: `Cache-Control: no-cache` with an `ETag` (a conditional request gets 304), and a
 *   Content-Security-Policy that lets the page load only its own scripts, styles and connections
 *   (`default-src 'self'`, no inline script; `media-src 'self' blob:` for the audio player).
 * - No build (a source checkout before `npm run build`): 503, an envelope saying `run npm run build`.
 * - `/__mock/ui?token=...` (opening the page with the admin token) is left to the admin API (its login).
 *
 * @module
 */
import { ADMIN_PREFIX } from '../core/admin/admin-api.js';
import { errorResponse } from '../core/base/error-envelope.js';
import { methodNotAllowed } from '../core/http/malformed-requests.js';
import { header, queryParams } from '../core/http/request.js';
import type { CoreRequest, CoreResponse } from '../core/base/types.js';
import { uiFiles, type UiFiles } from '../node-platform/ui-files.js';
import type { AdminDoor } from './admin.js';

/** Path of the dashboard. */
export const UI_PATH = `${ADMIN_PREFIX}ui`;

/** The Content-Security-Policy of the dashboard's answers. */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every answer of the dashboard. */
const UI_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': UI_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // Not no-referrer: with it, the login form's POST would carry `Origin: null`, which the admin guard refuses.
  'Referrer-Policy': 'same-origin',
};

/** Whether raw `path` is the dashboard's: `/__mock/ui` or under `/__mock/ui/`. */
export function isUiPath(path: string): boolean {
  return path === UI_PATH || path.startsWith(`${UI_PATH}/`);
}

/** Whether `If-None-Match` (a list of entity tags, or `*`) matches `etag`. */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Answers one request for a dashboard path (see the module's description). */
export function answerUi(request: CoreRequest, files: UiFiles): CoreResponse {
  const withHeaders = (response: CoreResponse): CoreResponse => ({ ...response, headers: { ...response.headers, ...UI_HEADERS } });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return withHeaders(methodNotAllowed(request.method, request.path, 'GET, HEAD').toResponse());
  }
  if (!files.built()) {
    return withHeaders(errorResponse(503, { message: `The dashboard is not built (${files.dir} has no index.html): run npm run build` }));
  }
  const rest = request.path.slice(UI_PATH.length).replace(/^\//, '');
  const file = files.get(rest === '' ? 'index.html' : rest);
  if (file === undefined) return withHeaders(errorResponse(404, { message: `No dashboard file ${request.path}; the dashboard is at ${UI_PATH}` }));
  const headers = { 'Content-Type': file.contentType, ETag: file.etag, ...UI_HEADERS };
  if (notModified(header(request.headers, 'if-none-match'), file.etag)) return { status: 304, headers, body: null };
  return { status: 200, headers, body: file.body };
}

/**
 * `answer` with the dashboard in front of it: a request for a dashboard path is answered from `files` (default
 * the package's `dist/ui/`) once the admin API's guard (`answer.guardAdmin`: Host and Origin, not the token) lets
 * it through; everything else (and `/__mock/ui?token=...`, the admin API's login) by `answer`. Answers with a
 * promise of the response; a dashboard file that cannot be read is a rejection (the server answers it with the 500
 * envelope, `answerOrFault`).
 *
 * @param answer the front door with the admin API around it (`withAdmin` of `admin.ts`).
 * @param enabled whether the admin API is on; when not, `answer` itself is returned (the paths answer 404).
 */
export function withDashboard(answer: AdminDoor, enabled: boolean, files: UiFiles = uiFiles()): AdminDoor {
  if (!enabled) return answer;
  // The admin API's guard (Host, Origin) without the token check: the page asks for the token itself.
  const dashboard = async (request: CoreRequest): Promise<CoreResponse> => answer.guardAdmin(request, { token: false }) ?? answerUi(request, files);
  // Not `async`: every other request gets `answer`'s promise as it is.
  const door = (request: CoreRequest): Promise<CoreResponse> =>
    !isUiPath(request.path) || queryParams(request.query).has('token') ? answer(request) : dashboard(request);
  return Object.assign(door, { withCors: answer.withCors, guardAdmin: answer.guardAdmin });
}
