import type { Json } from '../util/json.js';
import { nestedDeeperThan } from '../util/json-depth.js';
import { DEFAULT_LIMITS } from './limits.js';

/** JSON text that parsed but nests deeper than the document depth limit. */
export class TooDeepError extends Error {
  override readonly name = 'TooDeepError';
  constructor(readonly maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
  }
}

/**
 * JSON text found inside a document (a `json` parameter given as a string, Fn::Select's
 * collection) parsed and held to the document depth limit, as the document itself was: what it
 * holds is walked recursively later (constraints, hashing, storing). Invalid JSON throws
 * JSON.parse's SyntaxError; too deep, TooDeepError.
 */
export function parseJsonText(text: string, maxDepth: number = DEFAULT_LIMITS.maxDocumentDepth): Json {
  const value = JSON.parse(text) as Json;
  if (nestedDeeperThan(value, maxDepth)) throw new TooDeepError(maxDepth);
  return value;
}
