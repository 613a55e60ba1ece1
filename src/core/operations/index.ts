/**
 * The operations by name: one file per operation, each a function of an `OperationCall`.
 *
 * @module
 */
import type { Operation } from '../routes.js';
import type { OperationHandler } from './call.js';
import { getGeneration } from './generation.js';
import { getModel } from './model.js';
import { createSpeech } from './speech.js';

/** The handler of each operation of `ROUTES` (`src/core/routes.ts`). */
export const OPERATION_HANDLERS: Readonly<Record<Operation, OperationHandler>> = {
  speech: createSpeech,
  model: getModel,
  generation: getGeneration,
};
