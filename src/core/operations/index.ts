/**
 * The operations by name: one file per operation, each a function of an `OperationCall`.
 *
 * @module
 */
import type { Operation } from '../http/routes.js';
import type { OperationHandler } from './call.js';
import { getCredits } from './credits.js';
import { listEndpoints } from './endpoints.js';
import { getGeneration } from './generation.js';
import { getCurrentKey } from './key.js';
import { getModel } from './model.js';
import { getModels } from './models.js';
import { listModelsCount } from './models-count.js';
import { createSpeech } from './speech.js';

/** The handler of each operation of `ROUTES` (`src/core/http/routes.ts`). */
export const OPERATION_HANDLERS: Readonly<Record<Operation, OperationHandler>> = {
  speech: createSpeech,
  model: getModel,
  generation: getGeneration,
  models: getModels,
  'models-count': listModelsCount,
  endpoints: listEndpoints,
  key: getCurrentKey,
  credits: getCredits,
};
