import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../errors.js';
import { MAX_VERSION, MIN_VERSION } from './types.js';

/** What Cinder's routes read from a request: its microversion, body parts, the caller's rights. */

/** The path parameters of a route on one object of a project. */
export type Params = { project_id: string; id: string };

const versions = new WeakMap<FastifyRequest, number>();

/** A microversion as a comparable number: 3.9 < 3.10 (minor in the low 1000). */
function versionNumber(text: string): number | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(text);
  return m ? Number(m[1]) * 1000 + Number(m[2]) : undefined;
}
export const v = (text: string) => versionNumber(text)!;

/**
 * Reads `OpenStack-API-Version: volume X` (default the minimum, `latest` the maximum); 400 when
 * malformed, 406 when out of range, as Cinder answers.
 */
export function negotiate(request: FastifyRequest): string {
  const header = request.headers['openstack-api-version'];
  const text = Array.isArray(header) ? header.join(',') : header;
  let wanted = MIN_VERSION;
  if (text) {
    const ours = text
      .split(',')
      .map((part) => part.trim().split(/\s+/))
      .find(([service]) => service?.toLowerCase() === 'volume');
    if (ours?.[1]) wanted = ours[1] === 'latest' ? MAX_VERSION : ours[1];
  }
  const n = versionNumber(wanted);
  if (n === undefined)
    throw badRequest(
      `API Version String ${wanted} is of invalid format. Must be of format MajorNum.MinorNum.`,
    );
  if (n < v(MIN_VERSION) || n > v(MAX_VERSION)) {
    throw new ApiError(
      406,
      `Version ${wanted} is not supported by the API. Minimum is ${MIN_VERSION} and maximum is ${MAX_VERSION}.`,
    );
  }
  versions.set(request, n);
  return wanted;
}

/** Whether the request's microversion is at least `min`. */
export function atLeast(request: FastifyRequest, min: string): boolean {
  return (versions.get(request) ?? v(MIN_VERSION)) >= v(min);
}

export const isAdmin = (request: FastifyRequest) => request.caller.roles.includes('admin');

type Body = Record<string, unknown>;
const isObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request body's `key` object (`{"volume": {...}}`); 400 when it is missing. */
export function bodyPart(body: unknown, key: string): Body {
  const part = isObject(body) ? body[key] : undefined;
  if (!isObject(part)) throw badRequest(`Missing required element '${key}' in request body.`);
  return part;
}

/** An optional string field (null allowed), at most `max` characters. */
export function optionalText(body: Body, key: string, max = 255): string | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string')
    throw invalidField(key, value, `${JSON.stringify(value)} is not of type 'string'`);
  if (value.length > max) throw invalidField(key, value, `'${value}' is too long`);
  return value;
}

/** A metadata object: string keys (1..255) to string values (at most 255). */
export function metadataField(value: unknown, key = 'metadata'): Record<string, string> {
  if (!isObject(value)) throw invalidField(key, value, `${JSON.stringify(value)} is not of type 'object'`);
  for (const [k, val] of Object.entries(value)) {
    if (k.length === 0 || k.length > 255)
      throw invalidField(key, value, `metadata key '${k}' must be 1 to 255 characters`);
    if (typeof val !== 'string')
      throw invalidField(key, value, `${JSON.stringify(val)} is not of type 'string'`);
    if (val.length > 255) throw invalidField(key, value, `'${val}' is too long`);
  }
  return { ...(value as Record<string, string>) };
}

/** A positive integer (Cinder accepts `"2"` too). */
export function positiveInteger(value: unknown, key: string): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw invalidField(key, value, `${JSON.stringify(value)} is not a valid integer`);
  }
  if (n < 1) throw invalidField(key, value, `${n} is less than the minimum of 1`);
  return n;
}

/** A boolean as Cinder's actions take it: true/false or their strings. */
export function booleanField(value: unknown, key: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (['true', '1', 'yes', 'on', 't', 'y'].includes(lower)) return true;
    if (['false', '0', 'no', 'off', 'f', 'n'].includes(lower)) return false;
  }
  throw badRequest(`Invalid input received: ${key} must be a boolean, not ${JSON.stringify(value)}.`);
}

function invalidField(key: string, value: unknown, reason: string): ApiError {
  return badRequest(`Invalid input for field/attribute ${key}. Value: ${JSON.stringify(value)}. ${reason}`);
}
