import assert from 'node:assert/strict';
import { evaluateYaql, YaqlError } from '../../src/template/yaql/index.js';

type Limits = Parameters<typeof evaluateYaql>[2];

/** A yaql expression's value, with no data ($ is null), under `limits` (the defaults if none). */
export function y(expression: string, limits: Limits = {}): unknown {
  return evaluateYaql(expression, null, limits);
}

/** The expression fails with a YaqlError whose message matches. */
export function fails(expression: string, message: RegExp, limits: Limits = {}): void {
  assert.throws(
    () => y(expression, limits),
    (error: unknown) => error instanceof YaqlError && message.test(error.message),
  );
}
