// Helpers shared by the template tests: catching a TemplateError, a recording type catalog, a
// stack-definition shortcut bound to a root file URL, and a stand-in template version for the
// parameter tests.
import assert from 'node:assert/strict';
import { TemplateError } from '../../src/template/errors.js';
import type { Value } from '../../src/template/functions/types.js';
import type { ParameterVersion } from '../../src/template/parameters/index.js';
import {
  type DefineOptions,
  defineStackFromText,
  type StackDefinition,
} from '../../src/template/stack-definition.js';
import type { ResourceTypeInfo, TypeCatalog } from '../../src/template/types.js';

/** Catches the TemplateError `run` throws (any other exception, or none, fails the test). */
export function errorOf(run: () => unknown): TemplateError {
  try {
    run();
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
  assert.fail('expected a TemplateError');
}

/**
 * A catalog with one permissive type, `Test::Thing`, whose only attribute is `out`; it records in
 * `seen` the resolved properties it is asked to validate.
 */
export function recorder(seen: Value[] = []): TypeCatalog {
  const info: ResourceTypeInfo = {
    type: 'Test::Thing',
    validateProperties: (props) => {
      seen.push(props);
    },
    hasAttribute: (name) => name === 'out',
  };
  return { get: (type) => (type === 'Test::Thing' ? info : undefined) };
}

/** Defines stacks from template text rooted at `root`, with a `recorder()` catalog unless `options` gives types. */
export function definer(root: string): (text: string, options?: DefineOptions) => StackDefinition {
  return (text, options = {}) => defineStackFromText(root, text, { types: recorder(), ...options });
}

/** A TemplateVersion-shaped object, so the parameter tests do not depend on the function catalogue. */
export function parameterVersion(date: string): ParameterVersion {
  return {
    date,
    parameterKeys: [
      'type',
      'description',
      'default',
      'schema',
      'constraints',
      'hidden',
      'label',
      'immutable',
      ...(date >= '2018-03-02' ? ['tags'] : []),
    ],
    constraintKeys: [
      'description',
      'length',
      'range',
      'allowed_values',
      'allowed_pattern',
      'custom_constraint',
      ...(date >= '2017-02-24' ? ['modulo'] : []),
    ],
  };
}
