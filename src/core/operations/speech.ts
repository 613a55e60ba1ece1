/**
 * `POST /api/v1/audio/speech`: the gateway's OpenAPI operation `createAudioSpeech` (`docs/behaviour.md`, "Speech").
 *
 * @module
 */
import * as z from 'zod';
import { GatewayError } from '../base/error-envelope.js';
import { buildSpeechGeneration, readinessDelay, speechCost } from '../generations/speech-generation.js';
import { readJsonBody } from '../http/request.js';
import { parseOrThrow } from '../http/validate-request.js';
import type { OperationAnswer, OperationCall } from './call.js';
import { SPEED_RANGE, type SpeechMode, type SpokenTurn } from '../audio/types.js';
import { turnsText } from '../audio/turns.js';
import { SPEECH_HEADER_NAME } from './speech-mode.js';
import { generationIdOf } from '../base/ids.js';
import { andThen, type MaybePromise } from '../base/types.js';
import { ChunkedBody } from '../http/body.js';
import { recordedDurationMs, speechKeyOf, type RecordedAudio } from '../formats/recording-schema.js';
import type { ResolvedModel } from '../catalog/catalog.js';
import { acceptanceOf, speechModelOf } from '../catalog/speech-models.js';
import type { GatewayContext } from './context.js';
import { chargeCall } from './charge.js';
import type { Account } from '../accounts/accounts.js';
import type { CoreRequest } from '../base/types.js';

const requiredString = (issue: { input: unknown }) =>
  issue.input === undefined ? 'required, a string' : `must be a string, got ${describe(issue.input)}`;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `number ${value}`; // JSON.stringify would say null for Infinity and NaN
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** Longest `session_id`, characters (SDK 1.3.19's `SpeechRequest.sessionId`: "Maximum of 256 characters"). */
const MAX_SESSION_ID = 256;
/** Longest `input_audio.data` of a reference, characters: 20 MiB of base64 (the OpenAPI's `SpeechInputReferenceAudioInput`). */
const MAX_REFERENCE_AUDIO_CHARS = 20_971_520;
/** Longest `text` of a reference, characters (the OpenAPI's `SpeechInputReferenceText`). */
const MAX_REFERENCE_TEXT_CHARS = 10_000;

/**
 * One part of `input_references` (the OpenAPI's `SpeechInputReference`, for stateless voice cloning): the reference
 * audio (`input_audio`: base64 `data`, optionally a data URI, and an optional `format`), or its transcript (`text`).
 */
const InputReferenceSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({
      type: z.literal('input_audio'),
      input_audio: z.looseObject(
        {
          data: z
            .string({ error: 'required, a string of base64 audio' })
            .min(1, 'must not be empty')
            .max(MAX_REFERENCE_AUDIO_CHARS, `must be at most ${MAX_REFERENCE_AUDIO_CHARS} characters (20 MiB of base64)`),
          format: z.string({ error: 'must be a string' }).optional(),
        },
        { error: 'required, an object {data, format?}' },
      ),
    }),
    z.looseObject({
      type: z.literal('text'),
      text: z.string({ error: 'required, a string' }).max(MAX_REFERENCE_TEXT_CHARS, `must be at most ${MAX_REFERENCE_TEXT_CHARS} characters`),
    }),
  ],
  {
    error: (issue) => {
      const type = issue.input !== null && typeof issue.input === 'object' ? (issue.input as { type?: unknown }).type : undefined;
      return type === undefined ? `must be an object whose type is "input_audio" or "text", got ${describe(issue.input)}` : `must be "input_audio" or "text", got ${describe(type)}`;
    },
  },
);

/**
 * One turn of a multi-speaker `input` (the gateway's `SpeechTurn`, Python SDK v1.3.27): its `text` (required), its
 * `voice` (default: the request's `voice`) and its `instructions` (override the request's).
 */
const SpeechTurnSchema = z.looseObject(
  {
    text: z.string({ error: requiredString }).min(1, 'must not be empty'),
    voice: z.string({ error: (issue) => `must be a string, got ${describe(issue.input)}` }).min(1, 'must not be empty').optional(),
    instructions: z.string({ error: (issue) => `must be a string, got ${describe(issue.input)}` }).optional(),
  },
  { error: (issue) => `must be a turn {text, voice?, instructions?}, got ${describe(issue.input)}` },
);

/**
 * The speech request body (`docs/behaviour.md`, "Speech"). Unknown fields (`session_id`, `user`, `trace`, ...)
 * are accepted and ignored, as the real gateway does.
 */
const SpeechRequestSchema = z.looseObject(
  {
    model: z.string({ error: requiredString }).min(1, 'must not be empty'),
    // A string, or a list of turns (the gateway's `SpeechInput`, "multi-speaker input").
    input: z.union([z.string().min(1, 'must not be empty'), z.array(SpeechTurnSchema).min(1, 'must hold at least one turn')], {
      error: (issue) =>
        issue.input === undefined ? 'required, a string or a list of turns' : `must be a string or a list of turns {text, voice?, instructions?}, got ${describe(issue.input)}`,
    }),
    voice: z.string({ error: requiredString }).min(1, 'must not be empty'),
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
    provider: z
      .looseObject(
        {
          options: z
            .record(z.string(), z.unknown(), { error: 'must be an object keyed by provider slug' })
            .optional(),
        },
        { error: 'must be an object' },
      )
      .optional(),
    session_id: z.string({ error: 'must be a string' }).max(MAX_SESSION_ID, `must be at most ${MAX_SESSION_ID} characters`).optional(),
    user: z.string({ error: 'must be a string' }).optional(),
    instructions: z.string({ error: (issue) => `must be a string, got ${describe(issue.input)}` }).optional(),
    input_references: z.array(InputReferenceSchema, { error: 'must be an array of reference parts' }).optional(),
  },
  { error: (issue) => `must be a JSON object, got ${describe(issue.input)}` },
);

/**
 * Synthesizes speech.
 *
 * @returns 200 with the audio streamed in chunks as it is rendered (or from the cache), `Content-Type` `audio/mpeg` or
 *   `audio/pcm;rate=24000;channels=1`, and `X-Generation-Id: gen-tts-<unix seconds>-<suffix>`; the generation
 *   record is stored for `GET /generation`; and the answer's `audio`, what was rendered (for the journal).
 * @throws {GatewayError} 400 when the body is invalid (the message names the field), the model does not exist
 *   (`Model <id> does not exist`), does not output speech, lacks the voice or the format, or the input is over
 *   the model's limit; 413 for a body over 1 MiB; 429 past the `:free` variant's 20 requests a minute; 402
 *   when the key's balance cannot pay the call's `total_cost`; 500 naming the cause for `mp3` when the MP3
 *   encoder's last load failed (not charged; a first MP3 request whose load fails while it is being answered
 *   gets its 200 and a body that ends in an error, as the status is sent before the first piece).
 *   A request whose normalized body was recorded (`ctx.recordings`) is answered by {@link answerRecorded} instead,
 *   once the body is valid.
 */
export function createSpeech({ ctx, request, account, speech: mode }: OperationCall): MaybePromise<OperationAnswer> {
  const body = parseOrThrow(SpeechRequestSchema, readJsonBody(request));
  const recorded = ctx.recordings?.get(speechKeyOf(body));
  if (recorded) return answerRecorded(ctx, request, account, body, recorded);
  const model = ctx.catalog.resolve(body.model);
  if (!model) throw new GatewayError(400, { message: `Model ${body.model} does not exist` });
  const speech = model.speech;
  if (!speech || !model.record.architecture.output_modalities.includes('speech')) {
    throw new GatewayError(400, {
      message: `Model ${body.model} does not support speech output (its output modalities are ${model.record.architecture.output_modalities.join(', ')})`,
    });
  }
  // What the speech model discovery reads list is what is accepted (src/core/catalog/speech-models.ts).
  const accepts = acceptanceOf(speechModelOf(model.record, speech, ctx.catalog.providers(model.baseId)));
  if (accepts.voices !== null && !accepts.voices.includes(body.voice)) {
    throw new GatewayError(400, {
      message: `voice: "${body.voice}" is not supported by model ${body.model}; supported voices: ${accepts.voices.join(', ')}`,
    });
  }
  if (!accepts.formats.includes(body.response_format)) {
    throw new GatewayError(400, {
      message: `response_format: ${body.response_format} is not supported by model ${body.model}; supported: ${accepts.formats.join(', ')}`,
    });
  }
  checkReferences(body, accepts.inputs);
  checkTurns(body, speech.multi_speaker === true, accepts.voices);
  const characters = charactersOf(body.input);
  if (characters > speech.max_input_chars) {
    throw new GatewayError(400, {
      message: `input: ${characters} characters is over the limit of model ${body.model} (${speech.max_input_chars} characters)`,
      metadata: { error_type: 'string_too_long' },
    });
  }
  let speed = 1;
  if (body.speed !== undefined && accepts.speed !== null) {
    if (body.speed < accepts.speed.min || body.speed > accepts.speed.max) {
      throw new GatewayError(400, {
        message: `speed: must be between ${accepts.speed.min} and ${accepts.speed.max}, got ${body.speed}`,
      });
    }
    speed = body.speed;
  }

  const unavailable = ctx.audio.unavailable(body.response_format);
  if (unavailable) {
    throw new GatewayError(500, {
      message:
        `response_format: the simulator's ${body.response_format} encoder failed to load (${unavailable.message})` +
        (speech.response_formats.includes('pcm') ? '; "pcm" still works' : ''),
    });
  }

  return andThen(engineFor(ctx, mode), () =>
    billed(ctx, { request, account, body, model, characters }, () => {
      const turns = turnsOf(body);
      const audio = ctx.audio.open({ input: spokenText(body.input), voice: body.voice, turns, speed, seed: ctx.seed, format: body.response_format, mode });
      return {
        durationMs: audio.nominalDurationMs,
        answer: (generationId) => ({
          response: { status: 200, headers: { 'Content-Type': audio.contentType, 'X-Generation-Id': generationId }, body: audio.body },
          audio: { format: body.response_format, content_type: audio.contentType, duration_ms: mode === 'words' ? null : (audio.durationMs ?? null), voice: body.voice, ...(turns ? { voices: turns.map((turn) => turn.voice) } : {}), model: body.model, speed, speech: mode },
        }),
      };
    }),
  );
}

/**
 * Waits for what `mode` renders with (the words engine, compiled once per process), before anything is charged.
 *
 * @throws {GatewayError} 400 naming `X-Mock-Speech` when words were asked for and the engine's package is missing
 *   (the gateway's option `speech` checks this at creation, so only the header gets here); 500 naming the cause when
 *   the engine failed to load.
 */
function engineFor(ctx: GatewayContext, mode: SpeechMode): MaybePromise<void> {
  if (mode !== 'words') return undefined;
  const missing = ctx.audio.wordsUnavailable();
  if (missing) throw new GatewayError(400, { message: `${SPEECH_HEADER_NAME}: ${missing}` });
  return ctx.audio.prepare(mode)?.catch((error: unknown) => {
    throw new GatewayError(500, { message: `${SPEECH_HEADER_NAME}: the simulator's words engine failed to load (${error instanceof Error ? error.message : String(error)}); tones still work` });
  });
}

/**
 * Checks `input_references` against what the model takes: at most one `input_audio` part and one `text` part, the
 * audio part required (the gateway's TTS guide), and only for a model whose input modalities include `audio`.
 *
 * @throws {GatewayError} 400 naming `input_references` and what was wrong.
 */
function checkReferences(body: SpeechRequest, inputs: readonly string[]): void {
  const parts = body.input_references;
  if (parts === undefined || parts.length === 0) return;
  const audio = parts.filter((part) => part.type === 'input_audio').length;
  const text = parts.length - audio;
  if (audio !== 1 || text > 1) {
    throw new GatewayError(400, { message: `input_references: expected one input_audio part and at most one text part, got ${audio} and ${text}` });
  }
  if (!inputs.includes('audio')) {
    throw new GatewayError(400, {
      message: `input_references: model ${body.model} does not take reference audio (its input modalities are ${inputs.join(', ')})`,
    });
  }
}

/** One turn of a multi-speaker `input` (see {@link SpeechTurnSchema}). */
type SpeechTurn = z.output<typeof SpeechTurnSchema>;

/**
 * The characters billed and checked against `max_input_chars`: of the string, or of every turn's `text` summed
 * (voices and instructions are not counted).
 */
function charactersOf(input: string | readonly SpeechTurn[]): number {
  return typeof input === 'string' ? [...input].length : input.reduce((sum, turn) => sum + [...turn.text].length, 0);
}

/** The turns to say with their voices (a turn without `voice` takes the request's), or `undefined` for a string input. */
function turnsOf(body: SpeechRequest): SpokenTurn[] | undefined {
  return typeof body.input === 'string' ? undefined : body.input.map((turn) => ({ text: turn.text, voice: turn.voice ?? body.voice }));
}

/**
 * The text the renderer says: the string itself (byte-identical to before turns existed), or the turns' texts joined
 * by a space, which the said index keeps (either mode says each turn in its own voice, `turns`).
 */
function spokenText(input: string | readonly SpeechTurn[]): string {
  return typeof input === 'string' ? input : turnsText(input);
}

/**
 * Checks a multi-speaker `input` (a list of turns): only a model that documents it takes one (`multi_speaker` of its
 * speech facts: Gemini TTS, Fish Audio models other than S1, per the gateway's `SpeechInput` page), and every turn's
 * voice must be one the model lists (a model listing none takes any).
 *
 * @throws {GatewayError} 400 naming `input` and the model when it takes no turns; 400 naming `input[i].voice`.
 */
function checkTurns(body: SpeechRequest, multiSpeaker: boolean, voices: readonly string[] | null): void {
  if (typeof body.input === 'string') return;
  if (!multiSpeaker) {
    throw new GatewayError(400, { message: `input: model ${body.model} does not take multi-speaker input (a list of turns); send a string` });
  }
  if (voices === null) return;
  body.input.forEach((turn, i) => {
    if (turn.voice !== undefined && !voices.includes(turn.voice)) {
      throw new GatewayError(400, { message: `input[${i}].voice: "${turn.voice}" is not supported by model ${body.model}; supported voices: ${voices.join(', ')}` });
    }
  });
}

/** A speech call to bill: the request, its key, its validated body, the model that answers it, its characters. */
interface BilledCall {
  readonly request: CoreRequest;
  readonly account: Account;
  readonly body: SpeechRequest;
  readonly model: ResolvedModel;
  readonly characters: number;
}

/** The audio of a billed call, opened once the call is paid: its length (ms), and its answer given its generation id. */
interface OpenedSpeech {
  readonly durationMs: number;
  answer(generationId: string): OperationAnswer;
}

/**
 * What every speech call costs and leaves, in order: the `:free` variant's limit (429), the charge of characters ×
 * `pricing.prompt` (402 when the balance cannot pay), the next generation serial, then `open()` (the audio, opened
 * only once paid), and its generation record kept (`GET /generation`, readable after `generationDelay`).
 */
function billed(ctx: GatewayContext, call: BilledCall, open: () => OpenedSpeech): MaybePromise<OperationAnswer> {
  const { account, model, characters } = call;
  const counted = chargeCall(ctx, account, model, speechCost(characters, model.record.pricing.prompt));
  return andThen(andThen(counted, () => ctx.store.nextSerial()), (serial) => {
    const opened = open();
    const generation = buildSpeechGeneration(ctx, { ...call, audioDurationMs: opened.durationMs }, generationIdOf(ctx.seed, serial));
    return andThen(ctx.generations.add(generation, Math.floor(generation.createdMs) + readinessDelay(ctx, generation.id)), () => opened.answer(generation.id));
  });
}

/** A speech request body, validated (see {@link SpeechRequestSchema}). */
type SpeechRequest = z.output<typeof SpeechRequestSchema>;

/**
 * Answers a speech request whose normalized body (`speechKeyOf`) a `fixtures` folder recorded
 * (`src/core/formats/recording-schema.ts`): 200 with the recorded bytes, streamed in chunks as rendered audio is, and
 * `Content-Type` exactly as recorded, whatever the seed. The model, voice, format and input length are not checked
 * against the catalog: the upstream answered 200 to this very request. As for any speech call, a generation is
 * made (`X-Generation-Id`, stored for `GET /generation`): when the model is in the catalog it is charged as a
 * rendered call (characters × `pricing.prompt`; 402 when the balance cannot pay; the `:free` variant's limit);
 * when it is not, nothing is charged, the generation costs 0 and names the requested model, with no provider.
 * The journal's `audio` says `recorded: true` (its audio cannot be rendered again).
 */
function answerRecorded(ctx: GatewayContext, request: CoreRequest, account: Account, body: SpeechRequest, recorded: RecordedAudio): MaybePromise<OperationAnswer> {
  const model: ResolvedModel = ctx.catalog.resolve(body.model) ?? uncataloged(body.model);
  const durationMs = recordedDurationMs(recorded.contentType, recorded.bytes);
  return billed(ctx, { request, account, body, model, characters: charactersOf(body.input) }, () => ({
    durationMs,
    answer: (generationId) => ({
      response: { status: 200, headers: { 'Content-Type': recorded.contentType, 'X-Generation-Id': generationId }, body: new ChunkedBody(recorded.bytes, undefined, durationMs) },
      audio: { format: body.response_format, content_type: recorded.contentType, duration_ms: durationMs, voice: body.voice, model: body.model, speed: body.speed ?? 1, recorded: true as const },
    }),
  }));
}

/** The stand-in for a recorded model the catalog does not have: priced 0, no provider (see {@link answerRecorded}). */
function uncataloged(id: string): ResolvedModel {
  return { record: { id, pricing: { prompt: '0', completion: '0' } } as ResolvedModel['record'], baseId: id, variant: null, speech: null, transcription: null };
}
