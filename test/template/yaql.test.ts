import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { evaluateYaql, YaqlError } from '../../src/template/yaql/index.js';

// Expected values were checked against the Python yaql library that Heat uses.

const DATA = {
  data: {
    servers: [
      { name: 'web-0', id: 1, tags: { role: 'web' } },
      { name: 'db-0', id: 2, tags: { role: 'db' } },
      { name: 'web-1', id: 3, tags: { role: 'web' } },
    ],
    list: [1, 2, 3],
    map: { a: 1, 'b c': 2 },
    text: 'hello',
  },
};

function y(expression: string, data: unknown = DATA): unknown {
  return evaluateYaql(expression, data);
}

/** Asserts a YaqlError whose message matches, pointing at `column` (1-based) when given. */
function fails(expression: string, message: RegExp, column?: number, data: unknown = DATA): void {
  assert.throws(
    () => y(expression, data),
    (error: unknown) => {
      assert.ok(error instanceof YaqlError, `expected a YaqlError, got ${String(error)}`);
      assert.match(error.message, message);
      if (column !== undefined) assert.equal(error.column, column, error.message);
      return true;
    },
  );
}

describe('yaql literals', () => {
  it('evaluates numbers, strings and constants', () => {
    assert.equal(y('42'), 42);
    assert.equal(y('2.5'), 2.5);
    assert.equal(y('007'), 7);
    assert.equal(y("'single'"), 'single');
    assert.equal(y('"double"'), 'double');
    assert.equal(y('`verbatim \\n`'), 'verbatim \\n');
    assert.equal(y('true'), true);
    assert.equal(y('false'), false);
    assert.equal(y('null'), null);
  });

  it('decodes Python escape sequences and keeps unknown ones', () => {
    assert.equal(y("'a\\nb'"), 'a\nb');
    assert.equal(y("'tab\\there'"), 'tab\there');
    assert.equal(y("'\\x41\\u00e9\\101'"), 'AéA');
    assert.equal(y("'\\U0001F600'"), '😀');
    assert.equal(y("'it\\'s'"), "it's");
    assert.equal(y("'a\\db'"), 'a\\db');
    assert.equal(y('`a\\`b`'), 'a`b');
  });

  it('treats a bare name as a string', () => {
    assert.equal(y('foo'), 'foo');
    assert.deepEqual(y('[a, b]'), ['a', 'b']);
  });

  it('builds lists and dicts, keeping key order', () => {
    assert.deepEqual(y('[1, "a", [true, null]]'), [1, 'a', [true, null]]);
    assert.deepEqual(y('[]'), []);
    assert.deepEqual(y('{}'), {});
    assert.deepEqual(y("{b => 1, a => 2, 'c d' => [3]}"), { b: 1, a: 2, 'c d': [3] });
    assert.deepEqual(Object.keys(y('{z => 1, a => 2}') as object), ['z', 'a']);
    // Keys may be any scalar; output keys are strings. (Python would also merge true into 1.)
    assert.deepEqual(y('{1 => one, true => yes, null => none}'), { 1: 'one', true: 'yes', null: 'none' });
  });
});

describe('yaql context access', () => {
  it('reads $, keys, nested keys and indexes', () => {
    assert.deepEqual(y('$', { a: 1 }), { a: 1 });
    assert.deepEqual(y('$.data.list'), [1, 2, 3]);
    assert.equal(y('$.data.servers[1].name'), 'db-0');
    assert.equal(y('$.data.servers[-1].tags.role'), 'web');
    assert.equal(y('$.data.list[0]'), 1);
    assert.equal(y('$[0]', [5, 6]), 5);
    assert.equal(y("$.data.map['b c']"), 2);
    assert.equal(y('$.data.map[a]'), 1);
    assert.equal(y('$.data.map[missing, 7]'), 7);
    assert.equal(y('$.data.map[missing, default => 8]'), 8);
  });

  it('maps a key over a list of dicts', () => {
    assert.deepEqual(y('$.data.servers.name'), ['web-0', 'db-0', 'web-1']);
    assert.deepEqual(y('$.data.servers.tags.role'), ['web', 'db', 'web']);
  });

  it('treats unbound variables as null', () => {
    assert.equal(y('$nothing'), null);
    assert.equal(y('$2'), null);
  });

  it('supports the null-safe ?. operator', () => {
    assert.equal(y('$.x?.y', { x: null }), null);
    assert.equal(y('$.x?.len()', { x: null }), null);
    assert.equal(y('$.x?.len()', { x: [1] }), 1);
    assert.equal(y('$?.x', { x: 3 }), 3);
  });

  it('reports missing keys and bad indexes', () => {
    fails('$.data.nope', /key "nope" not found/, 8);
    fails("$.data.map['nope']", /key "nope" not found/, 11);
    fails('$.data.list[3]', /index 3 out of range/, 12);
    fails('$.data.list["0"]', /list index must be an integer/);
    fails('$.data.text[0]', /cannot index string/);
    fails('$.data.text.x', /cannot read key "x" of string/, 13);
    fails('$.data.list[1, 2]', /default needs a dict/);
  });
});

describe('yaql operators', () => {
  it('does arithmetic with Python semantics', () => {
    assert.equal(y('1 + 2 * 3 - 4 / 2'), 5);
    assert.equal(y('7 / 2'), 3);
    assert.equal(y('-7 / 2'), -4);
    assert.equal(y('7 / 2.5'), 2.8);
    assert.equal(y('7 mod 3'), 1);
    assert.equal(y('-7 mod 3'), 2);
    assert.equal(y('7 mod -3'), -2);
    assert.equal(y('1.5 * 2'), 3);
    assert.equal(y('-(1 + 2)'), -3);
    assert.equal(y('+3'), 3);
    assert.equal(y('1 - -1'), 2);
    assert.equal(y('2 * -1'), -2);
    assert.equal(y('- - 1'), 1);
  });

  it('joins strings, lists and dicts with +, repeats with *', () => {
    assert.equal(y("'a' + 'b'"), 'ab');
    assert.deepEqual(y('[1, 2] + [3]'), [1, 2, 3]);
    assert.deepEqual(y('{a => 1, b => 1} + {b => 2}'), { a: 1, b: 2 });
    assert.equal(y("'ab' * 2"), 'abab');
    assert.equal(y("2 * 'ab'"), 'abab');
    assert.equal(y("'ab' * -1"), '');
    assert.deepEqual(y('[1] * 3'), [1, 1, 1]);
  });

  it('compares with Python equality and yaql ordering', () => {
    assert.equal(y('1 = 1.0'), true);
    assert.equal(y('true = 1'), true);
    assert.equal(y("'a' = 1"), false);
    assert.equal(y('[1, [2]] = [1, [2]]'), true);
    assert.equal(y('{a => 1, b => 2} = {b => 2, a => 1}'), true);
    assert.equal(y('[] = null'), false);
    assert.equal(y('null = null'), true);
    assert.equal(y('1 != 2'), true);
    assert.equal(y("'a' < 'b'"), true);
    assert.equal(y("'a' > 'B'"), true);
    assert.equal(y('2 >= 2 and 1 <= 2'), true);
    assert.equal(y('null < 1'), true);
    assert.equal(y('1 < null'), false);
    assert.equal(y('null <= null'), true);
    assert.equal(y('null > null'), false);
  });

  it('tests membership with in', () => {
    assert.equal(y('2 in [1, 2]'), true);
    assert.equal(y('[1] in [[1], 2]'), true);
    assert.equal(y("'ell' in 'hello'"), true);
    assert.equal(y('3 in $.data.list'), true);
  });

  it('uses truthiness and returns operands from and/or', () => {
    assert.equal(y('true and 0'), 0);
    assert.equal(y("0 or 'x'"), 'x');
    assert.equal(y('null or false'), false);
    assert.deepEqual(y('[] and 1'), []);
    assert.equal(y('not null'), true);
    assert.equal(y('not {}'), true);
    assert.equal(y("not 'x'"), false);
  });

  it('evaluates the right side of and/or only when needed', () => {
    assert.equal(y('false and $.data.nope'), false);
    assert.equal(y('true or $.data.nope'), true);
  });

  it('rejects mismatched operand types at the operator', () => {
    fails("'a' + 1", /cannot add string and integer/, 5);
    fails("'a' < 1", /cannot compare string with integer/, 5);
    fails('[1] < [2]', /cannot compare list with list/);
    fails('true < 2', /cannot compare boolean with integer/);
    fails("1 - 'a'", /"-" needs numbers/, 3);
    fails('-"a"', /unary "-" needs a number/, 1);
    fails('1 / 0', /division by zero/, 3);
    fails('1 mod 0', /modulo by zero/, 3);
    fails("'a' in {a => 1}", /"in" needs a list/, 5);
    fails('2 > 1 > 0', /cannot compare boolean with integer/, 7);
  });

  it('follows yaql precedence', () => {
    assert.equal(y('not 1 = 2'), true);
    assert.equal(y('not true and false'), false);
    assert.equal(y('true or false and false'), true);
    assert.equal(y('1 + 2 = 3'), true);
    assert.equal(y('1 in [1] and 2 in [2]'), true);
    assert.equal(y('not 1 in [1]'), false);
    assert.equal(y('-$.data.list.len()'), -3);
    assert.equal(y('2 * 3 mod 4'), 2);
    assert.equal(y('1 = 1 = true'), true);
    assert.equal(y('(1 + 2) * 3'), 9);
    assert.equal(y('[1, 2][1] + 1'), 3);
  });
});

describe('yaql lambdas and let', () => {
  it('binds $ to each item in predicates and selectors', () => {
    assert.deepEqual(y('$.data.list.where($ > 1)'), [2, 3]);
    assert.deepEqual(y('$.data.servers.select($.id)'), [1, 2, 3]);
    assert.deepEqual(y('$.data.servers.select([$.name, $.id])'), [
      ['web-0', 1],
      ['db-0', 2],
      ['web-1', 3],
    ]);
    assert.deepEqual(y('$.data.servers.where($.tags.role = web).select({n => $.name})'), [
      { n: 'web-0' },
      { n: 'web-1' },
    ]);
    assert.deepEqual(y('[[1, 2], [3]].select($.select($ * 10))'), [[10, 20], [30]]);
  });

  it('binds $1 and $2 for two-argument lambdas', () => {
    assert.equal(y('[1, 2, 3].aggregate($1 + $2)'), 6);
    assert.deepEqual(y('[1, 2].select($ + $1)'), [2, 4]);
    assert.deepEqual(y('[1, 2].select($2)'), [null, null]);
  });

  it('binds names and positions with let and ->', () => {
    assert.equal(y('let(a => 2) -> $a * 3'), 6);
    assert.equal(y('let(1, 2, a => 3, b => 4) -> $1 + $a + $2 + $b'), 10);
    assert.deepEqual(y('let(root => $) -> $.data.list.select($ + $root.data.list.len())'), [4, 5, 6]);
    assert.equal(y('let($.data.list) -> $.len()'), 3);
    assert.equal(y('with(2, 3) -> $1 * $2'), 6);
    assert.deepEqual(y('let(a => 1) -> let(b => $a + 1) -> [$a, $b]'), [1, 2]);
  });

  it('requires let(...) left of ->', () => {
    fails('1 -> $', /"->" needs let\(\.\.\.\) on its left/, 3);
    fails('let(a => 1)', /let\(\.\.\.\) must be followed by "->"/);
  });
});

describe('yaql syntax errors', () => {
  it('points at the offending column', () => {
    fails('1 +', /unexpected end of expression/, 4);
    fails('(1', /unexpected end of expression \(expected "\)"\)/, 3);
    fails('[1,]', /unexpected "\]"/, 4);
    fails('()', /unexpected "\)"/, 2);
    fails('1 2', /unexpected "2"/, 3);
    fails('f (1)', /unexpected "\("/, 3);
    fails("'abc", /unterminated string/, 1);
    fails('1 # comment', /unexpected character "#"/, 3);
    fails('1e5', /number must not run into a name/, 1);
    fails('.5', /unexpected "\."/, 1);
    fails('$.1', /expected a name or a method call after "\."/, 3);
    fails('$.__proto__', /names must not start with "__"/, 3);
    fails('[a => 1]', /not allowed in a list/, 4);
    fails('{a}', /must be written "key => value"/, 2);
    fails('f(a => 1, 2)', /positional argument cannot follow a named one/, 11);
    fails(
      "'x' =~ '('",
      /"=~": invalid regular expression "\(": missing \), unterminated subpattern at position 0/,
      5,
    );
    fails("'\\N{DASH}'", /\\N\{\.\.\.\} escapes are not supported/, 2);
    fails('$[]', /an index needs at least one argument/, 2);
  });

  it('reports unknown functions and bad arguments', () => {
    fails('$.data.list.nope()', /unknown function "nope"/, 13);
    fails('regexp("a")', /unknown function "regexp"/, 1);
    fails('[1].select()', /select\(\): missing argument "selector"/, 5);
    fails('[1].select($, $, $)', /select\(\): takes at most 2 argument\(s\)/, 15);
    fails('[1].where(predicat => $)', /where\(\): has no parameter named "predicat"/, 11);
    fails('[1].first(default => 1, default => 2)', /parameter "default" is given twice/);
    fails('[1].first("d" => 1)', /argument name must be a plain name/);
    fails("'abc'.substring('x')", /substring\(\): start must be an integer, not a string/, 7);
    fails('$.data.text.where($)', /where\(\): collection must be a list, not a string/, 13);
    fails('{[1] => 2}', /dict key must be a string, number, boolean or null, not list/, 2);
  });

  it('skips positional arguments written as empty', () => {
    assert.deepEqual(y('{a => [1, 2]}.mergeWith({a => [2, 3]},, $1 + $2)'), { a: [1, 2, 3] });
    fails('concat(, 1)', /only a declared parameter can be skipped/);
  });
});

describe('yaql limits', () => {
  it('bounds the expression length', () => {
    fails('1'.repeat(10_001), /longer than 10000 characters/);
    assert.throws(() => evaluateYaql('1 + 1', null, { maxExpressionLength: 3 }), YaqlError);
  });

  it('bounds the nesting depth, including long operator chains', () => {
    fails(`${'('.repeat(200)}1${')'.repeat(200)}`, /nested too deeply/);
    fails(`[${'['.repeat(150)}${']'.repeat(150)}]`, /nested too deeply/);
    fails(Array(300).fill('1').join(' + '), /nested too deeply/);
    fails(`$${'.a'.repeat(150)}`, /nested too deeply/);
    assert.equal(evaluateYaql('((1))', null, { maxDepth: 3 }), 1);
    assert.throws(() => evaluateYaql('(((1 + 1)))', null, { maxDepth: 3 }), /nested too deeply/);
  });

  it('bounds the work done', () => {
    fails('range(100000000)', /exceeded the limit of 1000000 steps/);
    fails("'a' * 1000000000", /exceeded the limit/);
    fails('range(40).aggregate($1 + $1, "ab")', /exceeded the limit/);
    fails('range(3000).select(range(3000).len())', /exceeded the limit/);
    assert.throws(
      () => evaluateYaql('range(100).sum()', null, { maxSteps: 50 }),
      /exceeded the limit of 50 steps/,
    );
    assert.equal(evaluateYaql('range(100).sum()', null, { maxSteps: 1000 }), 4950);
  });

  it('bounds the size and depth of results and data', () => {
    const exponential = 'range(40).aggregate([$1, $1], 1)';
    fails(exponential, /exceeded the limit|too large/);
    fails(`${exponential}.flatten()`, /exceeded the limit/);
    fails(`str(${exponential})`, /exceeded the limit/);
    fails(`${exponential} = ${exponential}`, /exceeded the limit/);
    fails('range(1000).aggregate([$1], [])', /nested more than 500 levels/);
    fails('range(1000).aggregate([$1], []).flatten()', /nested more than 500 levels/);
  });

  it('never overflows the stack on deep input data', () => {
    const nest = () => {
      let deep: unknown = 1;
      for (let i = 0; i < 5000; i++) deep = [deep];
      return deep;
    };
    const data = { a: nest(), b: nest() };
    fails('$.a', /nested more than 500 levels/, undefined, data);
    fails('$.a.flatten()', /nested more than 500 levels/, undefined, data);
    fails('$.a = $.b', /nested more than 500 levels/, undefined, data);
    fails('[$.a].distinct()', /nested more than 500 levels/, undefined, data);
    fails('str($.a)', /nested more than 500 levels/, undefined, data);
  });
});

describe('yaql prototype safety', () => {
  it('does not expose Object internals through keys', () => {
    fails('$.constructor', /key "constructor" not found/, 3, {});
    fails('$.toString', /key "toString" not found/, 3, {});
    fails("$['__proto__']", /key "__proto__" not found/, undefined, {});
    assert.equal(y("$.get('constructor')", {}), null);
    assert.equal(y("$.get('__proto__', 5)", {}), 5);
    assert.equal(y("{}.containsKey('hasOwnProperty')", {}), false);
    assert.equal(y("$.data.servers.where($.get('constructor')).len()"), 0);
  });

  it('does not resolve Object methods as functions', () => {
    fails('constructor()', /unknown function "constructor"/);
    fails('$.toString()', /unknown function "toString"/, 3, {});
    fails('$.hasOwnProperty(a)', /unknown function "hasOwnProperty"/, 3, {});
    fails('__proto__()', /unknown function "__proto__"/);
  });

  it('keeps a "__proto__" key as plain data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": 1}, "a": 2}');
    assert.deepEqual(y("$['__proto__']", input), { polluted: 1 });
    const built = y("dict('__proto__' => 1, a => 2)", null) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(built), Object.prototype);
    assert.ok(Object.hasOwn(built, '__proto__'));
    assert.deepEqual(Object.keys(built), ['__proto__', 'a']);
    const merged = y("{a => 1}.mergeWith({'__proto__' => {x => 1}})", null) as Record<string, unknown>;
    assert.ok(Object.hasOwn(merged, '__proto__'));
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });

  it('returns fresh plain data that does not alias the input', () => {
    const input = { a: [1, { b: 2 }] };
    const result = y('$.a', input) as unknown[];
    assert.deepEqual(result, input.a);
    assert.notEqual(result, input.a);
    assert.ok(Object.getPrototypeOf(y('dict(a => 1)', null)) === Object.prototype);
  });
});

describe('yaql evaluation API', () => {
  it('caches parsed expressions without sharing results', () => {
    for (let i = 0; i < 3; i++) assert.equal(evaluateYaql('$.x + 1', { x: i }), i + 1);
    const first = evaluateYaql('[1]', null) as unknown[];
    first.push(2);
    assert.deepEqual(evaluateYaql('[1]', null), [1]);
  });

  it('treats a missing context as null', () => {
    assert.equal(evaluateYaql('$', undefined), null);
  });

  it('only throws YaqlError for any input string, and terminates', () => {
    const tokens = [
      '1',
      '2.5',
      "'s'",
      '$',
      '.',
      '?.',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ',',
      '=>',
      '->',
      '+',
      '-',
      '*',
    ];
    const more = [
      '/',
      'mod',
      '=',
      '<',
      'and',
      'or',
      'not',
      'in',
      'a',
      'x(',
      'len(',
      'select(',
      'where(',
      'let(',
    ];
    const expression = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(fc.constantFrom(...tokens, ...more), { maxLength: 25 }).map((parts) => parts.join(' ')),
      fc.array(fc.constantFrom(...tokens, ...more), { maxLength: 25 }).map((parts) => parts.join('')),
    );
    const data = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(expression, data, (text, context) => {
        try {
          evaluateYaql(text, context, { maxSteps: 20_000 });
        } catch (error) {
          if (!(error instanceof YaqlError)) throw error;
        }
      }),
      { numRuns: 3000 },
    );
  });
});
