import type { Engine } from '../engine/engine.js';
import { OperationError } from '../engine/core/errors.js';
import { signalResource } from '../engine/operations/signal.js';
import { isPlainObject, type JsonObject, typeName } from '../util/json.js';
import { badRequest, HttpError } from './errors.js';

/**
 * Queues a signal whose details are a request's body (none, or a JSON object), as Heat's signal
 * routes take one: a type that handles no signals is Heat's ResourceActionNotSupported.
 */
export async function acceptSignal(
  engine: Engine,
  stackId: string,
  resourceName: string,
  body: unknown,
): Promise<void> {
  const details = body ?? null;
  if (details !== null && !isPlainObject(details)) {
    throw badRequest(`The signal's details must be a JSON object, not a ${typeName(details)}`);
  }
  try {
    await signalResource(engine.deps, stackId, resourceName, details as JsonObject | null);
  } catch (err) {
    if (err instanceof OperationError && err.code === 'invalid') {
      throw new HttpError(400, 'ResourceActionNotSupported', err.message);
    }
    throw err;
  }
}
