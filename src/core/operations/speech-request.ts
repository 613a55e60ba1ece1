/**
 * The body of `POST /api/v1/audio/speech` (the gateway's `SpeechRequest`; `docs/behaviour.md`, "Speech"), checked on
 * its own, before the model is known: every refusal is the gateway's 400 envelope naming the field.
 *
 * Sources: `@openrouter/sdk` 1.3.19 `models/speechrequest`; the gateway's Python SDK components `speechinput`,
 * `speechturn`, `speechinputreference`, `speechrequestprovider` (v1.3.6 to v1.3.177), and the C# SDK generated from the
 * same OpenAPI document (tryAGI/OpenRouter: `SpeechRequest`, `SpeechTurn`, `SpeechInputReference`).
 *
 * @module
 */
import * as z from 'zod';
import { turnsText } from '../audio/turns.js';
import type { SpokenTurn } from '../audio/types.js';
import { SPEED_RANGE } from '../audio/types.js';
import { ProviderPreferencesSchema } from '../http/provider-preferences.js';
import { describeValue as describe } from '../base/describe-value.js';

const requiredString = (issue: { input: unknown }) =>
  issue.input === undefined ? 'required, a string' : `must be a string, got ${describe(issue.input)}`;
const optionalString = (issue: { input: unknown }) => `must be a string, got ${describe(issue.input)}`;

/** Longest `session_id`, characters (SDK 1.3.19's `SpeechRequest.sessionId`: "Maximum of 256 characters"). */
const MAX_SESSION_ID = 256;
/** Longest `input_audio.data` or `image_url.url` of a reference, characters: 20 MiB (the OpenAPI's `SpeechInputReferenceAudioInput`). */
const MAX_REFERENCE_CHARS = 20_971_520;
/** Longest `text` of a reference, characters (the OpenAPI's `SpeechInputReferenceText`). */
const MAX_REFERENCE_TEXT_CHARS = 10_000;
/** Most `input_audio` parts of `input_references` ("1 to 3 reference clips"). */
const MAX_REFERENCE_CLIPS = 3;
/** An image as a data URL, the form `image_url.url` takes for voice design. */
const IMAGE_DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,/i;

/**
 * One part of `input_references` (the OpenAPI's `SpeechInputReference`): a reference clip (`input_audio`: base64
 * `data`, optionally a data URI, and an optional `format`) for voice cloning, its transcript (`text`), or an image
 * (`image_url: {url}`, a data URL) for voice design.
 */
const InputReferenceSchema = z.lazy(() =>
  z.discriminatedUnion(
    'type',
    [
      z.looseObject({
        type: z.literal('input_audio'),
        input_audio: z.looseObject(
          {
            data: z
              .string({ error: 'required, a string of base64 audio' })
              .min(1, 'must not be empty')
              .max(MAX_REFERENCE_CHARS, `must be at most ${MAX_REFERENCE_CHARS} characters (20 MiB of base64)`),
            format: z.string({ error: 'must be a string' }).optional(),
          },
          { error: 'required, an object {data, format?}' },
        ),
      }),
      z.looseObject({
        type: z.literal('text'),
        text: z.string({ error: 'required, a string' }).max(MAX_REFERENCE_TEXT_CHARS, `must be at most ${MAX_REFERENCE_TEXT_CHARS} characters`),
      }),
      z.looseObject({
        type: z.literal('image_url'),
        image_url: z.looseObject(
          {
            url: z
              .string({ error: 'required, a data URL of an image (data:image/png;base64,...)' })
              .max(MAX_REFERENCE_CHARS, `must be at most ${MAX_REFERENCE_CHARS} characters (20 MiB)`)
              .regex(IMAGE_DATA_URL, 'must be a data URL of an image (data:image/png;base64,...)'),
          },
          { error: 'required, an object {url}' },
        ),
      }),
    ],
    {
      error: (issue) => {
        const type = issue.input !== null && typeof issue.input === 'object' ? (issue.input as { type?: unknown }).type : undefined;
        return type === undefined
          ? `must be an object whose type is "input_audio", "text" or "image_url", got ${describe(issue.input)}`
          : `must be "input_audio", "text" or "image_url", got ${describe(type)}`;
      },
    },
  ),
);

/** One part of `input_references` (see {@link InputReferenceSchema}). */
export type InputReference = z.output<typeof InputReferenceSchema>;

/**
 * One turn of a multi-speaker `input` (the gateway's `SpeechTurn`, Python SDK v1.3.27): its `text` (required), its
 * `voice` (default: the request's `voice`) and its `instructions` (override the request's).
 */
const SpeechTurnSchema = z.lazy(() =>
  z.looseObject(
    {
      text: z.string({ error: requiredString }).min(1, 'must not be empty'),
      voice: z.string({ error: optionalString }).min(1, 'must not be empty').optional(),
      instructions: z.string({ error: optionalString }).optional(),
    },
    { error: (issue) => `must be a turn {text, voice?, instructions?}, got ${describe(issue.input)}` },
  ),
);

/** One turn of a multi-speaker `input` (see {@link SpeechTurnSchema}). */
export type SpeechTurn = z.output<typeof SpeechTurnSchema>;

/**
 * The speech request body. Unknown fields (`trace`, `temperature`, ...) are accepted and ignored, as the real gateway
 * does. `voice` may be absent here: the operation refuses that once it knows the model, to name the model's voices.
 */
export const SpeechRequestSchema = z.lazy(() =>
  z
    .looseObject(
      {
        model: z.string({ error: requiredString }).min(1, 'must not be empty'),
        // A string, or a list of turns (the gateway's `SpeechInput`, "multi-speaker input").
        input: z.union([z.string().min(1, 'must not be empty'), z.array(SpeechTurnSchema).min(1, 'must hold at least one turn')], {
          error: (issue) =>
            issue.input === undefined ? 'required, a string or a list of turns' : `must be a string or a list of turns {text, voice?, instructions?}, got ${describe(issue.input)}`,
        }),
        voice: z.string({ error: optionalString }).optional(),
        response_format: z
          .enum(['mp3', 'pcm'], { error: (issue) => `must be one of mp3, pcm, got ${describe(issue.input)}` })
          .default('pcm'),
        speed: z
          .number({
            // A number too large for a double (`1e400`) is parsed as Infinity: it is out of range, not of another type.
            error: (issue) =>
              typeof issue.input === 'number' ? `must be between ${SPEED_RANGE.min} and ${SPEED_RANGE.max}, got ${issue.input}` : `must be a number, got ${describe(issue.input)}`,
          })
          .finite('must be a finite number')
          .optional(),
        provider: ProviderPreferencesSchema.optional(),
        session_id: z.string({ error: 'must be a string' }).max(MAX_SESSION_ID, `must be at most ${MAX_SESSION_ID} characters`).optional(),
        user: z.string({ error: 'must be a string' }).optional(),
        instructions: z.string({ error: optionalString }).optional(),
        input_references: z.array(InputReferenceSchema, { error: 'must be an array of reference parts' }).optional(),
      },
      { error: (issue) => `must be a JSON object, got ${describe(issue.input)}` },
    )
    .superRefine(
      (body, ctx) => {
        const parts = body.input_references ?? [];
        for (const issue of referenceOrderIssues(parts)) ctx.addIssue({ code: 'custom', ...issue });
        const clips = parts.filter((part) => part.type === 'input_audio').length;
        for (const issue of audioMentionIssues(body.input, clips)) ctx.addIssue({ code: 'custom', ...issue });
      },
      // Only over a body whose every field is valid: the checks across fields read them as their types say.
      { when: (payload) => payload.issues.length === 0 },
    ),
);

/** A speech request body, validated (see {@link SpeechRequestSchema}). */
export type SpeechRequest = z.output<typeof SpeechRequestSchema>;

/** A refusal found across fields: its message and the path it names. */
interface CrossFieldIssue {
  readonly message: string;
  readonly path: (string | number)[];
}

/**
 * The order `input_references` must have: empty (no reference); 1 to 3 `input_audio` parts, each optionally followed
 * by one `text` part (its transcript); or exactly one `image_url` part. The two modes do not mix.
 */
function referenceOrderIssues(parts: readonly InputReference[]): CrossFieldIssue[] {
  if (parts.length === 0) return [];
  const image = parts.findIndex((part) => part.type === 'image_url');
  if (image >= 0) {
    return parts.length === 1 ? [] : [{ message: `an image_url part must be the only part (voice design from one image does not mix with reference clips or text), got ${parts.length} parts`, path: ['input_references', image] }];
  }
  const clips = parts.filter((part) => part.type === 'input_audio').length;
  if (clips > MAX_REFERENCE_CLIPS) return [{ message: `must hold at most ${MAX_REFERENCE_CLIPS} input_audio parts, got ${clips}`, path: ['input_references'] }];
  const stray = parts.findIndex((part, i) => part.type === 'text' && parts[i - 1]?.type !== 'input_audio');
  if (stray >= 0) return [{ message: 'a text part must follow the input_audio part it transcribes', path: ['input_references', stray] }];
  return [];
}

/** `@AudioN` mentions in `text`, as the numbers N. */
function mentionedClips(text: string): number[] {
  return [...text.matchAll(/@Audio(\d+)/g)].map((match) => Number(match[1]));
}

/**
 * Every `@AudioN` of the input names a reference clip: N from 1 to the number of `input_audio` parts ("the Nth audio
 * part is addressable from `input` as `@AudioN`").
 */
function audioMentionIssues(input: string | readonly SpeechTurn[], clips: number): CrossFieldIssue[] {
  const texts: [string, (string | number)[]][] = typeof input === 'string' ? [[input, ['input']]] : input.map((turn, i) => [turn.text, ['input', i, 'text']]);
  for (const [text, path] of texts) {
    const missing = mentionedClips(text).find((n) => n < 1 || n > clips);
    if (missing !== undefined) {
      const held = clips === 0 ? 'input_references holds no input_audio part' : `input_references holds ${clips} input_audio part${clips === 1 ? '' : 's'}`;
      return [{ message: `@Audio${missing} names no reference clip (${held})`, path }];
    }
  }
  return [];
}

/**
 * The characters billed and checked against `max_input_chars`: of the string, or of every turn's `text` summed
 * (voices and instructions are not counted).
 */
export function charactersOf(input: string | readonly SpeechTurn[]): number {
  return typeof input === 'string' ? [...input].length : input.reduce((sum, turn) => sum + [...turn.text].length, 0);
}

/** The turns to say with their voices (a turn without `voice` takes `voice`), or `undefined` for a string input. */
export function turnsOf(input: string | readonly SpeechTurn[], voice: string): SpokenTurn[] | undefined {
  return typeof input === 'string' ? undefined : input.map((turn) => ({ text: turn.text, voice: turn.voice ?? voice }));
}

/**
 * The whole text the renderer is given: the string itself (byte-identical to before turns existed), or the turns'
 * texts joined by a space, which the said index keeps (either mode says each turn in its own voice, from `turns`;
 * `src/core/audio/turns.ts`).
 */
export function spokenText(input: string | readonly SpeechTurn[]): string {
  return typeof input === 'string' ? input : turnsText(input);
}

/** What `input_references` holds: the number of reference clips, and whether it is one image (voice design). */
export function referencesOf(body: SpeechRequest): { readonly clips: number; readonly image: boolean } {
  const parts = body.input_references ?? [];
  return { clips: parts.filter((part) => part.type === 'input_audio').length, image: parts.some((part) => part.type === 'image_url') };
}
