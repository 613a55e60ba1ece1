/**
 * The refusals of a speech request that depend on its model (`POST /api/v1/audio/speech`; `docs/behaviour.md`,
 * "Speech"): what the speech model discovery reads list for the model is what is accepted
 * (`src/core/catalog/speech-models.ts`), so a request that the list allows is never refused here.
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import type { SpeechAcceptance } from '../catalog/speech-models.js';
import type { SpeechModelInfo } from '../formats/fixture-schema.js';
import { charactersOf, referencesOf, type SpeechRequest } from './speech-request.js';

/** A speech request whose voice the model was checked to take. */
export type VoicedSpeechRequest = SpeechRequest & { readonly voice: string };

/** How a model's voices are named in a refusal: the list, or that any voice id of its provider is taken. */
function voicesNamed(model: string, voices: readonly string[] | null): string {
  return voices === null ? `model ${model} takes any voice id of its provider (it lists none)` : `supported voices: ${voices.join(', ')}`;
}

/**
 * Checks everything of `body` that depends on the model, in this order: the voice (required), `response_format`,
 * `input_references`, turns, the input's length, `speed`.
 *
 * @param body the validated body.
 * @param accepts what the model takes (`acceptanceOf`).
 * @param speech the model's speech facts (`max_input_chars`, `multi_speaker`, `speed_refusal`).
 * @returns the body with its voice known, the characters billed, and the speed to render at (1 where `speed` is
 *   ignored).
 * @throws {GatewayError} 400 naming the field: `voice` missing or empty (this simulator's contract requires it, though
 *   the SDKs' types let it be left out; the message names the model's voices) or not one of the model's;
 *   `response_format` the model lacks; `input_references` of a kind the model does not take; turns for a model without
 *   multi-speaker input, or a turn's voice it lacks; `input` over `max_input_chars` (`error_type: string_too_long`);
 *   `speed` outside the model's range, or other than 1 where the model refuses it (`speed_refusal`).
 */
export function checkSpeechRequest(body: SpeechRequest, accepts: SpeechAcceptance, speech: SpeechModelInfo): { body: VoicedSpeechRequest; characters: number; speed: number } {
  const voiced = checkVoice(body, accepts.voices);
  if (!accepts.formats.includes(body.response_format)) {
    throw new GatewayError(400, { message: `response_format: ${body.response_format} is not supported by model ${body.model}; supported: ${accepts.formats.join(', ')}` });
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
  return { body: voiced, characters, speed: speedOf(body, accepts.speed, speech.speed_refusal === true) };
}

/** The body with its voice present, non-empty and one the model takes. */
function checkVoice(body: SpeechRequest, voices: readonly string[] | null): VoicedSpeechRequest {
  const { voice } = body;
  if (voice === undefined || voice === '') {
    const said = voice === undefined ? 'required' : 'must not be empty';
    throw new GatewayError(400, { message: `voice: ${said} here (the gateway's SDKs let it be left out for a model's default voice; this simulator requires it); ${voicesNamed(body.model, voices)}` });
  }
  if (voices !== null && !voices.includes(voice)) {
    throw new GatewayError(400, { message: `voice: "${voice}" is not supported by model ${body.model}; ${voicesNamed(body.model, voices)}` });
  }
  return body as VoicedSpeechRequest;
}

/**
 * `input_references` against what the model takes: reference clips need `audio` among its input modalities (voice
 * cloning), an image needs `image` (voice design). An empty list is no reference.
 */
function checkReferences(body: SpeechRequest, inputs: readonly string[]): void {
  const { clips, image } = referencesOf(body);
  const needed = image ? 'image' : clips > 0 ? 'audio' : null;
  if (needed === null || inputs.includes(needed)) return;
  const what = needed === 'image' ? 'a reference image (voice design)' : 'reference audio (voice cloning)';
  throw new GatewayError(400, { message: `input_references: model ${body.model} does not take ${what}; its input modalities are ${inputs.join(', ')}` });
}

/**
 * A multi-speaker `input` (a list of turns): only a model that documents it takes one (`multi_speaker`), and every
 * turn's voice must be one the model lists (a model listing none takes any).
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

/**
 * The speed to render at: the request's within the model's range; 1 where the model has no speed control and ignores
 * `speed`; a refusal where it has none and refuses a value other than 1.
 */
function speedOf(body: SpeechRequest, range: SpeechAcceptance['speed'], refusal: boolean): number {
  if (body.speed === undefined) return 1;
  if (range === null) {
    if (refusal && body.speed !== 1) {
      throw new GatewayError(400, { message: `speed: model ${body.model} has no speed control and takes only the default, 1; got ${body.speed} (leave speed out)` });
    }
    return 1;
  }
  if (body.speed < range.min || body.speed > range.max) {
    throw new GatewayError(400, { message: `speed: must be between ${range.min} and ${range.max}, got ${body.speed}` });
  }
  return body.speed;
}
