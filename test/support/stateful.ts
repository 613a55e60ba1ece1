/**
 * Helpers for the stateful-gateway tests (credits, rate limits, clock, determinism): plain `fetch` calls with a
 * fixed user agent, the error envelope, and moving a mode's clock the way a user of that mode would (the CLI they
 * start is in `./cli.ts`).
 */
import { expect } from 'vitest';
import type { Mode, RunningMode } from './modes.js';
import { postSpeech } from './speech-request.js';

/** The user agent every request sends (undici sends `node`, msw requests have none; records keep it). */
export const USER_AGENT = 'mockrouter-tests/1.0';

/** The gateway's error envelope. */
export interface Envelope {
  error: { code: number; message: string; metadata: Record<string, unknown> | null };
  user_id?: string | null;
}

/** `POST {baseUrl}/audio/speech` with `key`; the body is read to the end. */
export async function speech(
  baseUrl: string,
  body: Record<string, unknown>,
  key = 'sk-test',
): Promise<{ res: Response; bytes: Uint8Array; id: string | null }> {
  const res = await postSpeech(baseUrl, body, { Authorization: `Bearer ${key}`, 'User-Agent': USER_AGENT });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, id: res.headers.get('x-generation-id') };
}

/** `GET {baseUrl}{path}` with `key`, body parsed as JSON. */
export async function getJson<T = unknown>(baseUrl: string, path: string, key = 'sk-test'): Promise<{ res: Response; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}`, 'User-Agent': USER_AGENT } });
  return { res, body: (await res.json()) as T };
}

/** Parses a speech error body and checks the envelope basics (JSON, `error.code` = status, an integer). */
export function envelopeOf(res: Response, bytes: Uint8Array, status: number): Envelope {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(new TextDecoder().decode(bytes)) as Envelope;
  expect(body.error.code).toBe(status);
  expect(Number.isInteger(body.error.code)).toBe(true);
  return body;
}

/** The origin of the standalone server's admin API (`/__mock/`), or `undefined` for the in-process modes. */
export function adminOrigin(mode: Mode, mock: RunningMode): string | undefined {
  return mode.name === 'server' ? new URL(mock.baseUrl).origin : undefined;
}

/** `POST /__mock/clock` with `body` (any JSON text or value) on the standalone server. */
export async function postClock(origin: string, body: unknown): Promise<{ res: Response; body: unknown }> {
  const res = await fetch(`${origin}/__mock/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { res, body: await res.json() };
}

/**
 * Moves the mock's clock forward by `ms`: through `POST /__mock/clock {"advance_ms": ms}` on the standalone
 * server, through `gateway.clock.advance(ms)` in-process.
 */
export async function advanceClock(mode: Mode, mock: RunningMode, ms: number): Promise<void> {
  const origin = adminOrigin(mode, mock);
  if (origin) {
    const { res } = await postClock(origin, { advance_ms: ms });
    expect(res.status).toBe(200);
  } else {
    mock.gateway.clock.advance(ms);
  }
}

/** The gateway's current time, epoch ms (`GET /__mock/clock` on the standalone server). */
export async function clockNow(mode: Mode, mock: RunningMode): Promise<number> {
  const origin = adminOrigin(mode, mock);
  if (!origin) return mock.gateway.clock.now();
  const res = await fetch(`${origin}/__mock/clock`);
  return ((await res.json()) as { now_ms: number }).now_ms;
}
