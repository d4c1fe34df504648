import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fails, y } from './yaql-helpers.js';

// Expected values are yaql's own (its docstrings, and the Python yaql library that Heat uses run on
// the same expressions).

describe('yaql math functions', () => {
  it('round() rounds half to even, on the exact binary value', () => {
    assert.equal(y('round(12.52)'), 13);
    assert.equal(y('round(12.52, 1)'), 12.5);
    assert.equal(y('round(2.5)'), 2);
    assert.equal(y('round(-2.5)'), -2);
    assert.equal(y('round(1.5, 0)'), 2);
    assert.equal(y('round(0.125, 2)'), 0.12);
    assert.equal(y('round(-0.125, 2)'), -0.12);
    // 2.675 is stored just below itself, so it rounds down.
    assert.equal(y('round(2.675, 2)'), 2.67);
    assert.equal(y('round(1250, -2)'), 1200);
  });

  it('pow() is exact for integers and modular with a third argument', () => {
    assert.equal(y('pow(3, 2)'), 9);
    assert.equal(y('pow(3, 2, 5)'), 4);
    assert.equal(y('pow(-3, 3, 5)'), 3);
    assert.equal(y('pow(2, -1)'), 0.5);
    assert.equal(y('pow(2.0, 3)'), 8);
    assert.equal(y('pow(2, 52)'), 4503599627370496);
    fails('pow(0, -1)', /0\.0 cannot be raised to a negative power/);
    fails('pow(-8, 0.5)', /complex/);
    fails('pow(10, 400)', /too large/);
  });

  it('bitwise functions and shifts', () => {
    assert.equal(y('bitwiseAnd(6, 12)'), 4);
    assert.equal(y('bitwiseOr(6, 12)'), 14);
    assert.equal(y('bitwiseXor(6, 12)'), 10);
    assert.equal(y('bitwiseNot(6)'), -7);
    assert.equal(y('shiftBitsRight(8, 2)'), 2);
    assert.equal(y('shiftBitsRight(-9, 1)'), -5);
    assert.equal(y('shiftBitsLeft(8, 2)'), 32);
    fails('shiftBitsLeft(1, -1)', /negative shift count/);
    fails('shiftBitsLeft(1, 60)', /too large for an exact integer/);
    fails('bitwiseAnd(1.5, 2)', /must be an integer/);
  });

  it('sign()', () => {
    assert.deepEqual(y('[sign(2), sign(0), sign(-0.5)]'), [1, 0, -1]);
  });

  it('random() stays in its range', () => {
    const floats = y('range(200).select(random())') as number[];
    assert.ok(floats.every((n) => n >= 0 && n < 1));
    const ints = y('range(200).select(random(1, 3))') as number[];
    assert.deepEqual([...new Set(ints)].sort(), [1, 2, 3]);
    fails('random(3, 1)', /empty range/);
  });
});
