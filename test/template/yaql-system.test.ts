import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fails, y } from './yaql-helpers.js';

// def() and call(), which Heat's yaql context has (delegates, and so lambda(), are off there).
// Expected values are yaql's own (its docstrings, and the Python yaql library run on the same
// expressions), except where a comment says the behaviour is Hearth's.

describe('yaql def()', () => {
  it('defines a function for the right of ->', () => {
    assert.deepEqual(y('def(sq, $ * $) -> [1, 2, 3].select(sq($))'), [1, 4, 9]);
    assert.equal(y('def(add, $1 + $2) -> add(2, 3)'), 5);
    assert.equal(y('def(greet, format("hi {0}", $name)) -> greet(name => bob)'), 'hi bob');
    // A defined function shadows the library's.
    assert.equal(y('def(len, 42) -> len([1])'), 42);
    // Hearth also takes it as a method (yaql's def() makes only functions).
    assert.equal(y('def(sq, $ * $) -> 3.sq()'), 9);
  });

  it('can recurse, within the budget', () => {
    assert.equal(y('def(fact, switch($ <= 1 => 1, true => $ * fact($ - 1))) -> fact(5)'), 120);
    fails('def(rec, rec($)) -> rec(1)', /too complex to evaluate|exceeded the limit/);
    fails(
      'def(f, switch($ > 0 => f($ - 1) + f($ - 1), true => 1)) -> f(40)',
      /exceeded the limit of 10000 steps/,
      { maxSteps: 10_000 },
    );
  });

  it('is visible only on the right of ->', () => {
    fails('[def(sq, $ * $), sq(2)]', /unknown function "sq"/);
    fails('def("no good", 1) -> 1', /invalid function name/);
  });
});

describe('yaql call()', () => {
  it('calls a function by name with a list of arguments and a dict of named ones', () => {
    assert.equal(y('call(format, ["{0}-{x}", 1], {x => 2})'), '1-2');
    assert.equal(y('call(str, [1], {})'), '1');
    assert.equal(y('call(len, [[1, 2, 3]])'), 3);
    assert.deepEqual(y('call(range, [3])'), [0, 1, 2]);
    assert.equal(y('def(f, $ + 1) -> call(f, [1])'), 2);
    fails('call(nope, [])', /unknown function "nope"/);
    fails('call(len, [1, 2])', /len\(\): takes at most 1 argument/);
  });
});
