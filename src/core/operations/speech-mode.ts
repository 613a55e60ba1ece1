/**
 * The speech mode of a request (`docs/speech.md`): its control header `X-Mock-Speech: tones|words`, else the
 * gateway's option `speech`. Like `X-Mock-Scenario`, the header is never required, and never forwarded or recorded
 * (`mockrouter record` drops every `X-Mock-*` header).
 *
 * @module
 */
import { SPEECH_MODES, type SpeechMode } from '../audio/types.js';
import { GatewayError } from '../base/error-envelope.js';
import { header } from '../http/request.js';
import type { CoreRequest } from '../base/types.js';

/** The control header that picks the speech mode of one request, as sent (`X-Mock-Speech`). */
export const SPEECH_HEADER_NAME = 'X-Mock-Speech';
/** {@link SPEECH_HEADER_NAME}, lower-cased as request headers are looked up. */
export const SPEECH_HEADER = 'x-mock-speech';

/**
 * The speech mode of `request`: its `X-Mock-Speech` (trimmed, case-insensitive), else `fallback`.
 *
 * @throws {GatewayError} 400 `X-Mock-Speech: must be one of tones, words, got "<value>"` for any other value.
 */
export function speechModeOf(request: CoreRequest, fallback: SpeechMode): SpeechMode {
  const value = header(request.headers, SPEECH_HEADER);
  if (value === undefined) return fallback;
  const mode = value.trim().toLowerCase();
  if ((SPEECH_MODES as readonly string[]).includes(mode)) return mode as SpeechMode;
  throw new GatewayError(400, { message: `${SPEECH_HEADER_NAME}: must be one of ${SPEECH_MODES.join(', ')}, got ${JSON.stringify(value.slice(0, 100))}` });
}
