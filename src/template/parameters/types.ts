import type { Json } from '../../util/json.js';

export type ParameterType = 'string' | 'number' | 'json' | 'comma_delimited_list' | 'boolean';

export const PARAMETER_TYPES: readonly ParameterType[] = [
  'string',
  'number',
  'json',
  'comma_delimited_list',
  'boolean',
];

export type ConstraintKind =
  'length' | 'range' | 'modulo' | 'allowed_values' | 'allowed_pattern' | 'custom_constraint';

/** One entry of a parameter's `constraints` list; only the fields of its `kind` are set. */
export interface Constraint {
  kind: ConstraintKind;
  /** Replaces the generated message when a value fails the constraint. */
  description?: string;
  /** `length` / `range` bounds (either may be absent). */
  min?: number;
  max?: number;
  /** `modulo`: the value must satisfy `value mod step == offset`. */
  step?: number;
  offset?: number;
  /** `allowed_values`, as written in the template. */
  values?: Json[];
  /** `allowed_pattern`, a Python regular expression. */
  pattern?: string;
  /** `custom_constraint` name, e.g. `nova.flavor`. */
  name?: string;
}

export interface ParameterSchema {
  name: string;
  type: ParameterType;
  description?: string;
  label?: string;
  /** The default exactly as written (not coerced); validate output shows it like that. */
  default?: Json;
  /** False when `default` is absent or null: Heat treats a null default as "no default". */
  hasDefault: boolean;
  hidden: boolean;
  immutable: boolean;
  tags?: string[];
  constraints: Constraint[];
}

/** The part of a template version that parameter parsing depends on. */
export interface ParameterVersion {
  readonly date: string;
  readonly parameterKeys: readonly string[];
  readonly constraintKeys: readonly string[];
}

/** Keys that appeared in a later version than the first: named in errors so users know what to upgrade to. */
export const KEY_INTRODUCED_IN: Readonly<Record<string, string>> = {
  tags: '2018-03-02',
  modulo: '2017-02-24',
};

/**
 * Checks a value against one custom constraint: undefined when valid, otherwise the reason
 * ('' when there is nothing to add to "Error validating value ..."). Validators are synchronous;
 * a cloud plugin that needs remote data fetches it before validation (e.g. the flavor list) and
 * installs a validator that closes over it.
 */
export type CustomConstraintValidator = (value: Json) => string | undefined;
