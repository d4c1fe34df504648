import { parseBoolean } from '../../template/parameters/index.js';
import { badRequest } from '../errors.js';

/**
 * A boolean query parameter as Heat reads one: heatclient sends Python's `True`/`False`, which
 * Fastify's own coercion refuses; `true`, `1`, `yes` ... are taken too. Absent is false.
 */
export function queryBool(value: string | undefined, name: string): boolean {
  if (value === undefined) return false;
  const parsed = parseBoolean(value);
  if (parsed === undefined) {
    throw badRequest(`Unrecognized value "${value}" for "${name}": expected true or false`);
  }
  return parsed;
}
