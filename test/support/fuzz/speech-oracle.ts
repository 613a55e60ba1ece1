/**
 * The reference model of a speech request body (`createAudioSpeech`; docs/api.md "Speech" and docs/behaviour.md
 * "Speech", "Reference clips and images", "Data policy", "Speed"): which status it gets, and what audio a 200
 * carries. Restated from the documentation and the fixtures, apart from `src/`, in the gateway's order: the body's
 * fields, then the checks across fields (`input_references` order, `@AudioN`), then the model, then what the model
 * takes (voice, format, references, turns, length, speed), then the data policy (404), then billing (`:free`: 429).
 *
 * @module
 */
import { MAX_BODY_BYTES } from '../../../src/core/http/request.js';
import { speechModelOf, type SpeechModel } from './fixtures.js';
import { isObject } from './request.js';

/** What a speech 200 must carry: its format, the code points of each piece said (one per turn) and the speed. */
export interface SpeechAudioExpectation {
  format: 'mp3' | 'pcm';
  /** Code points of what is said, in pieces: the string input, or each turn's text (each rendered on its own). */
  pieces: number[];
  speed: number;
}

/** The statuses a speech body may get, and the audio of a 200. */
export interface SpeechOutcome {
  statuses: Set<number>;
  speech?: SpeechAudioExpectation | undefined;
}

/** Longest `input_audio.data` and `image_url.url` of a reference, UTF-16 units (20 MiB). */
const MAX_REFERENCE_CHARS = 20_971_520;
/** Longest `text` part of `input_references`. */
const MAX_REFERENCE_TEXT = 10_000;
/** Most reference clips (`input_audio` parts). */
const MAX_CLIPS = 3;
/** Longest `session_id`. */
const MAX_SESSION_ID = 256;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const has = (o: Record<string, unknown>, key: string) => Object.hasOwn(o, key);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
/** `key` is absent from `o`, or its value passes `ok`. */
const optional = (o: Record<string, unknown>, key: string, ok: (v: unknown) => boolean) => !has(o, key) || ok(o[key]);

/** A turn of a multi-speaker input: `{text: non-empty, voice?: non-empty, instructions?: string}`, other keys ignored. */
function isTurn(turn: unknown): turn is { text: string; voice?: string } {
  return isObject(turn) && nonEmpty(turn.text) && optional(turn, 'voice', nonEmpty) && optional(turn, 'instructions', (v) => typeof v === 'string');
}

/** `input`: a non-empty string, or a non-empty list of turns. */
const isInput = (v: unknown) => nonEmpty(v) || (Array.isArray(v) && v.length > 0 && v.every(isTurn));

/**
 * One part of `input_references`: a clip `{type: input_audio, input_audio: {data: 1 to 20 MiB of characters,
 * format?: string}}`, a transcript `{type: text, text: at most 10,000 characters}`, or an image `{type: image_url,
 * image_url: {url: a data URL of an image, at most 20 MiB}}`.
 */
function isReference(part: unknown): boolean {
  if (!isObject(part)) return false;
  if (part.type === 'text') return typeof part.text === 'string' && part.text.length <= MAX_REFERENCE_TEXT;
  if (part.type === 'image_url') {
    const image = part.image_url;
    return isObject(image) && typeof image.url === 'string' && image.url.length <= MAX_REFERENCE_CHARS && /^data:image\/[a-z0-9.+-]+;base64,/i.test(image.url);
  }
  if (part.type !== 'input_audio' || !isObject(part.input_audio)) return false;
  const clip = part.input_audio;
  return typeof clip.data === 'string' && clip.data.length >= 1 && clip.data.length <= MAX_REFERENCE_CHARS && optional(clip, 'format', (v) => typeof v === 'string');
}

/** `provider`: an object; `options` an object, `zdr` a boolean or null, `data_collection` allow, deny or null. */
function isProvider(v: unknown): boolean {
  return (
    isObject(v) &&
    optional(v, 'options', isObject) &&
    optional(v, 'zdr', (z) => z === null || typeof z === 'boolean') &&
    optional(v, 'data_collection', (d) => d === null || d === 'allow' || d === 'deny')
  );
}

/** Why the body's fields are not of their documented shapes, or `undefined` when they are. */
function fieldRefusal(body: Record<string, unknown>): string | undefined {
  if (!nonEmpty(body.model)) return 'model: a non-empty string';
  if (!isInput(body.input)) return 'input: a non-empty string or a non-empty list of turns {text, voice?, instructions?}';
  if (!optional(body, 'voice', (v) => typeof v === 'string')) return 'voice: a string when present';
  if (!optional(body, 'response_format', (v) => v === 'mp3' || v === 'pcm')) return 'response_format: mp3 or pcm';
  if (!optional(body, 'speed', (v) => typeof v === 'number' && Number.isFinite(v))) return 'speed: a finite number';
  if (!optional(body, 'provider', isProvider)) return 'provider: an object (options an object, zdr a boolean or null, data_collection allow, deny or null)';
  if (!optional(body, 'session_id', (v) => typeof v === 'string' && v.length <= MAX_SESSION_ID)) return 'session_id: a string of at most 256 characters';
  if (!optional(body, 'user', (v) => typeof v === 'string')) return 'user: a string';
  if (!optional(body, 'instructions', (v) => typeof v === 'string')) return 'instructions: a string';
  if (!optional(body, 'input_references', (v) => Array.isArray(v) && v.every(isReference))) return 'input_references: an array of reference parts';
  return undefined;
}

/** The texts of the input: the string, or each turn's text. */
const textsOf = (input: unknown): string[] => (typeof input === 'string' ? [input] : (input as { text: string }[]).map((turn) => turn.text));

/**
 * Why the fields do not fit together, or `undefined`: an image must be the only reference; at most 3 clips; a
 * transcript (`text` part) directly after a clip; every `@AudioN` of the input's texts with 1 ≤ N ≤ the clips.
 */
function crossFieldRefusal(body: Record<string, unknown>): string | undefined {
  const parts = (body.input_references as { type: string }[] | undefined) ?? [];
  const clips = parts.filter((part) => part.type === 'input_audio').length;
  if (parts.some((part) => part.type === 'image_url') && parts.length > 1) return 'input_references: an image_url part must be the only part';
  if (clips > MAX_CLIPS) return 'input_references: at most 3 input_audio parts';
  if (parts.some((part, i) => part.type === 'text' && parts[i - 1]?.type !== 'input_audio')) return 'input_references: a text part must directly follow an input_audio part';
  for (const text of textsOf(body.input)) {
    for (const [, digits] of text.matchAll(/@Audio(\d+)/g)) {
      const n = Number(digits);
      if (n < 1 || n > clips) return `@Audio${digits} with ${clips} clip(s)`;
    }
  }
  return undefined;
}

/** Why the model refuses the body (a 400), or `undefined`: in order, the voice, the format, the references, the turns, the length, the speed. */
function modelRefusal(body: Record<string, unknown>, model: SpeechModel): string | undefined {
  const voice = body.voice as string | undefined;
  if (voice === undefined || voice === '') return 'voice: missing or empty (required once the model is known)';
  if (model.voices !== null && !model.voices.includes(voice)) return 'voice not supported by the model';
  if (!model.formats.includes((body.response_format as string | undefined) ?? 'pcm')) return 'format not supported by the model';
  const parts = (body.input_references as { type: string }[] | undefined) ?? [];
  if (parts.some((part) => part.type === 'image_url') && !model.inputs.includes('image')) return 'input_references: an image to a model without image input';
  if (parts.some((part) => part.type === 'input_audio') && !model.inputs.includes('audio')) return 'input_references: clips to a model without audio input';
  if (Array.isArray(body.input)) {
    if (!model.multiSpeaker) return 'input: turns to a model without multi-speaker input';
    const turns = body.input as { voice?: string }[];
    if (model.voices !== null && turns.some((turn) => turn.voice !== undefined && !model.voices!.includes(turn.voice))) return "a turn's voice the model does not list";
  }
  const characters = textsOf(body.input).reduce((sum, text) => sum + [...text].length, 0);
  if (characters > model.maxChars) return `input of ${characters} code points over the model limit of ${model.maxChars}`;
  if (has(body, 'speed')) {
    const speed = body.speed as number;
    if (model.speed && (speed < model.speed.min || speed > model.speed.max)) return `speed out of ${model.speed.min}..${model.speed.max}`;
    if (!model.speed && model.speedRefusal && speed !== 1) return 'speed other than 1 on a model that refuses it';
  }
  return undefined;
}

/** Why no provider of the model meets the body's data policy (a 404), or `undefined` when one does or none is asked. */
function policyRefusal(body: Record<string, unknown>, model: SpeechModel): string | undefined {
  const provider = (body.provider as Record<string, unknown> | undefined) ?? {};
  const zdr = provider.zdr === true;
  const deny = provider.data_collection === 'deny';
  if (!zdr && !deny) return undefined;
  const met = model.policies.some((policy) => (!zdr || policy.zdr) && (!deny || !policy.training));
  return met ? undefined : `no provider meets ${[zdr ? 'zdr' : '', deny ? 'data_collection deny' : ''].filter(Boolean).join(' and ')}`;
}

/** The documented outcome of a speech body: statuses, and the audio a 200 carries. */
export function speechOutcome(bytes: Uint8Array | undefined, why: string[]): SpeechOutcome {
  const no = (status: number, reason: string): SpeechOutcome => {
    why.push(reason);
    return { statuses: new Set([status]) };
  };
  if (bytes && bytes.byteLength > MAX_BODY_BYTES) return no(413, 'body over 1 MiB');
  if (!bytes || bytes.byteLength === 0) return no(400, 'no body');
  let body: unknown;
  try {
    body = JSON.parse(strictUtf8.decode(bytes));
  } catch {
    return no(400, 'not UTF-8 JSON');
  }
  if (!isObject(body)) return no(400, 'not a JSON object');
  const refusal = fieldRefusal(body) ?? crossFieldRefusal(body);
  if (refusal) return no(400, refusal);
  const found = speechModelOf(body.model as string);
  if (found === undefined) return no(400, 'unknown model');
  if (found === 'not-speech') return no(400, 'not a speech model');
  const { model, variant } = found;
  const refused = modelRefusal(body, model);
  if (refused) return no(400, refused);
  const unmet = policyRefusal(body, model);
  if (unmet) return no(404, unmet);
  const format = ((body.response_format as string | undefined) ?? 'pcm') as 'mp3' | 'pcm';
  const speed = model.speed && has(body, 'speed') ? (body.speed as number) : 1;
  const pieces = textsOf(body.input).map((text) => [...text].length);
  why.push(`valid speech${Array.isArray(body.input) ? ` (${pieces.length} turns)` : ''}${variant === 'free' ? ', :free (20 a minute)' : ''}`);
  return { statuses: new Set(variant === 'free' ? [200, 429] : [200]), speech: { format, pieces, speed } };
}
