/**
 * The oracle every fuzzed answer must pass, given what the reference model (`reference-model.ts`) allows:
 * - an answer arrives within `REQUEST_TIMEOUT_MS` and its body is fully readable;
 * - its status is one the reference model allows (so a 500, or any 5xx, only when `X-Mock-Status` or a
 *   scenario asked for it; a 200 only for a request the gateway documents as valid);
 * - a 200 has the operation's content type and a body of the right shape (audio of a plausible length, the
 *   model or generation asked for, what a discovery read must carry: `discovery-oracle.ts`);
 * - anything else is the envelope `{"error":{"code":<status>,"message":<non-empty>,"metadata":<object|null>}}`
 *   with `Content-Type: application/json`, and no stack trace in the message (or a scenario's raw answer); the
 *   gateway's 405 carries `Allow`, a 400 of a malformed query names the parameter;
 * - a HEAD answer has no body;
 * - the journal got exactly one entry for it, with the same status and the key redacted.
 *
 * @module
 */
import type { Gateway } from '../../../src/core/gateway/gateway.js';
import { checkDiscovery } from './discovery-oracle.js';
import type { Expectation } from './reference-model.js';
import { describeRequest, isObject, short, type FuzzRequest } from './request.js';
import { REQUEST_TIMEOUT_MS } from './settings.js';
import type { Outcome, Seen } from './transports.js';

const GEN_ID = /^gen-tts-\d{10}-[A-Za-z0-9]{20}$/;
/** A line of a JavaScript stack trace. */
export const STACK = /\n\s+at /;
const PCM = 'audio/pcm;rate=24000;channels=1';

/** An answer broke the oracle; the message names the request, what was expected and why, and what came back. */
export class OracleError extends Error {
  override name = 'OracleError';
}

/** One line describing an outcome: status, content type and the first 300 bytes of the body, or the error. */
export function describeOutcome(outcome: Outcome): string {
  if (outcome.kind !== 'response') return `${outcome.kind}: ${outcome.error}`;
  const text = Buffer.from(outcome.body.subarray(0, 300)).toString('utf8');
  return `${outcome.status} ${outcome.headers['content-type'] ?? '(no content-type)'} ${JSON.stringify(text)}${outcome.bodyError ? ` [body error: ${outcome.bodyError}]` : ''}`;
}

/**
 * Checks one answer against the expectation (`predict`).
 *
 * @throws {OracleError} naming the request, what the model expected and why, and what came back.
 */
export function check(req: FuzzRequest, seen: Seen, e: Expectation, outcome: Outcome): void {
  const fail = (problem: string): never => {
    throw new OracleError(
      `${problem}\n  request: ${describeRequest(req)}\n  seen by the simulator: ${JSON.stringify(short(seen.path, 120))} ? ${JSON.stringify(short(seen.query, 120))}\n  expected: ${[...e.statuses].join('|') || 'no answer'}${e.networkError ? ' or a network error' : ''} (${e.why.join('; ')})\n  got: ${describeOutcome(outcome)}`,
    );
  };
  if (outcome.kind === 'timeout') return fail(`no complete answer within ${REQUEST_TIMEOUT_MS} ms`);
  if (outcome.kind === 'network') {
    if (!e.networkError) fail('network error without an answer');
    return;
  }
  const { status, headers, body } = outcome;
  const type = headers['content-type'];
  if (!e.statuses.has(status)) fail(`status ${status} is not one the documented behavior allows`);
  if (outcome.bodyError && !(e.truncatedAudio && status === 200)) fail('the body could not be read to the end');
  const raw = e.raw.find((r) => r.status === status && r.contentType === type);
  if (status === 405 && e.allow !== undefined && headers.allow !== e.allow) fail(`Allow ${JSON.stringify(headers.allow)}, expected ${e.allow}`);
  if (req.method === 'HEAD') {
    if (body.byteLength !== 0) fail('a HEAD answer with a body');
    if (status !== 200 && type !== 'application/json' && !raw) fail(`error content type ${type}`);
    return;
  }
  if (status === 200 && e.index) {
    let index: unknown;
    try {
      index = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      index = undefined;
    }
    if (type !== 'application/json' || !isObject(index) || !Array.isArray(index.operations)) fail('an index that is not JSON with "operations"');
    return;
  }
  if (status === 200) {
    checkSuccess(e, outcome, fail);
    return;
  }
  if (raw) {
    if (Buffer.from(body).toString('utf8') !== raw.body) fail(`a raw ${status} answer whose body is not the scenario's`);
    return;
  }
  if (type !== 'application/json') fail(`error with content type ${JSON.stringify(type)}, expected application/json`);
  let envelope: unknown;
  try {
    envelope = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return fail('error body is not JSON');
  }
  if (!isObject(envelope) || !isObject(envelope.error)) return fail('error body is not {"error": {...}}');
  const extra = Object.keys(envelope).filter((k) => k !== 'error' && k !== 'user_id');
  if (extra.length) fail(`unexpected top-level keys ${extra.join(', ')}`);
  if (envelope.user_id !== undefined && envelope.user_id !== null && typeof envelope.user_id !== 'string') fail('user_id is not a string or null');
  const { code, message, metadata } = envelope.error;
  if (typeof code !== 'number' || !Number.isInteger(code) || code !== status) fail(`error.code ${JSON.stringify(code)} is not the integer status ${status}`);
  if (typeof message !== 'string' || message.trim() === '') fail('error.message is not a non-empty string');
  if (STACK.test(message as string)) fail('error.message carries a stack trace');
  if (metadata !== null && !isObject(metadata)) fail('error.metadata is not an object or null');
  const prefixes = e.messagePrefixes ?? [];
  if (status === 400 && prefixes.length && !prefixes.some((p) => (message as string).startsWith(`${p}: `))) fail(`the 400's message names none of ${prefixes.join(', ')}`);
}

/** The part of {@link check} for a 200: content type and body shape per operation. */
function checkSuccess(e: Expectation, outcome: Extract<Outcome, { kind: 'response' }>, fail: (problem: string) => never): void {
  const { headers, body } = outcome;
  const type = headers['content-type'];
  if (e.operation === 'speech') {
    const s = e.speech!;
    const expected = s.format === 'mp3' ? 'audio/mpeg' : PCM;
    if (type !== expected) fail(`speech content type ${JSON.stringify(type)}, expected ${expected}`);
    if (!GEN_ID.test(headers['x-generation-id'] ?? '')) fail(`X-Generation-Id ${JSON.stringify(headers['x-generation-id'])}`);
    if (outcome.bodyError) return; // truncated-audio: cut on purpose
    if (body.byteLength === 0) fail('empty audio');
    // Length follows ~15 characters a second divided by speed, at least 0.1 s for each piece (each turn is said on
    // its own, one after the other); at least one MP3 frame of silence.
    const seconds = s.pieces.reduce((sum, characters) => sum + Math.max(characters / 15 / s.speed, 0.1), 0);
    const characters = s.pieces.reduce((sum, n) => sum + n, 0);
    if (s.format === 'pcm') {
      if (body.byteLength % 2 !== 0) fail('PCM with an odd number of bytes');
      const samples = body.byteLength / 2;
      if (samples < 576 || samples > 24_000 * seconds * 1.1 + 2_400 * s.pieces.length) fail(`PCM of ${samples} samples for ${characters} characters in ${s.pieces.length} piece(s) at speed ${s.speed}`);
    } else {
      const sync = body[0] === 0xff && (body[1]! & 0xe0) === 0xe0;
      const id3 = body[0] === 0x49 && body[1] === 0x44 && body[2] === 0x33;
      if (!sync && !id3) fail('MP3 that starts with neither a frame sync nor ID3');
      // 24 kHz mono MPEG-2 layer III: well under 64 kbit/s.
      if (body.byteLength > 8_000 * (seconds * 1.1 + 0.5) + 2_000 * s.pieces.length) fail(`MP3 of ${body.byteLength} bytes for ${characters} characters in ${s.pieces.length} piece(s) at speed ${s.speed}`);
    }
    return;
  }
  if (type !== 'application/json') fail(`lookup content type ${JSON.stringify(type)}`);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return fail('a 200 lookup whose body is not JSON');
  }
  if (e.discovery) return checkDiscovery(e.discovery, value, fail);
  const data = isObject(value) && isObject(value.data) ? value.data : fail('a 200 lookup without {"data": {...}}');
  const wanted = e.operation === 'model' ? e.modelId : e.generationId;
  if (data.id !== wanted) fail(`data.id ${JSON.stringify(data.id)}, expected ${JSON.stringify(wanted)}`);
}

/** Statuses the standalone server's HTTP layer answers itself, before the gateway (so not journaled). */
const HTTP_LAYER_STATUSES = new Set([400, 408, 413, 414, 431]);

/**
 * Every answered API request has exactly one journal entry (`src/core/journal/journal.ts`), with its status and the
 * credentials redacted. Only the standalone server's HTTP layer (malformed requests, heads over 16 KiB, bodies
 * over 1 MiB) answers without reaching the gateway.
 *
 * @param e the reference model's expectation (an index answer is not journaled).
 * @param lastSeq the journal's last sequence number before the request was sent.
 * @throws {OracleError} naming the request, the answer and the entry.
 */
export function checkJournal(req: FuzzRequest, e: Expectation, mode: 'msw' | 'server', outcome: Outcome, gateway: Gateway, lastSeq: number): void {
  if (outcome.kind !== 'response') return;
  const entry = gateway.journal.last();
  const added = entry && entry.seq > lastSeq ? entry.seq - lastSeq : 0;
  const fail = (problem: string): never => {
    throw new OracleError(`journal: ${problem}\n  request: ${describeRequest(req)}\n  got: ${describeOutcome(outcome)}\n  entry: ${JSON.stringify(entry ? { ...entry, body: undefined } : null)}`);
  };
  if (e.index && outcome.status === 200) {
    if (added !== 0) fail('the index was journaled');
    return;
  }
  if (added === 0) {
    if (mode === 'server' && HTTP_LAYER_STATUSES.has(outcome.status)) return;
    fail('no journal entry for an answered request');
  }
  if (added > 1) fail(`${added} journal entries for one request`);
  if (entry!.status !== outcome.status) fail(`journal status ${entry!.status} but the answer was ${outcome.status}`);
  const auth = entry!.headers.authorization;
  if (auth !== undefined && auth !== 'Bearer [redacted]' && auth !== '[redacted]') fail(`authorization not redacted: ${JSON.stringify(auth)}`);
}
