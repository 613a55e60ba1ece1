/**
 * The operations by name: one file per operation, each a function of an `OperationCall`.
 *
 * @module
 */
import type { Operation } from '../http/routes.js';
import type { OperationHandler, ResponseHandler } from './call.js';
import { getCredits } from './credits.js';
import { listEndpoints } from './endpoints.js';
import { getGeneration } from './generation.js';
import { getCurrentKey } from './key.js';
import { getModel } from './model.js';
import { getModels } from './models.js';
import { listModelsCount } from './models-count.js';
import { createSpeech } from './speech.js';
import { createTranscription } from './transcription.js';
import { getSpeechModel } from './speech-model.js';
import { listSpeechModels } from './speech-models.js';

/**
 * `handler` as an {@link OperationHandler}: its response, and nothing besides. A response returned at once is
 * answered at once (no promise made on the way); a promise of one, as a promise.
 */
const responding =
  (handler: ResponseHandler): OperationHandler =>
  (call) => {
    const response = handler(call);
    return response instanceof Promise ? response.then((resolved) => ({ response: resolved })) : { response };
  };

/** The handler of each operation of `ROUTES` (`src/core/http/routes.ts`). */
export const OPERATION_HANDLERS: Readonly<Record<Operation, OperationHandler>> = {
  speech: createSpeech,
  transcription: createTranscription,
  model: responding(getModel),
  generation: responding(getGeneration),
  models: responding(getModels),
  'models-count': responding(listModelsCount),
  endpoints: responding(listEndpoints),
  key: responding(getCurrentKey),
  credits: responding(getCredits),
  'speech-models': responding(listSpeechModels),
  'speech-model': responding(getSpeechModel),
};
