import type { Scope } from '../scope.js';
import { dictEntries, keyToString } from '../values.js';
import { type Call, define, type FunctionDef, type Lambda } from './types.js';

/**
 * yaql's def() and call(). Heat's yaql context has them (it leaves delegates, and so lambda(), off):
 * `def(sq, $ * $) -> [1, 2].select(sq($))`. A defined function lives in the scope def() returns,
 * under a name no `$variable` can spell.
 */

function key(name: string): string {
  return `#def:${name}`;
}

/** The def() function of that name visible in the scope, if any. */
export function userFunction(scope: Scope, name: string): Lambda | undefined {
  const value = scope.get(key(name));
  return typeof value === 'function' ? (value as Lambda) : undefined;
}

function defFn(c: Call): Scope {
  const name = c.string(0);
  if (!/^[A-Za-z_]\w*$/.test(name)) return c.fail(`invalid function name ${JSON.stringify(name)}`);
  const vars = new Map<string, unknown>();
  const scope = c.scope.child(vars);
  const body = c.lambda(1) as Lambda & { inScope?: (scope: Scope) => Lambda };
  vars.set(key(name), body.inScope ? body.inScope(scope) : body);
  return scope;
}

/** call(name, args => [], kwargs => {}): calls the function `name` with the list and dict of values. */
function callFn(c: Call): unknown {
  const name = c.string(0);
  const args = c.has(1) ? c.list(1) : [];
  const named = new Map<string, unknown>();
  if (c.has(2)) for (const [k, v] of dictEntries(c.dict(2))) named.set(keyToString(k, c.budget), v);
  return c.invoke(name, args, named);
}

export const SYSTEM_FUNCTIONS: readonly FunctionDef[] = [
  define('def', ['name', 'func:lambda'], defFn),
  define('call', ['name', 'args?', 'kwargs?'], callFn),
];
