import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fails, y } from './yaql-helpers.js';

// Expected values are yaql's own (its docstrings, and the Python yaql library that Heat uses run on
// the same expressions), except where a comment says the behaviour is Hearth's.

function exceedsSteps(expression: string, maxSteps = 10_000): void {
  fails(expression, new RegExp(`limit of ${maxSteps} steps`), { maxSteps });
}

describe('yaql generators', () => {
  it('sequence() counts without end; queries on it stream', () => {
    assert.deepEqual(y('sequence().take(5)'), [0, 1, 2, 3, 4]);
    assert.deepEqual(y('sequence(2, 3).take(3)'), [2, 5, 8]);
    assert.deepEqual(y('sequence().where($ mod 2 = 0).select($ * 10).take(3)'), [0, 20, 40]);
    assert.deepEqual(y('sequence().skip(3).take(2)'), [3, 4]);
    assert.deepEqual(y('sequence().takeWhile($ < 3)'), [0, 1, 2]);
    assert.deepEqual(y('sequence().skipWhile($ < 3).limit(2)'), [3, 4]);
    assert.deepEqual(y('sequence().enumerate().take(2)'), [
      [0, 0],
      [1, 1],
    ]);
    assert.deepEqual(y('sequence().selectMany([$, $]).take(3)'), [0, 0, 1]);
    assert.deepEqual(y('sequence().distinct().take(2)'), [0, 1]);
    assert.deepEqual(y('sequence().zip([a, b])'), [
      [0, 'a'],
      [1, 'b'],
    ]);
    assert.equal(y('sequence().first()'), 0);
    assert.equal(y('sequence().any($ > 5)'), true);
    assert.equal(y('sequence().all($ < 3)'), false);
    assert.equal(y('sequence().indexWhere($ = 4)'), 4);
    assert.deepEqual(y('let(s => sequence()) -> $s.take(2)'), [0, 1]);
  });

  it('range() is lazy too', () => {
    assert.deepEqual(y('range(3)'), [0, 1, 2]);
    assert.deepEqual(y('range(10, 0, -3)'), [10, 7, 4, 1]);
    assert.deepEqual(y('range(1000000000000).take(2)'), [0, 1]);
    assert.deepEqual(y('list(range(2), 5)'), [0, 1, 5]);
    assert.equal(y('len(range(3))'), 3);
    // yaql compares an iterator with a list as unequal; Hearth reads the range first.
    assert.equal(y('range(3) = [0, 1, 2]'), true);
  });

  it('cycle() and repeat()', () => {
    assert.deepEqual(y('[1, 2].cycle().take(5)'), [1, 2, 1, 2, 1]);
    assert.deepEqual(y('[].cycle().take(3)'), []);
    assert.deepEqual(y('1.repeat(2)'), [1, 1]);
    assert.deepEqual(y('1.repeat().take(3)'), [1, 1, 1]);
  });

  it('generate() and generateMany()', () => {
    assert.deepEqual(y('generate(0, $ < 10, $ + 2)'), [0, 2, 4, 6, 8]);
    assert.deepEqual(y('generate(1, $ < 10, $ + 2, $ * 1000)'), [1000, 3000, 5000, 7000, 9000]);
    assert.deepEqual(y('generate(0, true, ($ + 1) mod 3, decycle => true)'), [0, 1, 2]);
    assert.deepEqual(y('generateMany("1", {"1" => ["2", "3"], "2" => ["4"], "3" => ["5"]}.get($, []))'), [
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    assert.deepEqual(
      y('generateMany("1", {"1" => ["2", "3"], "2" => ["4"], "3" => ["5"]}.get($, []), depthFirst => true)'),
      ['1', '2', '4', '3', '5'],
    );
    assert.deepEqual(y('generateMany(1, [$ + 1, $ + 2].where($ < 5), decycle => true)'), [1, 2, 3, 4]);
  });

  it('accumulate()', () => {
    assert.deepEqual(y('[1, 2, 3].accumulate($1 + $2)'), [1, 3, 6]);
    assert.deepEqual(y('[1, 2, 3].accumulate($1 + $2, 100)'), [100, 101, 103, 106]);
    assert.deepEqual(y('[].accumulate($1 + $2, 1)'), [1]);
    assert.deepEqual(y('sequence(1).accumulate($1 * $2).take(5)'), [1, 2, 6, 24, 120]);
    assert.throws(() => y('[].accumulate($1 + $2)'), /empty collection and no seed/);
  });

  it('slice, sliceWhere, splitWhere, splitAt, zipLongest, memorize, isIterable', () => {
    assert.deepEqual(y('range(1, 6).slice(2)'), [[1, 2], [3, 4], [5]]);
    assert.deepEqual(y('sequence().slice(2).take(2)'), [
      [0, 1],
      [2, 3],
    ]);
    assert.deepEqual(y('[1, 2, 3, 4, 5, 6, 7].sliceWhere($ mod 3 = 0)'), [[1, 2], [3], [4, 5], [6], [7]]);
    assert.deepEqual(y('[1, 2, 3, 4, 5, 6, 7].splitWhere($ mod 3 = 0)'), [[1, 2], [4, 5], [7]]);
    assert.deepEqual(y('[3, 6, 9].splitWhere($ mod 3 = 0)'), [[], [], []]);
    assert.deepEqual(y('[1, 2, 3, 4].splitAt(1)'), [[1], [2, 3, 4]]);
    assert.deepEqual(y('[1, 2, 3, 4].splitAt(0)'), [[], [1, 2, 3, 4]]);
    assert.deepEqual(y('[1, 2, 3, 4].splitAt(-1)'), [[1, 2, 3], [4]]);
    assert.deepEqual(y('[1, 2, 3].zipLongest([4, 5])'), [
      [1, 4],
      [2, 5],
      [3, null],
    ]);
    assert.deepEqual(y('[1, 2, 3].zipLongest([4, 5], default => 100)'), [
      [1, 4],
      [2, 5],
      [3, 100],
    ]);
    assert.equal(y('let(range(4).memorize()) -> $.sum() + $.len()'), 10);
    assert.equal(y('isIterable(sequence())'), true);
    assert.deepEqual(y('[isIterable([]), isIterable(set(1, 2)), isIterable("foo"), isIterable({a => 1})]'), [
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('yaql generators under the evaluation budget', () => {
  it('an endless sequence read whole ends with the steps error, not a hang', () => {
    exceedsSteps('sequence()');
    exceedsSteps('sequence().len()');
    exceedsSteps('sequence().where($ < 0).first()');
    exceedsSteps('[1].cycle()');
    exceedsSteps('1.repeat().select($)');
    exceedsSteps('sequence().orderBy($)');
    exceedsSteps('generate(0, true, $ + 1)');
    exceedsSteps('generateMany(0, [$ + 1, $ + 2])');
    exceedsSteps('sequence().accumulate($1 + $2)');
    exceedsSteps('sequence() = [1]');
  });

  it('a huge range costs its items, so it hits the limit instead of filling memory', () => {
    exceedsSteps('range(1000000000000)');
    exceedsSteps('range(1000000000000).sum()');
    exceedsSteps('range(1000000000000).where($ > 1000000000000).any()');
    // With the default limit too: the error comes after at most a million items.
    assert.throws(() => y('range(1000000000000).len()'), /limit of 1000000 steps/);
  });

  it('the same expressions within the budget succeed', () => {
    assert.equal(y('range(1000).len()', { maxSteps: 10_000 }), 1000);
    assert.deepEqual(y('sequence().take(3)', { maxSteps: 100 }), [0, 1, 2]);
  });
});
