/**
 * `GET /api/v1/audio/speech/models/{author}/{slug}`: one text-to-speech model with each endpoint's voices, formats and
 * speed (operation `getSpeechModel`; `docs/behaviour.md`, "Speech model discovery").
 *
 * @module
 */
import { speechModelOf, type SpeechModelResponse } from '../catalog/speech-models.js';
import type { Catalog } from '../catalog/catalog.js';
import { GatewayError } from '../base/error-envelope.js';
import type { CoreResponse } from '../base/types.js';
import type { OperationCall } from './call.js';
import { modelIdOfPath } from './model.js';

/**
 * The discovery answer of the speech model `id` (variants and aliases resolve as in the model lookup), or `undefined`
 * when it does not exist or does not output speech.
 */
export function speechModelAnswer(catalog: Catalog, id: string): SpeechModelResponse | undefined {
  const model = catalog.resolve(id);
  if (!model?.speech || !model.record.architecture.output_modalities.includes('speech')) return undefined;
  return speechModelOf(model.record, model.speech, catalog.providers(model.baseId));
}

/**
 * Looks up one speech model; `author` and `slug` are percent-decoded.
 *
 * @returns 200 `{"data": SpeechModelResponse}`.
 * @throws {GatewayError} 404 `Speech model <id> not found` for a model that does not exist or does not output speech;
 *   400 for broken percent-encoding.
 */
export function getSpeechModel({ ctx, params }: OperationCall): CoreResponse {
  const id = modelIdOfPath(params);
  const data = speechModelAnswer(ctx.catalog, id);
  if (!data) throw new GatewayError(404, { message: `Speech model ${id} not found` });
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data }) };
}
