/**
 * `POST /api/v1/audio/speech`: the gateway's OpenAPI operation `createAudioSpeech` (`docs/behaviour.md`, "Speech").
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import { buildSpeechGeneration, readinessDelay, speechCost } from '../generations/speech-generation.js';
import { readJsonBody } from '../http/request.js';
import { parseOrThrow } from '../http/validate-request.js';
import type { OperationAnswer, OperationCall } from './call.js';
import type { SpeechMode } from '../audio/types.js';
import { charactersOf, SpeechRequestSchema, spokenText, turnsOf } from './speech-request.js';
import { checkSpeechRequest, type VoicedSpeechRequest } from './speech-checks.js';
import { endpointForPolicy } from '../catalog/data-policy.js';
import type { SpeechModelInfo } from '../formats/fixture-schema.js';
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

/**
 * Synthesizes speech.
 *
 * @returns 200 with the audio streamed in chunks as it is rendered (or from the cache), `Content-Type` `audio/mpeg` or
 *   `audio/pcm;rate=24000;channels=1`, and `X-Generation-Id: gen-tts-<unix seconds>-<suffix>`; the generation
 *   record is stored for `GET /generation`; and the answer's `audio`, what was rendered (for the journal).
 * @throws {GatewayError} 400 when the body is invalid (the message names the field: `speech-request.ts`), the model
 *   does not exist (`Model <id> does not exist`), does not output speech, or refuses what the body asks
 *   (`checkSpeechRequest`: the voice missing or not its own, the format, `input_references`, turns, the input's
 *   length, `speed`); 404 when no endpoint of the model meets `provider.zdr` / `provider.data_collection`
 *   (`endpointForPolicy`); 413 for a body over 1 MiB; 429 past the `:free` variant's 20 requests a minute; 402
 *   when the key's balance cannot pay the call's `total_cost`; 500 naming the cause for `mp3` when the MP3
 *   encoder's last load failed (not charged; a first MP3 request whose load fails while it is being answered
 *   gets its 200 and a body that ends in an error, as the status is sent before the first piece).
 *   A request whose normalized body was recorded (`ctx.recordings`) is answered by {@link answerRecorded} instead,
 *   once the body is valid.
 */
export function createSpeech({ ctx, request, account, speech: mode }: OperationCall): MaybePromise<OperationAnswer> {
  const parsed = parseOrThrow(SpeechRequestSchema, readJsonBody(request));
  const recorded = parsed.voice ? ctx.recordings?.get(speechKeyOf({ ...parsed, voice: parsed.voice })) : undefined;
  if (recorded) return answerRecorded(ctx, request, account, { ...parsed, voice: parsed.voice! }, recorded);
  const { model, speech } = speechModelFor(ctx, parsed.model);
  const providers = ctx.catalog.providers(model.baseId);
  // What the speech model discovery reads list is what is accepted (src/core/catalog/speech-models.ts).
  const { body, characters, speed } = checkSpeechRequest(parsed, acceptanceOf(speechModelOf(model.record, speech, providers)), speech);
  const endpoint = endpointForPolicy(providers, body.provider, model.variant === 'free');
  const unavailable = ctx.audio.unavailable(body.response_format);
  if (unavailable) {
    throw new GatewayError(500, {
      message:
        `response_format: the simulator's ${body.response_format} encoder failed to load (${unavailable.message})` +
        (speech.response_formats.includes('pcm') ? '; "pcm" still works' : ''),
    });
  }

  return andThen(engineFor(ctx, mode), () =>
    billed(ctx, { request, account, body, model, characters, providerName: endpoint?.provider_name }, () => {
      const turns = turnsOf(body.input, body.voice);
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
 * The catalog's speech model for `id`.
 *
 * @throws {GatewayError} 400 `Model <id> does not exist`; 400 when the model does not output speech (naming its output
 *   modalities).
 */
function speechModelFor(ctx: GatewayContext, id: string): { model: ResolvedModel; speech: SpeechModelInfo } {
  const model = ctx.catalog.resolve(id);
  if (!model) throw new GatewayError(400, { message: `Model ${id} does not exist` });
  const outputs = model.record.architecture.output_modalities;
  if (!model.speech || !outputs.includes('speech')) {
    throw new GatewayError(400, { message: `Model ${id} does not support speech output (its output modalities are ${outputs.join(', ')})` });
  }
  return { model, speech: model.speech };
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

/** A speech call to bill: the request, its key, its validated body, the model that answers it, its characters. */
interface BilledCall {
  readonly request: CoreRequest;
  readonly account: Account;
  readonly body: VoicedSpeechRequest;
  readonly model: ResolvedModel;
  readonly characters: number;
  /** The endpoint's `provider_name` when the request's data policy chose one. */
  readonly providerName?: string | undefined;
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
function answerRecorded(ctx: GatewayContext, request: CoreRequest, account: Account, body: VoicedSpeechRequest, recorded: RecordedAudio): MaybePromise<OperationAnswer> {
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
