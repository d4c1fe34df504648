import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fails, y } from './yaql-helpers.js';

// Expected values are yaql's own (its docstrings, and the Python yaql library that Heat uses run on
// the same expressions), except where a comment says the behaviour is Hearth's. yaql's sets come
// out as lists here (JSON has no sets), in first-seen order where Python's are in hash order.

describe('yaql sets', () => {
  it('set() builds a set; set(dict, ...) still updates a dict', () => {
    assert.deepEqual(y('set(0, "", [1, 2])'), [0, '', [1, 2]]);
    assert.deepEqual(y('set(1, 2, 1)'), [1, 2]);
    assert.deepEqual(y('set()'), []);
    assert.equal(y('set(0, 1, 2).len()'), 3);
    assert.deepEqual(y('{"a" => 1, "b" => 2}.set("c", 3)'), { a: 1, b: 2, c: 3 });
    assert.deepEqual(y('{"a" => 1, "b" => 2}.set("b" => 3, "c" => 4)'), { a: 1, b: 3, c: 4 });
  });

  it('isSet, add, remove', () => {
    assert.deepEqual(y('[isSet(set(1, 2)), isSet({"a" => 1}), isSet([1]), isSet([1].toSet())]'), [
      true,
      false,
      false,
      true,
    ]);
    assert.deepEqual(y('set(0, 1).add("", [1, 2, 3])'), [0, 1, '', [1, 2, 3]]);
    assert.deepEqual(y('set(0, 1, "", [1, 2, 3]).remove("", 0, [1, 2, 3])'), [1]);
  });

  it('set algebra, as functions and operators', () => {
    assert.deepEqual(y('set(0, 1).union(set(1, 2))'), [0, 1, 2]);
    assert.deepEqual(y('set(0, 1, 2).intersect(set(0, 1))'), [0, 1]);
    assert.deepEqual(y('set(0, 1, 2).difference(set(0, 1))'), [2]);
    assert.deepEqual(y('set(0, 1, 2).symmetricDifference(set(0, 1, 3))'), [2, 3]);
    assert.deepEqual(y('set(1, 2) + set(3)'), [1, 2, 3]);
    assert.deepEqual(y('set(0, 1) - set(1)'), [0]);
    assert.deepEqual(
      y('[set(0) < set(0, 1), set(0, 1) <= set(0, 1), set(0, 1) >= set(0, 1), set(0, 1) > set(0, 1)]'),
      [true, true, true, false],
    );
    // A set and a list are not both sets: + joins them as lists.
    assert.deepEqual(y('set(1, 2) + [3]'), [1, 2, 3]);
  });

  it('sets compare as sets', () => {
    assert.equal(y('set(1, 2) = set(2, 1)'), true);
    assert.equal(y('set(1, 2) = set(1, 3)'), false);
    assert.equal(y('2 in set(1, 2)'), true);
  });
});

describe('yaql list editing', () => {
  it('insert / insertMany', () => {
    assert.deepEqual(y('[0, 1, 3].insert(2, 2)'), [0, 1, 2, 3]);
    assert.deepEqual(y('[0, 1].insert(5, 2)'), [0, 1, 2]);
    assert.deepEqual(y('[0, 1].insert(-1, 2)'), [0, 2, 1]);
    assert.deepEqual(y('[0, 1, 3].insertMany(2, [2, 22])'), [0, 1, 2, 22, 3]);
  });

  it('replaceMany', () => {
    assert.deepEqual(y('[0, 1, 3, 4, 2].replaceMany(2, [100, 200], 2)'), [0, 1, 100, 200, 2]);
    assert.deepEqual(y('[0, 1, 3, 4, 2].replaceMany(2, [100, 200], -1)'), [0, 1, 100, 200]);
    assert.deepEqual(y('[0, 1, 3, 4, 2].replaceMany(2, [100, 200])'), [0, 1, 100, 200, 4, 2]);
  });

  it('join of two collections', () => {
    assert.deepEqual(y('[1, 2, 3, 4].join([2, 5, 6], $1 > $2, [$1, $2])'), [
      [3, 2],
      [4, 2],
    ]);
    assert.equal(y('[a, b].join(",")'), 'a,b');
    fails('[1].join([2], true)', /needs a predicate and a selector/);
  });
});

describe('yaql groupBy aggregator', () => {
  it('gets the values, or falls back to the pre-1.1.1 [key, values] pair as Heat allows', () => {
    assert.deepEqual(y('[1, 2, 3, 4].groupBy($ mod 2, $, $.sum())'), [
      [1, 4],
      [0, 6],
    ]);
    assert.deepEqual(y('[1, 2, 3, 4].groupBy($ mod 2, aggregator => $.len())'), [
      [1, 2],
      [0, 2],
    ]);
    // The old style: the aggregator fails on a group's values, so it gets [key, values].
    assert.deepEqual(y('[1, 2, 3, 4].groupBy($ mod 2, aggregator => [$[0], $[1].sum()])'), [
      [1, 4],
      [0, 6],
    ]);
    fails('[1, 2, 3].groupBy($ mod 2, aggregator => $[5])', /list index 5 out of range/);
  });
});

describe('yaql branching, assert and unpack', () => {
  it('selectCase / selectAllCases / examine / switchCase', () => {
    assert.equal(y('selectCase(false, true, true)'), 1);
    assert.equal(y('selectCase(false, false)'), 2);
    assert.deepEqual(y('selectAllCases(false, true, true)'), [1, 2]);
    assert.deepEqual(y('examine(1 > 0, 2 > 3)'), [true, false]);
    assert.equal(y('1.switchCase(a, b, c)'), 'b');
    assert.equal(y('5.switchCase(a, b)'), 'b');
    assert.equal(
      y('let(2) -> selectCase($ > 3, $ > 1, $ > 0).switchCase(big, medium, small, none)'),
      'medium',
    );
  });

  it('assert', () => {
    assert.equal(y('1.assert($ > 0)'), 1);
    fails('1.assert($ > 2)', /assert\(\): Assertion failed/);
    fails('1.assert($ > 2, "boom")', /assert\(\): boom/);
  });

  it('unpack', () => {
    assert.equal(y('[1, 2].unpack() -> $1 + $2'), 3);
    assert.equal(y('[1, 2].unpack(a, b) -> $a + $b'), 3);
    fails('[1, 2, 3].unpack(a, b)', /cannot unpack 3 elements into 2/);
  });
});

describe('yaql string extras', () => {
  it('characters', () => {
    // yaql returns a Python set (hash order); Hearth keeps the class's order.
    assert.deepEqual(y('characters(digits => true)'), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    assert.equal(y('characters(octdigits => true, hexdigits => true).len()'), 22);
    assert.equal(y('characters(printable => true).len()'), 100);
    assert.equal(y('characters(punctuation => true).len()'), 32);
    assert.equal(y('characters(whitespace => true).len()'), 6);
    assert.deepEqual(y('characters()'), []);
  });

  it('hex and norm', () => {
    assert.equal(y('hex(255)'), '0xff');
    assert.equal(y('hex(-1)'), '-0x1');
    assert.equal(y('norm(" a  b ")'), 'a  b');
    assert.equal(y('norm("   ")'), null);
    fails('hex(1.5)', /must be an integer/);
  });
});
