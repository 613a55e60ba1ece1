/**
 * The shapes of the gateway's speech model discovery reads, written from its docs pages (the API reference's
 * "List text-to-speech models" and "Get a text-to-speech model", and the TypeScript SDK's model pages
 * `speechmodelslistresponse`, `speechmodelresponse`, `speechmodelendpoint`, `speechoutputmodality`,
 * `speechsupportedparameters`, `speechvoiceparameter`, `speechrangeparameter`; `docs/behaviour.md`, "Speech model
 * discovery"): wire names (snake_case), every member the pages mark required. Used by the tests and by
 * `mockrouter verify` to check both sides' answers.
 *
 * @module
 */
import * as z from 'zod';

/** `SpeechEnumParameter`: `{type: "enum", values}`. */
export const SpeechEnumParameterSchema = z.lazy(() =>
  z.looseObject({ type: z.literal('enum'), values: z.array(z.string()) }),
);
/** `SpeechUnknownParameter`: `{type: "unknown"}`. */
export const SpeechUnknownParameterSchema = z.lazy(() => z.looseObject({ type: z.literal('unknown') }));
/** `SpeechRangeParameter`: `{type: "range", min, max}`. */
export const SpeechRangeParameterSchema = z.lazy(() =>
  z.looseObject({ type: z.literal('range'), min: z.number(), max: z.number() }),
);
/**
 * `SpeechVoiceParameter`: an enum of the documented voices, or `unknown` when none are listed. A value that is
 * neither is told both forms (zod's own message says only `Invalid input`).
 */
export const SpeechVoiceParameterSchema = z.lazy(() =>
  z.union([SpeechEnumParameterSchema, SpeechUnknownParameterSchema], {
    error: 'expected {type: "enum", values} or {type: "unknown"}',
  }),
);

/** `SpeechSupportedParameters`: every member optional. */
export const SpeechSupportedParametersSchema = z.lazy(() =>
  z.looseObject({
    voice: SpeechVoiceParameterSchema.optional(),
    response_format: SpeechEnumParameterSchema.optional(),
    speed: SpeechRangeParameterSchema.optional(),
    instructions: SpeechUnknownParameterSchema.optional(),
  }),
);

/** `SpeechInputModality`: `text`, or `audio` / `image` (the `input_references` of voice cloning and design). */
export const SpeechInputModalitySchema = z.lazy(() => z.looseObject({ type: z.enum(['text', 'audio', 'image']) }));
/** `SpeechOutputModality`: `{type: "speech", supported_parameters}`. */
export const SpeechOutputModalitySchema = z.lazy(() =>
  z.looseObject({ type: z.literal('speech'), supported_parameters: SpeechSupportedParametersSchema }),
);

/** `SpeechModelEndpoint`: one endpoint serving the model, with exactly what it accepts. */
export const SpeechModelEndpointSchema = z.lazy(() =>
  z.looseObject({
    provider_name: z.string(),
    provider_slug: z.string(),
    input_modalities: z.array(SpeechInputModalitySchema),
    output_modalities: z.array(SpeechOutputModalitySchema),
  }),
);

/** `SpeechModelResponse`: the model; its members are the envelope of its endpoints'. */
export const SpeechModelResponseSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    created: z.int(),
    input_modalities: z.array(SpeechInputModalitySchema),
    output_modalities: z.array(SpeechOutputModalitySchema),
    endpoints: z.array(SpeechModelEndpointSchema),
  }),
);

/** The answer of `GET /audio/speech/models`: `{data: SpeechModelResponse[]}` (`SpeechModelsListResponse`). */
export const SpeechModelsListResponseSchema = z.lazy(() => z.looseObject({ data: z.array(SpeechModelResponseSchema) }));
/** The answer of `GET /audio/speech/models/{author}/{slug}`: `{data: SpeechModelResponse}`. */
export const SpeechModelAnswerSchema = z.lazy(() => z.looseObject({ data: SpeechModelResponseSchema }));
