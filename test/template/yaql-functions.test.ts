import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { FUNCTIONS } from '../../src/template/yaql/functions/index.js';
import { evaluateYaql, YaqlError } from '../../src/template/yaql/index.js';

// Expected values were checked against the Python yaql library that Heat uses, except where a
// comment says the behaviour is Hearth's own (see docs/yaql.md).

function y(expression: string, data: unknown = null): unknown {
  return evaluateYaql(expression, data);
}

function fails(expression: string, message: RegExp, data: unknown = null): void {
  assert.throws(
    () => y(expression, data),
    (error: unknown) => error instanceof YaqlError && message.test(error.message),
  );
}

describe('yaql query functions', () => {
  it('where / filter', () => {
    assert.deepEqual(y('[1, 2, 3].where($ > 1)'), [2, 3]);
    assert.deepEqual(y('[1, 2, 3].filter($ mod 2 = 1)'), [1, 3]);
    assert.deepEqual(y("['a', '', null].where($)"), ['a']);
  });

  it('select / map', () => {
    assert.deepEqual(y('[1, 2].select($ * 2)'), [2, 4]);
    assert.deepEqual(y('[1, 2].map([$, $ * $])'), [
      [1, 1],
      [2, 4],
    ]);
    assert.deepEqual(y('[1, 2].select(5)'), [5, 5]);
  });

  it('selectMany', () => {
    assert.deepEqual(y('[0, [1, 2], 3].selectMany($ * 2)'), [0, 1, 2, 1, 2, 6]);
    assert.deepEqual(y('range(3).selectMany(range($))'), [0, 0, 1]);
  });

  it('skip / take / limit / takeWhile / skipWhile', () => {
    assert.deepEqual(y('[1, 2, 3].skip(1)'), [2, 3]);
    assert.deepEqual(y('[1, 2, 3].take(2)'), [1, 2]);
    assert.deepEqual(y('[1, 2, 3].limit(5)'), [1, 2, 3]);
    assert.deepEqual(y('[1, 2, 3].skip(1).take(1)'), [2]);
    assert.deepEqual(y('[1, 2, 3, 1].takeWhile($ < 3)'), [1, 2]);
    assert.deepEqual(y('[1, 2, 3, 1].skipWhile($ < 3)'), [3, 1]);
  });

  it('distinct', () => {
    assert.deepEqual(y('[1, 2, 1, 3].distinct()'), [1, 2, 3]);
    assert.deepEqual(y('[1, 1.0, true].distinct()'), [1]);
    assert.deepEqual(y('[{a => 1}, {a => 1}, [1], [1]].distinct()'), [{ a: 1 }, [1]]);
    assert.deepEqual(y("[['a', 1], ['b', 2], ['c', 1]].distinct($[1])"), [
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('any / all', () => {
    assert.equal(y('[1, 2].any($ > 1)'), true);
    assert.equal(y('[1, 2].any($ > 2)'), false);
    assert.equal(y('[0].any()'), true);
    assert.equal(y('[].any()'), false);
    assert.equal(y('[1, 2].all($ > 0)'), true);
    assert.equal(y('[1, 0].all()'), false);
    assert.equal(y('[].all()'), true);
  });

  it('indexWhere / lastIndexWhere', () => {
    assert.equal(y('[1, 2, 3].indexWhere($ > 1)'), 1);
    assert.equal(y('[1, 2, 3].lastIndexWhere($ > 1)'), 2);
    assert.equal(y('[1].indexWhere($ > 1)'), -1);
  });

  it('aggregate / reduce', () => {
    assert.equal(y('[a, a, b].aggregate($1 + $2)'), 'aab');
    assert.equal(y('[].aggregate($1 + $2, 1)'), 1);
    assert.equal(y('[1, 2].reduce($1 + $2, 10)'), 13);
    assert.deepEqual(y('[{a => 1}, {b => 2}].reduce($1.mergeWith($2), {})'), { a: 1, b: 2 });
    fails('[].reduce($1 + $2)', /reduce\(\): empty list and no seed/);
  });

  it('orderBy / orderByDescending / thenBy / thenByDescending', () => {
    assert.deepEqual(y('[3, 1, 2].orderBy($)'), [1, 2, 3]);
    assert.deepEqual(y('[3, 1, 2].orderByDescending($)'), [3, 2, 1]);
    assert.deepEqual(y("[null, 'b', 'a'].orderBy($)"), [null, 'a', 'b']);
    const rows = "[[3, 'a'], [1, 'b'], [3, 'c']]";
    assert.deepEqual(y(`${rows}.orderBy($[0]).thenByDescending($[1])`), [
      [1, 'b'],
      [3, 'c'],
      [3, 'a'],
    ]);
    assert.deepEqual(y(`${rows}.orderByDescending($[0]).thenBy($[1])`), [
      [3, 'a'],
      [3, 'c'],
      [1, 'b'],
    ]);
    assert.deepEqual(y("[[1, 'x'], [1, 'y'], [0, 'z']].orderBy($[0])"), [
      [0, 'z'],
      [1, 'x'],
      [1, 'y'],
    ]);
    fails('[1].thenBy($)', /thenBy\(\): needs the result of orderBy\(\)/);
    fails("[1, 'a'].orderBy($)", /cannot compare/);
  });

  it('groupBy', () => {
    assert.deepEqual(y("[[1, 'a'], [2, 'b'], [1, 'c']].groupBy($[0], $[1])"), [
      [1, ['a', 'c']],
      [2, ['b']],
    ]);
    assert.deepEqual(y("[['a', 1], ['b', 2], ['c', 1]].groupBy($[1], $[0], $.sum())"), [
      [1, 'ac'],
      [2, 'b'],
    ]);
    assert.deepEqual(y('[1, 2, 3].groupBy($ mod 2, aggregator => $.len())'), [
      [1, 2],
      [0, 1],
    ]);
  });

  it('zip', () => {
    assert.deepEqual(y('[1, 2].zip([3, 4])'), [
      [1, 3],
      [2, 4],
    ]);
    assert.deepEqual(y('[1, 2, 3].zip([4, 5], [6])'), [[1, 4, 6]]);
  });
});

describe('yaql list functions', () => {
  it('len / count', () => {
    assert.equal(y('len([1, 2])'), 2);
    assert.equal(y("'abc'.len()"), 3);
    assert.equal(y("'h😀'.len()"), 2);
    assert.equal(y('{a => 1}.len()'), 1);
    assert.equal(y('[1, 2, 3].count()'), 3);
    fails('len(null)', /len\(\): value must be a string, list or dict, not null/);
  });

  it('sum', () => {
    assert.equal(y('[1, 2, 3].sum()'), 6);
    assert.equal(y('[1, 2].sum(10)'), 13);
    assert.equal(y("['a', 'b'].sum()"), 'ab');
    assert.equal(y("['a', 'b'].sum('c')"), 'cab');
    fails('[].sum()', /sum\(\): empty list and no initial value/);
  });

  it('max / min', () => {
    assert.equal(y('[3, 5, 4].max()'), 5);
    assert.equal(y('[3, 5, 4].min()'), 3);
    assert.equal(y('[].min(3)'), 3);
    assert.equal(y('[null, 2].max()'), 2);
    assert.equal(y('max(1, 2)'), 2);
    assert.equal(y("min('b', 'a')"), 'a');
    fails('[].max()', /max\(\): empty list and no initial value/);
    fails("[1, 'a'].max()", /cannot compare/);
  });

  it('first / last / single', () => {
    assert.equal(y('[1, 2].first()'), 1);
    assert.equal(y('[].first(5)'), 5);
    assert.equal(y('[1, 2].last()'), 2);
    assert.equal(y('[].last(default => 0)'), 0);
    assert.equal(y('[5].single()'), 5);
    fails('[].first()', /first\(\): the list is empty/);
    fails('[1, 2].single()', /single\(\): the list has 2 items/);
  });

  it('range', () => {
    assert.deepEqual(y('range(3)'), [0, 1, 2]);
    assert.deepEqual(y('range(1, 10, 3)'), [1, 4, 7]);
    assert.deepEqual(y('range(10, 1, -3)'), [10, 7, 4]);
    assert.deepEqual(y('range(0)'), []);
    fails('range(1, 2, 0)', /range\(\): step must not be zero/);
    fails('range(1.5)', /range\(\): start must be an integer/);
  });

  it('flatten', () => {
    assert.deepEqual(y('[[1, [2]], 3, []].flatten()'), [1, 2, 3]);
    assert.deepEqual(y("[{a => [1]}, 'ab'].flatten()"), [{ a: [1] }, 'ab']);
  });

  it('toList / list', () => {
    assert.deepEqual(y('[1, 2].toList()'), [1, 2]);
    assert.deepEqual(y('list(1, 2)'), [1, 2]);
    assert.deepEqual(y('list()'), []);
    assert.deepEqual(y('list(null)'), [null]);
    // Results of query functions are spliced in, as yaql does with its lazy iterators.
    assert.deepEqual(y('list(range(3))'), [0, 1, 2]);
    assert.deepEqual(y('list([1, 2].select($))'), [1, 2]);
    assert.deepEqual(y('list(range(2), [5])'), [0, 1, [5]]);
    assert.deepEqual(y('list([1, 2])'), [[1, 2]]);
  });

  it('toSet / union / intersect / difference / symmetricDifference', () => {
    assert.deepEqual(y('[1, 2, 1].toSet()'), [1, 2]);
    assert.deepEqual(y('[1, 2].toSet().union([2, 3].toSet())'), [1, 2, 3]);
    // Sets are lists without duplicates here, so plain lists work too (yaql wants toSet() first).
    assert.deepEqual(y('[1, 2].union([2, 3])'), [1, 2, 3]);
    assert.deepEqual(y('[1, 2].intersect([2, 3])'), [2]);
    assert.deepEqual(y('[1, 2, 2].difference([3])'), [1, 2]);
    assert.deepEqual(y('[1, 2].symmetricDifference([2, 3])'), [1, 3]);
  });

  it('contains', () => {
    assert.equal(y('[1, 2].contains(2)'), true);
    assert.equal(y('[[1]].contains([1])'), true);
    assert.equal(y('[1, 2].contains(3)'), false);
  });

  it('append / enumerate / reverse', () => {
    assert.deepEqual(y('[1, 2].append(3, 4)'), [1, 2, 3, 4]);
    assert.deepEqual(y("['a', 'b'].enumerate()"), [
      [0, 'a'],
      [1, 'b'],
    ]);
    assert.deepEqual(y("['a'].enumerate(2)"), [[2, 'a']]);
    assert.deepEqual(y('[1, 2, 3].reverse()'), [3, 2, 1]);
  });

  it('concat', () => {
    assert.equal(y("concat('a', 'b', 'c')"), 'abc');
    assert.deepEqual(y('concat([1], [2, 3])'), [1, 2, 3]);
    assert.deepEqual(y('[1].concat([2], [3])'), [1, 2, 3]);
    fails('concat()', /concat\(\): needs at least one argument/);
    fails("concat('a', [1])", /concat\(\): needs all strings or all lists/);
  });

  it('repeat', () => {
    assert.deepEqual(y('1.repeat(3)'), [1, 1, 1]);
    assert.deepEqual(y('repeat(a, 0)'), []);
    // A negative count (or none) repeats without end: usable through take(), else the steps limit.
    assert.deepEqual(y('1.repeat(-1).take(2)'), [1, 1]);
    assert.deepEqual(y('1.repeat().take(3)'), [1, 1, 1]);
    fails('1.repeat()', /exceeded the limit of 1000000 steps/);
  });

  it('delete / replace on lists', () => {
    assert.deepEqual(y('[1, 2, 3].delete(1)'), [1, 3]);
    assert.deepEqual(y('[1, 2, 3].delete(1, 5)'), [1]);
    assert.deepEqual(y('[1, 2, 3, 4].delete(1, -1)'), [1]);
    assert.deepEqual(y('[1, 2, 3, 4].replace(0, null)'), [null, 2, 3, 4]);
    assert.deepEqual(y('[1, 2, 3, 4].replace(0, null, 2)'), [null, 3, 4]);
    assert.deepEqual(y('[1, 2, 3, 4].replace(1, 7, -1)'), [1, 7]);
    assert.deepEqual(y('[1, 2].replace(5, 0)'), [1, 2]);
  });

  it('defaultIfEmpty / isList', () => {
    assert.deepEqual(y('[].defaultIfEmpty([3])'), [3]);
    assert.deepEqual(y('[1].defaultIfEmpty([3])'), [1]);
    assert.equal(y('isList([])'), true);
    assert.equal(y('isList({})'), false);
    assert.equal(y("isList('a')"), false);
  });
});

describe('yaql dict functions', () => {
  it('dict', () => {
    assert.deepEqual(y('dict(a => 1, b => 2)'), { a: 1, b: 2 });
    assert.deepEqual(y('dict([[1, 2], [b, 3]])'), { 1: 2, b: 3 });
    assert.deepEqual(y('dict($.select([$.k, $.v]))', [{ k: 'x', v: 1 }]), { x: 1 });
    assert.deepEqual(y('dict()'), {});
    assert.equal(y('dict(a => 1).a'), 1);
    fails('dict(1)', /dict\(\): takes "key => value" pairs/);
    fails('dict([[1]])', /dict\(\): every item must be a \[key, value\] pair/);
    fails('dict([[[1], 2]])', /dict key must be a string, number, boolean or null/);
  });

  it('toDict', () => {
    assert.deepEqual(y('[1, 2].toDict($, $ * $)'), { 1: 1, 2: 4 });
    assert.deepEqual(y('[{n => a, v => 1}].toDict($.n)'), { a: { n: 'a', v: 1 } });
  });

  it('keys / values / items', () => {
    assert.deepEqual(y('{b => 1, a => 2}.keys()'), ['b', 'a']);
    assert.deepEqual(y('{b => 1, a => 2}.values()'), [1, 2]);
    // (yaql itself fails on items() holding a list: it cannot hash the result.)
    assert.deepEqual(y('{b => 1, a => [2]}.items()'), [
      ['b', 1],
      ['a', [2]],
    ]);
    assert.deepEqual(y('$.keys()', { z: 1, y: 2 }), ['z', 'y']);
    assert.deepEqual(y('dict([[1, a]]).keys()'), [1]);
  });

  it('get / set / containsKey / containsValue', () => {
    assert.equal(y('{a => 1}.get(a)'), 1);
    assert.equal(y('{a => 1}.get(b)'), null);
    assert.equal(y('{a => 1}.get(b, 5)'), 5);
    assert.equal(y('dict([[1, x]]).get(1)'), 'x');
    assert.deepEqual(y('{a => 1}.set(b, 2)'), { a: 1, b: 2 });
    assert.deepEqual(y('{a => 1}.set({a => 3, c => 4})'), { a: 3, c: 4 });
    assert.deepEqual(y('{a => 1}.set(b => 3, c => 4)'), { a: 1, b: 3, c: 4 });
    assert.equal(y('{a => 1}.containsKey(a)'), true);
    assert.equal(y('{a => 1}.containsKey(b)'), false);
    assert.equal(y('{a => [1]}.containsValue([1])'), true);
    fails('{a => 1}.set(b)', /set\(\): takes a key and a value/);
  });

  it('mergeWith', () => {
    const left = "{'a' => 1, 'b' => 2, 'c' => [1, 2]}";
    const right = "{'d' => 5, 'b' => 3, 'c' => [2, 3]}";
    assert.deepEqual(y(`${left}.mergeWith(${right})`), { a: 1, b: 3, c: [1, 2, 3], d: 5 });
    assert.deepEqual(y(`${left}.mergeWith(${right}, $1 + $2)`), { a: 1, b: 3, c: [1, 2, 2, 3], d: 5 });
    assert.deepEqual(y(`${left}.mergeWith(${right}, $1 + $2, $1)`), { a: 1, b: 2, c: [1, 2, 2, 3], d: 5 });
    assert.deepEqual(y(`${left}.mergeWith(${right}, maxLevels => 1)`), { a: 1, b: 3, c: [2, 3], d: 5 });
    assert.deepEqual(y('{a => {x => 1}}.mergeWith({a => {y => 2}})'), { a: { x: 1, y: 2 } });
    fails('{a => 1}.mergeWith({a => {b => 1}})', /cannot merge integer with dict/);
  });

  it('delete / deleteAll / isDict', () => {
    assert.deepEqual(y('{a => 1, b => 2, c => 3}.delete(a, c)'), { b: 2 });
    assert.deepEqual(y('{a => 1, b => 2}.deleteAll([a])'), { b: 2 });
    assert.equal(y('isDict({})'), true);
    assert.equal(y('isDict($)', { a: 1 }), true);
    assert.equal(y('isDict([])'), false);
  });
});

describe('yaql string functions', () => {
  it('str', () => {
    assert.equal(y('str(null)'), 'null');
    assert.equal(y('str(true)'), 'true');
    assert.equal(y('str(12)'), '12');
    assert.equal(y('str(1.5)'), '1.5');
    assert.equal(y('str(0.1 + 0.2)'), '0.30000000000000004');
    assert.equal(y('str(0.00001)'), '1e-05');
    assert.equal(y("str('x')"), 'x');
    // Hearth writes lists and dicts as JSON (yaql prints Python's repr).
    assert.equal(y("str([1, 'a', {b => null}])"), '[1, "a", {"b": null}]');
  });

  it('toUpper / toLower', () => {
    assert.equal(y("'aBc'.toUpper()"), 'ABC');
    assert.equal(y("'aBc'.toLower()"), 'abc');
  });

  it('split / rightSplit', () => {
    assert.deepEqual(y("'a,b,,c'.split(',')"), ['a', 'b', '', 'c']);
    assert.deepEqual(y("'a-b-c'.split('-', 1)"), ['a', 'b-c']);
    assert.deepEqual(y("' a  b '.split()"), ['a', 'b']);
    assert.deepEqual(y("' a  b  c '.split(null, 1)"), ['a', 'b  c ']);
    assert.deepEqual(y("'a:b:c'.rightSplit(':', 1)"), ['a:b', 'c']);
    assert.deepEqual(y("' a  b  c '.rightSplit(null, 1)"), [' a  b', 'c']);
    assert.deepEqual(y("'host:port'.rightSplit(':', 1)[0]"), 'host');
    fails("'a'.split('')", /split\(\): empty separator/);
  });

  it('join', () => {
    assert.equal(y("[1, 2].join(',')"), '1,2');
    assert.equal(y("','.join([1, null, true])"), '1,null,true');
    // Any method can be called as a function in Hearth (yaql has method-only functions).
    assert.equal(y("join(['a', 'b'], '-')"), 'a-b');
  });

  it('trim / trimLeft / trimRight', () => {
    assert.equal(y("'  x \\n'.trim()"), 'x');
    assert.equal(y("'xxaxx'.trim('x')"), 'a');
    assert.equal(y("'xxaxx'.trimLeft('x')"), 'axx');
    assert.equal(y("'xxaxx'.trimRight('x')"), 'xxa');
  });

  it('replace', () => {
    assert.equal(y("'a-b-c'.replace('-', '_')"), 'a_b_c');
    assert.equal(y("'aaa'.replace('a', 'b', 2)"), 'bba');
    assert.equal(y("'ab'.replace('', '-')"), '-a-b-');
    assert.equal(y("'ab'.replace('', '-', 2)"), '-a-b');
    assert.equal(y("'ab'.replace({a => 1, b => x})"), '1x');
  });

  it('substring', () => {
    assert.equal(y("'abc'.substring(1)"), 'bc');
    assert.equal(y("'abcdef'.substring(-3, 2)"), 'de');
    assert.equal(y("'abc'.substring(1, 1)"), 'b');
    assert.equal(y("'abc'.substring(5)"), '');
    assert.equal(y("'h😀llo'.substring(1, 2)"), '😀l');
  });

  it('indexOf / lastIndexOf', () => {
    assert.equal(y("'abcabc'.indexOf('c')"), 2);
    assert.equal(y("'abcabc'.indexOf('c', 3)"), 5);
    assert.equal(y("'abcabc'.indexOf('c', -2)"), 5);
    assert.equal(y("'abcabc'.indexOf('c', 1, 1)"), -1);
    assert.equal(y("'abc'.indexOf('', 5)"), -1);
    assert.equal(y("'abcabc'.lastIndexOf('c')"), 5);
    assert.equal(y("'h😀llo'.indexOf('l')"), 2);
    assert.equal(y('[1, 2, 1].indexOf(1)'), 0);
    assert.equal(y('[1, 2, 1].lastIndexOf(1)'), 2);
    assert.equal(y('[1, 2].indexOf(3)'), -1);
  });

  it('startsWith / endsWith', () => {
    assert.equal(y("'abc'.startsWith('x', 'a')"), true);
    assert.equal(y("'abc'.startsWith('b')"), false);
    assert.equal(y("'abc'.endsWith('bc')"), true);
  });

  it('isString / isEmpty / toCharArray', () => {
    assert.equal(y("isString('')"), true);
    assert.equal(y('isString(1)'), false);
    assert.equal(y("isEmpty('  ')"), true);
    assert.equal(y('isEmpty(null)'), true);
    assert.equal(y("' x '.isEmpty()"), false);
    assert.equal(y("'  '.isEmpty(false)"), false);
    assert.deepEqual(y("'ab'.toCharArray()"), ['a', 'b']);
    fails('isEmpty([])', /isEmpty\(\): string must be a string, not a list/);
  });

  it('format (a Hearth extension: yaql removed it)', () => {
    assert.equal(y("'{0}-{1}'.format(a, 2)"), 'a-2');
    assert.equal(y("'{}/{}'.format(x, y)"), 'x/y');
    assert.equal(y("'{name}!'.format(name => hi)"), 'hi!');
    assert.equal(y("format('{0} {{literal}}', 1)"), '1 {literal}');
    assert.equal(y("'{0} {1} {2}'.format(null, true, [1])"), 'None True [1]');
    fails("'{0.__class__}'.format(1)", /unsupported format field/);
    fails("'{0:>5}'.format(1)", /unsupported format field/);
    fails("'{1}'.format(1)", /no value for format field "\{1\}"/);
    fails("'{}{0}'.format(1)", /cannot mix/);
    fails("'}'.format(1)", /single "}"/);
  });
});

describe('yaql core functions', () => {
  it('int', () => {
    assert.equal(y("int('12')"), 12);
    assert.equal(y("int(' -3 ')"), -3);
    assert.equal(y("int('1_0')"), 10);
    assert.equal(y('int(1.9)'), 1);
    assert.equal(y('int(-1.9)'), -1);
    assert.equal(y('int(null)'), 0);
    assert.equal(y('int(true)'), 1);
    fails("int('1.5')", /int\(\): invalid integer "1.5"/);
    fails('int([])', /int\(\): value must be a number/);
  });

  it('float', () => {
    assert.equal(y("float('1e3')"), 1000);
    assert.equal(y("float(' 1.5 ')"), 1.5);
    assert.equal(y("float('.5')"), 0.5);
    assert.equal(y("float('-inf')"), -Infinity);
    assert.equal(y('float(null)'), 0);
    assert.equal(y('float(2)'), 2);
    fails("float('abc')", /float\(\): invalid number "abc"/);
  });

  it('bool / isInteger / isNumber / isBoolean / abs', () => {
    assert.equal(y('bool([])'), false);
    assert.equal(y("bool('0')"), true);
    assert.equal(y('bool(null)'), false);
    assert.equal(y('isInteger(1)'), true);
    assert.equal(y('isInteger(1.5)'), false);
    assert.equal(y('isInteger(true)'), false);
    assert.equal(y('isNumber(1.5)'), true);
    assert.equal(y("isNumber('1')"), false);
    assert.equal(y('isBoolean(false)'), true);
    assert.equal(y('abs(-2)'), 2);
  });

  it('coalesce', () => {
    assert.equal(y('coalesce(null, 2, 3)'), 2);
    assert.equal(y('coalesce(null, null)'), null);
    assert.deepEqual(y('coalesce($.x, [])', { x: null }), []);
    // Later arguments are not evaluated once a non-null value is found.
    assert.equal(y('coalesce(1, $.missing.key)', {}), 1);
  });

  it('switch', () => {
    assert.equal(y('switch(false => 1, true => 2)'), 2);
    assert.equal(y('switch(false => 1)'), null);
    assert.equal(y("switch($ = '' => empty, true => $)", 'v'), 'v');
    assert.equal(y('switch(true => 1, $.missing => 2)', {}), 1);
    fails('switch(1)', /switch\(\): takes only "condition => value" pairs/);
  });

  it('let / with', () => {
    assert.equal(y('let(x => 2, y => 3) -> $x * $y'), 6);
    assert.equal(y('with(2, 3) -> $1 + $2'), 5);
  });
});

describe('yaql function catalogue', () => {
  it('documents every function in docs/yaql.md', () => {
    const docs = readFileSync(new URL('../../docs/yaql.md', import.meta.url), 'utf8');
    const missing = [...FUNCTIONS.keys()].filter((name) => !docs.includes(`\`${name}(`));
    assert.deepEqual(missing, []);
  });
});
