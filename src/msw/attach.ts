/**
 * A workaround for a hang in msw 2 that official clients run into: msw 2 keeps a copy of every mocked
 * response (a `tee` of its body) for its `response:mocked` event. Cancelling one branch of a tee resolves only
 * once the other branch is consumed or cancelled too, so a client that cancels a response body it does not
 * need (the `openai` SDK does, before each retry of a 429 or 5xx) waits forever (mswjs/interceptors#799).
 * msw 3 does not have the problem.
 *
 * @module
 */
import { OPENROUTER_BASE_URL } from './handlers.js';

/** The part of msw's `SetupServerApi` (msw/node) this needs. */
export interface MswServerEvents {
  events: {
    on(event: 'response:mocked', listener: (args: { response: Response; request: Request }) => void): void;
  };
}

const API_PATH = new URL(OPENROUTER_BASE_URL).pathname;

/**
 * Drains msw's copy of each mocked response to a gateway path (`/api/v1/...` on any origin), so clients that
 * cancel response bodies (the `openai` SDK before each retry) do not hang under msw 2. Other responses are left
 * alone, and so are your own `response:mocked` listeners for other paths.
 *
 * @param server the msw server (`setupServer(...)` from `msw/node`).
 * @returns `server`, for chaining.
 * @example
 * const server = mock.attach(setupServer(...mock.handlers));
 */
export function attachToServer<S extends MswServerEvents>(server: S): S {
  server.events.on('response:mocked', ({ request, response }) => {
    if (!new URL(request.url).pathname.startsWith(`${API_PATH}/`)) return;
    response.body?.cancel().catch(() => undefined);
  });
  return server;
}
