/**
 * `GET /api/v1/audio/speech/models`: the gateway's list of text-to-speech models with each endpoint's voices, formats
 * and speed (operation `listSpeechModels`; `docs/behaviour.md`, "Speech model discovery"), derived from the catalog's
 * speech entries (`src/core/catalog/speech-models.ts`), so a `fixtures` folder and a saved real catalog get it too.
 *
 * @module
 */
import type { Catalog } from '../catalog/catalog.js';
import { speechModelOf } from '../catalog/speech-models.js';
import type { CoreResponse } from '../base/types.js';
import type { OperationCall } from './call.js';

/** The answer's bytes per catalog, made on the first request (a catalog never changes). */
const answers = new WeakMap<Catalog, Uint8Array>();

/**
 * Lists every speech model of the catalog (a base model whose output modalities include `speech` and that has a
 * speech entry), in catalog order.
 *
 * @returns 200 `{"data": SpeechModelResponse[]}`.
 */
export function listSpeechModels({ ctx }: OperationCall): CoreResponse {
  let body = answers.get(ctx.catalog);
  if (!body) {
    const data = ctx.catalog.models().flatMap((record) => {
      const speech = ctx.catalog.speechModel(record.id);
      return speech && record.architecture.output_modalities.includes('speech') ? [speechModelOf(record, speech, ctx.catalog.providers(record.id))] : [];
    });
    body = new TextEncoder().encode(JSON.stringify({ data }));
    answers.set(ctx.catalog, body);
  }
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body };
}
