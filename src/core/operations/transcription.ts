/**
 * `POST /api/v1/audio/transcriptions`: the gateway's OpenAPI operation `createAudioTranscriptions`, as JSON or a
 * multipart upload (`docs/transcription.md`).
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import { generationIdOf } from '../base/ids.js';
import { andThen, type CoreRequest, type MaybePromise, type TranscriptionFacts } from '../base/types.js';
import type { ResolvedModel } from '../catalog/catalog.js';
import type { TranscriptionModelInfo } from '../formats/fixture-schema.js';
import { readinessDelay } from '../generations/speech-generation.js';
import { buildTranscriptionGeneration } from '../generations/transcription-generation.js';
import { endpointForPolicy } from '../catalog/data-policy.js';
import type { Account } from '../accounts/accounts.js';
import { readTranscriptionRequest, type TranscriptionRequest } from '../transcription/request-body.js';
import { sttAnswer, usageOf, type SttUsage } from '../transcription/stt-answer.js';
import type { OperationAnswer, OperationCall } from './call.js';
import { chargeCall } from './charge.js';
import type { GatewayContext } from './context.js';
import { heardTranscript, type Heard } from './transcript-sources.js';

/** Longest transcript text a journal entry keeps, characters (a longer one is cut and ends with `…`). */
const JOURNAL_TEXT_CHARS = 2000;

/**
 * Transcribes audio.
 *
 * @returns 200 `application/json`: `{text, usage}` (with `verbose_json`: `task`, `language`, `duration`, `segments`,
 *   and `words` for word timestamps or `diarize`), `X-Generation-Id: gen-stt-<unix seconds>-<suffix>`; the generation
 *   record (`api_type: "stt"`) is stored for `GET /generation`. The text is the input of audio this simulator said,
 *   a fixture's transcript, or one drawn from the seed and the audio (`docs/transcription.md`).
 * @throws {GatewayError} 400 naming the field for an invalid body or audio (see `readTranscriptionRequest` and
 *   `heardTranscript`), an unknown model (`Model <id> does not exist`), a model that does not transcribe, or an option
 *   the model does not take (`verbose_json`, `diarize`, `keyterms`, `input_audio.url`); 413 for too much audio; 429
 *   past the `:free` variant's 20 requests a minute; 402 when the key's balance cannot pay the call's cost; 404 when
 *   no endpoint of the model meets `provider.zdr` / `provider.data_collection` (`endpointForPolicy`).
 */
export function createTranscription({ ctx, request, account }: OperationCall): MaybePromise<OperationAnswer> {
  return andThen(readTranscriptionRequest(request, ctx.decodeBase64), (body) => {
    const model = transcriptionModel(ctx, body.model);
    const info = model.transcription!;
    checkOptions(body, model, info);
    const endpoint = endpointForPolicy(ctx.catalog.providers(model.baseId), body.provider, model.variant === 'free');
    return andThen(heardTranscript(ctx, body), (heard) => answer(ctx, { request, account, body, model, providerName: endpoint?.provider_name }, heard));
  });
}

/**
 * The model of `id`, if it transcribes.
 *
 * @throws {GatewayError} 400 `Model <id> does not exist`, or naming its output modalities when it does not transcribe.
 */
function transcriptionModel(ctx: GatewayContext, id: string): ResolvedModel {
  const model = ctx.catalog.resolve(id);
  if (!model) throw new GatewayError(400, { message: `Model ${id} does not exist` });
  if (!model.transcription || !model.record.architecture.output_modalities.includes('transcription')) {
    throw new GatewayError(400, {
      message: `Model ${id} does not support transcription (its output modalities are ${model.record.architecture.output_modalities.join(', ')}); list the models that do with GET /api/v1/models?output_modalities=transcription`,
    });
  }
  return model;
}

/**
 * What the request asks of the model, checked against what it takes.
 *
 * @throws {GatewayError} 400 naming `response_format`, `diarize`, `keyterms` or `input_audio.url`.
 */
function checkOptions(body: TranscriptionRequest, model: ResolvedModel, info: TranscriptionModelInfo): void {
  const id = model.record.id;
  if (body.response_format === 'verbose_json' && info.verbose_json === false) {
    throw new GatewayError(400, { message: `response_format: verbose_json is not supported by model ${id} (only by OpenAI-compatible providers); supported: json` });
  }
  if (body.diarize === true) {
    if (body.response_format !== 'verbose_json') throw new GatewayError(400, { message: 'diarize: needs response_format "verbose_json" (speaker labels are given on words)' });
    if (info.diarization !== true) throw new GatewayError(400, { message: `diarize: model ${id} does not label speakers` });
  }
  if (body.keyterms !== undefined && body.keyterms.length > 0 && info.keyterms !== true) {
    throw new GatewayError(400, { message: `keyterms: model ${id} does not take key terms` });
  }
  if (body.audio.kind === 'url' && info.url_input !== true) {
    throw new GatewayError(400, { message: `input_audio.url: model ${id} does not take audio by URL; send the audio as base64 in input_audio.data` });
  }
}

/** The model's prices (USD) for {@link usageOf}. */
function billingOf(model: ResolvedModel, info: TranscriptionModelInfo) {
  const pricing = model.record.pricing as { prompt: string; completion: string; audio?: string };
  const free = model.variant === 'free';
  return {
    pricedBy: info.priced_by,
    perSecond: free ? 0 : Number(info.price_per_second ?? 0),
    perInputToken: Number(pricing.audio ?? pricing.prompt),
    perOutputToken: Number(pricing.completion),
  };
}

/** A transcription to answer: the request, its key, its body, its model, and the endpoint its data policy chose. */
interface TranscriptionCallInput {
  readonly request: CoreRequest;
  readonly account: Account;
  readonly body: TranscriptionRequest;
  readonly model: ResolvedModel;
  readonly providerName: string | undefined;
}

/** Bills the call (the `:free` limit, then the charge: 429 and 402), keeps its generation record, and answers. */
function answer(ctx: GatewayContext, call: TranscriptionCallInput, heard: Heard): MaybePromise<OperationAnswer> {
  const { request, account, body, model, providerName } = call;
  const { transcript } = heard;
  const usage: SttUsage = usageOf(billingOf(model, model.transcription!), transcript.seconds, transcript.text);
  const tokens = 'input_tokens' in usage ? usage : { input_tokens: 0, output_tokens: 0 };
  return andThen(chargeCall(ctx, account, model, usage.cost), () =>
    andThen(ctx.store.nextSerial(), (serial) => {
      const generation = buildTranscriptionGeneration(
        ctx.clock,
        ctx.seed,
        { request, body, model, seconds: transcript.seconds, cost: usage.cost, inputTokens: tokens.input_tokens, outputTokens: tokens.output_tokens, providerName },
        generationIdOf(ctx.seed, serial),
      );
      const granularities = body.timestamp_granularities ?? [];
      const json = sttAnswer(
        transcript,
        {
          verbose: body.response_format === 'verbose_json',
          words: granularities.includes('word'),
          diarize: body.diarize === true,
          temperature: body.temperature ?? 0,
          language: body.language ?? transcript.language ?? 'en',
        },
        usage,
      );
      return andThen(ctx.generations.add(generation, Math.floor(generation.createdMs) + readinessDelay(ctx, generation.id)), () => ({
        response: { status: 200, headers: { 'Content-Type': 'application/json', 'X-Generation-Id': generation.id }, body: JSON.stringify(json) },
        transcription: factsOf(body, heard),
        requestBody: journalBodyOf(body),
      }));
    }),
  );
}

/** What the journal keeps of the transcription (`TranscriptionFacts`). */
function factsOf(body: TranscriptionRequest, heard: Heard): TranscriptionFacts {
  const text = heard.transcript.text;
  return {
    model: body.model,
    shape: body.shape,
    format: body.audio.format ?? null,
    audio_bytes: body.audio.kind === 'bytes' ? body.audio.bytes.byteLength : null,
    audio_sha256: heard.sha256,
    duration_s: Math.round(heard.transcript.seconds * 1000) / 1000,
    source: heard.source,
    response_format: body.response_format,
    text: text.length > JOURNAL_TEXT_CHARS ? `${text.slice(0, JOURNAL_TEXT_CHARS - 1)}…` : text,
  };
}

/** The request's fields as the journal keeps them: the audio named by its size and format, never its bytes. */
function journalBodyOf(body: TranscriptionRequest): Record<string, unknown> {
  const { audio, shape, ...fields } = body;
  const described = audio.kind === 'bytes' ? { data: `<${audio.bytes.byteLength} bytes>`, format: audio.format } : { url: audio.url, format: audio.format };
  return shape === 'multipart'
    ? { ...fields, file: { name: audio.kind === 'bytes' ? (audio.name ?? null) : null, bytes: audio.kind === 'bytes' ? audio.bytes.byteLength : 0, format: audio.format } }
    : { ...fields, input_audio: described };
}
