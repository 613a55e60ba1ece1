/**
 * The gateway's error envelope (`docs/behaviour.md`, "Error envelope"; the gateway's docs page "Errors and
 * debugging", https://openrouter.ai/docs/api/reference/errors-and-debugging):
 * `{"error":{"code":<int>,"message":<string>,"metadata":<object|null>},"user_id":<string|null>}`,
 * HTTP status equal to `error.code`, `Content-Type: application/json`.
 *
 * @module
 */
import type { CoreResponse } from './types.js';

/** Values of `error.metadata.error_type` the real gateway uses (`docs/behaviour.md`, "Error envelope"). */
export type ErrorType =
  | 'context_length_exceeded'
  | 'max_tokens_exceeded'
  | 'token_limit_exceeded'
  | 'string_too_long'
  | 'authentication'
  | 'permission_denied'
  | 'payment_required'
  | 'rate_limit_exceeded'
  | 'provider_overloaded'
  | 'provider_unavailable'
  | 'invalid_request'
  | 'invalid_prompt'
  | 'not_found'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unprocessable'
  | 'content_policy_violation'
  | 'refusal'
  | 'server'
  | 'timeout'
  | 'unmapped';

/** The default message and `error_type` of each status the gateway documents (`docs/behaviour.md`, "Messages seen"). */
export interface StatusDefaults {
  message: string;
  errorType: ErrorType;
}

/**
 * Default message and `error_type` per HTTP status. The messages are the real gateway's where `docs/behaviour.md`
 * ("Messages seen") gives them (401, 402, 404, 429, 500, 502, 503, 524, 529); the others are plain HTTP reason
 * phrases.
 */
export const STATUS_DEFAULTS: Readonly<Record<number, StatusDefaults>> = {
  400: { message: 'Bad Request', errorType: 'invalid_request' },
  401: { message: 'No auth credentials found', errorType: 'authentication' },
  402: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits', errorType: 'payment_required' },
  403: { message: 'Forbidden', errorType: 'permission_denied' },
  404: { message: 'Resource not found', errorType: 'not_found' },
  405: { message: 'Method Not Allowed', errorType: 'invalid_request' },
  408: { message: 'Request Timeout', errorType: 'timeout' },
  409: { message: 'Conflict', errorType: 'invalid_request' },
  410: { message: 'Gone', errorType: 'not_found' },
  412: { message: 'Precondition Failed', errorType: 'precondition_failed' },
  413: { message: 'Payload Too Large', errorType: 'payload_too_large' },
  415: { message: 'Unsupported Media Type', errorType: 'invalid_request' },
  422: { message: 'Unprocessable Entity', errorType: 'unprocessable' },
  429: { message: 'Rate limit exceeded', errorType: 'rate_limit_exceeded' },
  500: { message: 'Internal Server Error', errorType: 'server' },
  502: { message: 'Provider returned error', errorType: 'provider_unavailable' },
  503: { message: 'Service temporarily unavailable', errorType: 'provider_unavailable' },
  504: { message: 'Gateway Timeout', errorType: 'timeout' },
  524: { message: 'Request timed out. Please try again later.', errorType: 'timeout' },
  529: { message: 'Provider returned error', errorType: 'provider_overloaded' },
};

/** The fallback for a status with no entry in {@link STATUS_DEFAULTS}: 4xx → `invalid_request`, else `server`. */
function statusDefaults(status: number): StatusDefaults {
  return (
    STATUS_DEFAULTS[status] ?? {
      message: status < 500 ? 'Request failed' : 'Internal Server Error',
      errorType: status < 500 ? 'invalid_request' : 'unmapped',
    }
  );
}

/** The JSON body of an error response. */
export interface ErrorEnvelope {
  error: { code: number; message: string; metadata: Record<string, unknown> | null };
  user_id?: string | null;
}

/** What a caller may set on an error; every part defaults from {@link STATUS_DEFAULTS}. */
export interface GatewayErrorInit {
  /** Overrides the status's default message. */
  message?: string;
  /** Merged over `{ error_type }`; `null` drops metadata entirely. */
  metadata?: Record<string, unknown> | null;
  /** The key's user id; the gateway sends it on 402 but never on auth failures. */
  userId?: string;
  /** Extra response headers, e.g. `Retry-After` (seconds). */
  headers?: Record<string, string>;
}

/**
 * An error the core raises anywhere in request handling; the pipeline turns it into the envelope response.
 * Throwing it is how an operation answers with an error.
 *
 * @example
 * throw new GatewayError(400, { message: 'input: Required' });
 */
export class GatewayError extends Error {
  /** HTTP status and `error.code` (an integer: the official SDK rejects a string code). */
  readonly status: number;
  readonly init: GatewayErrorInit;

  constructor(status: number, init: GatewayErrorInit = {}) {
    super(init.message ?? statusDefaults(status).message);
    this.name = 'GatewayError';
    this.status = status;
    this.init = init;
  }

  /** The envelope body for this error. */
  toEnvelope(): ErrorEnvelope {
    return errorEnvelope(this.status, this.init);
  }

  /** The full response for this error. */
  toResponse(): CoreResponse {
    return errorResponse(this.status, this.init);
  }
}

/**
 * Builds the envelope for `status`: default message and `metadata.error_type` from {@link statusDefaults},
 * each overridable by `init`.
 */
export function errorEnvelope(status: number, init: GatewayErrorInit = {}): ErrorEnvelope {
  const defaults = statusDefaults(status);
  const metadata = init.metadata === null ? null : { error_type: defaults.errorType, ...init.metadata };
  const envelope: ErrorEnvelope = {
    error: { code: status, message: init.message ?? defaults.message, metadata },
  };
  if (init.userId !== undefined) envelope.user_id = init.userId;
  return envelope;
}

/** The envelope as a complete response: status, `Content-Type: application/json`, extra headers, JSON body. */
export function errorResponse(status: number, init: GatewayErrorInit = {}): CoreResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/json', ...init.headers },
    body: JSON.stringify(errorEnvelope(status, init)),
  };
}

/**
 * The response for anything thrown while answering: a {@link GatewayError}'s own envelope, or for an unexpected
 * fault a 500 envelope whose `metadata.reason` is the error's message (never a stack trace).
 */
export function toErrorResponse(error: unknown): CoreResponse {
  if (error instanceof GatewayError) return error.toResponse();
  return errorResponse(500, { metadata: { error_type: 'server', reason: error instanceof Error ? error.message : String(error) } });
}

/** A JSON answer that is no error: `status`, `Content-Type: application/json`, `value` serialized. */
export function jsonResponse(status: number, value: unknown): CoreResponse {
  return { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) };
}
