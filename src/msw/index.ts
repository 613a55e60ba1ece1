/**
 * In-process mode: the simulator as MSW handlers.
 *
 * @module
 */
export { createHandlers, OPENROUTER_BASE_URL } from './handlers.js';
export { toCoreRequest, toHttpResponse } from './convert.js';
export { attachToServer, type MswServerEvents } from './attach.js';
