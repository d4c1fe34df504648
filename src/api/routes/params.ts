import { Type } from '@sinclair/typebox';
import { badRequest } from '../errors.js';

/** `/stacks/{stack_name}/{stack_id}`. */
export const StackParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String(),
});

/** `/stacks/{stack_name}/{stack_id}/resources/{resource_name}`. */
export const ResourceParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String(),
  resource_name: Type.String(),
});

/** A filter given once or repeated (`?status=A&status=B`): a list either way. */
export const Strings = Type.Array(Type.String());

/** Heat's extract_bool (oslo's strict bool_from_string): what clients send, `True` included. */
export function boolParam(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (['1', 't', 'true', 'on', 'y', 'yes'].includes(text)) return true;
  if (['0', 'f', 'false', 'off', 'n', 'no'].includes(text)) return false;
  throw badRequest(`${name} must be a boolean (true or false), got "${String(value)}"`);
}

/** Refuses query parameters a route does not know, naming them (Heat's resource list does). */
export function refuseUnknown(query: object, known: readonly string[]): void {
  const unknown = Object.keys(query).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw badRequest(`Invalid filter parameters ${unknown.join(', ')}`);
}
