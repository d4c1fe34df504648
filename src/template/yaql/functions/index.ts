import { BRANCHING_FUNCTIONS } from './branching.js';
import { COLLECTION_FUNCTIONS } from './collections.js';
import { CORE_FUNCTIONS } from './core.js';
import { DATETIME_FUNCTIONS } from './datetime.js';
import { DICT_FUNCTIONS } from './dicts.js';
import { GENERATOR_FUNCTIONS } from './generators.js';
import { LIST_FUNCTIONS } from './lists.js';
import { MATH_FUNCTIONS } from './math.js';
import { QUERY_FUNCTIONS } from './queries.js';
import { REGEX_FUNCTIONS } from './regex.js';
import { SET_FUNCTIONS } from './sets.js';
import { STRING_FUNCTIONS } from './strings.js';
import { SYSTEM_FUNCTIONS } from './system.js';
import type { FunctionDef } from './types.js';

/**
 * Every function an expression can call, by name. A Map, so that a name such as "constructor" or
 * "__proto__" is simply unknown. `x.f(a)` and `f(x, a)` are the same call.
 */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(
  [
    ...CORE_FUNCTIONS,
    ...LIST_FUNCTIONS,
    ...COLLECTION_FUNCTIONS,
    ...BRANCHING_FUNCTIONS,
    ...QUERY_FUNCTIONS,
    ...GENERATOR_FUNCTIONS,
    ...DICT_FUNCTIONS,
    ...SET_FUNCTIONS,
    ...STRING_FUNCTIONS,
    ...REGEX_FUNCTIONS,
    ...MATH_FUNCTIONS,
    ...DATETIME_FUNCTIONS,
    ...SYSTEM_FUNCTIONS,
  ].map((def) => [def.name, def]),
);
