import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateYaql, YaqlError } from '../../src/template/yaql/index.js';

// The examples of yaql's own documentation (yaql/standard_library/regex.py) come first in each
// test; the rest were checked against Python's `re` and the yaql library that Heat uses.

function y(expression: string, data: unknown = null, maxSteps?: number): unknown {
  return evaluateYaql(expression, { data }, maxSteps === undefined ? {} : { maxSteps });
}

function fails(expression: string, message: RegExp, data: unknown = null): void {
  assert.throws(
    () => y(expression, data),
    (error: unknown) => error instanceof YaqlError && message.test(error.message),
  );
}

describe('yaql regex functions', () => {
  it('regex() and matches()', () => {
    assert.equal(y('regex("a.c").matches("abc")'), true);
    assert.equal(y('regex("A.c").matches("abc")'), false);
    assert.equal(y('regex("A.c", ignoreCase => true).matches("abc")'), true);
    assert.equal(y('"abc".matches("a.c")'), true);
    // Python's re.search: a match anywhere counts, not only at the start.
    assert.equal(y('"xxabc".matches("b")'), true);
    assert.equal(y('matches("abc", "^b")'), false);
    // tripleo's ceph-base.yaml: an IPv4 or IPv6 host part.
    assert.equal(y("$.data.split('/')[0].matches('(\\.|:)')", '10.0.0.1/24'), true);
    assert.equal(y("$.data.split('/')[0].matches('(\\.|:)')", 'host/x'), false);
  });

  it('regex() flags: multiLine, dotAll', () => {
    assert.equal(y('regex("^b").matches("a\\nb")'), false);
    assert.equal(y('regex("^b", multiLine => true).matches("a\\nb")'), true);
    assert.equal(y('regex("a.b").matches("a\\nb")'), false);
    assert.equal(y('regex("a.b", dotAll => true).matches("a\\nb")'), true);
    assert.equal(y('regex("(?i)A").matches("a")'), true);
  });

  it('=~ and !~', () => {
    assert.equal(y('"abc" =~ regex("a.c")'), true);
    assert.equal(y('"abc" =~ "a.c"'), true);
    assert.equal(y('"acb" !~ regex("a.c")'), true);
    assert.equal(y('"abc" !~ regex("a.c")'), false);
    // Tighter than `and` and comparisons, as in yaql's operator table.
    assert.equal(y('"a" =~ "a" and "b" !~ "a"'), true);
  });

  it('search()', () => {
    assert.equal(y('regex("a.c").search("abcabc")'), 'abc');
    assert.deepEqual(y('regex("a.c").search("cabc", $)'), { value: 'abc', start: 1, end: 4 });
    assert.equal(y('regex("a.c").search("cabc", $.start)'), 1);
    assert.equal(y('regex("x").search("abc")'), null);
    // $2... are the groups (null and -1 for one that took no part), $name the named ones.
    assert.deepEqual(y('regex("(b)(x)?").search("abc", [$2.value, $3])'), [
      'b',
      { value: null, start: -1, end: -1 },
    ]);
    assert.equal(y('regex("(?P<year>\\d{4})-(?P<month>\\d\\d)").search("on 2024-05", $month.value)'), '05');
    // tripleo's nova-compute-container-puppet.yaml: the huge page size from kernel arguments.
    assert.equal(
      y('regex("([0-9]+[K|M|G])").search($.data.a + $.data.b)', { a: 'hugepagesz=2M ', b: 'x' }),
      '2M',
    );
    // Indexes count code points, as Python's do.
    assert.deepEqual(y('regex("b").search("😀b", [$.start, $.end])'), [1, 2]);
  });

  it('searchAll()', () => {
    assert.deepEqual(y('regex("a.c").searchAll("abcadc")'), ['abc', 'adc']);
    assert.deepEqual(y('regex("a.c").searchAll("abcadc", $)'), [
      { value: 'abc', start: 0, end: 3 },
      { value: 'adc', start: 3, end: 6 },
    ]);
    assert.deepEqual(y('regex("(\\w)=(\\d)").searchAll("a=1, b=2", [$2.value, int($3.value)])'), [
      ['a', 1],
      ['b', 2],
    ]);
    // Empty matches as Python 3.7+'s finditer: one may follow a non-empty match.
    assert.deepEqual(y('regex("x*").searchAll("abxd")'), ['', '', 'x', '', '']);
    assert.deepEqual(y('regex("|a").searchAll("a")'), ['', 'a', '']);
  });

  it('split() with a regex', () => {
    assert.deepEqual(y('regex("a.").split("abcadc")'), ['', 'c', 'c']);
    assert.deepEqual(y('regex("a.").split("abcadc", maxSplit => 1)'), ['', 'cadc']);
    assert.deepEqual(y('"abcadc".split(regex("a."))'), ['', 'c', 'c']);
    assert.deepEqual(y('"abcadc".split(regex("a."), maxSplit => 1)'), ['', 'cadc']);
    // Groups are kept, as by re.split; one that took no part is null.
    assert.deepEqual(y('regex("(a)(x)?").split("bab")'), ['b', 'a', null, 'b']);
    // tripleo's ceph-base.yaml: host and path of a container image location.
    assert.deepEqual(
      y("regex('(?:https?://)?(.*?)/(.*)').split($.data)", 'https://registry:5000/ceph/daemon'),
      ['', 'registry:5000', 'ceph/daemon', ''],
    );
    // A string separator is still str.split.
    assert.deepEqual(y('"a.b".split(".")'), ['a', 'b']);
    fails('"a.b".split(".", maxSplit => 1)', /maxSplit is for splitting by a regex/);
  });

  it('replace() with a regex', () => {
    assert.equal(y('regex("a.").replace("abcadc", "xx")'), 'xxcxxc');
    assert.equal(y('regex("a.").replace("abcadc", "xx", count => 1)'), 'xxcadc');
    assert.equal(y('"abcadc".replace(regex("a."), "xx")'), 'xxcxxc');
    // tripleo's service_net_map.j2.yaml: CamelCase to snake_case with back-references.
    assert.equal(
      y("regex(`([a-z0-9])([A-Z])`).replace($.data, '\\\\1_\\\\2').toLower()", 'InternalApiNetwork'),
      'internal_api_network',
    );
    assert.equal(y('regex("(?P<k>\\w+)=(\\w+)").replace("a=1", "\\\\2=\\\\g<k>")'), '1=a');
    // A group that took no part gives "" (Python 3.5+).
    assert.equal(y('regex("(a)|b").replace("ab", "[\\\\1]")'), '[a][]');
    assert.equal(y('regex("x*").replace("abxd", "-")'), '-a-b--d-');
    // The string form of replace() is untouched.
    assert.equal(y('"a.b".replace(".", "-")'), 'a-b');
    fails('regex("a").replace("a", "\\\\2")', /invalid replacement "\\\\2": invalid group reference 2/);
    fails('regex("a").replace("a", "\\\\q")', /bad escape \\q/);
  });

  it('replaceBy()', () => {
    assert.equal(
      y('regex("a.c").replaceBy("abcadc", switch($.value = "abc" => xx, $.value = "adc" => yy))'),
      'xxyy',
    );
    assert.equal(
      y('"abcadc".replaceBy(regex("a.c"), switch($.value = "abc" => xx, $.value = "adc" => yy))'),
      'xxyy',
    );
    assert.equal(y('regex("\\d+").replaceBy("a1b22", str(int($.value) * 2), count => 1)'), 'a2b22');
    fails('regex("a").replaceBy("a", 1)', /replaceBy\(\): the replacement must be a string, not integer/);
  });

  it('escapeRegex() and isRegex()', () => {
    assert.equal(y("escapeRegex('a.')"), 'a\\.');
    // Python 3.7+'s re.escape: only characters special in a pattern.
    assert.equal(y("escapeRegex('a.b c_d-é#&~')"), 'a\\.b\\ c_d\\-é\\#\\&\\~');
    assert.equal(y('regex(escapeRegex("1+1=2")).matches("so 1+1=2")'), true);
    assert.equal(y('isRegex(regex("a.c"))'), true);
    assert.equal(y('isRegex(regex("a.c").matches("abc"))'), false);
    assert.equal(y('isRegex("a.c")'), false);
  });
});

describe('yaql regex dialect (Python re)', () => {
  const all = (pattern: string, text: string) =>
    y(`regex(${JSON.stringify(pattern)}).searchAll(${JSON.stringify(text)})`);

  it('takes Python-only syntax', () => {
    assert.deepEqual(all('\\A\\w+|\\w+\\Z', 'one two three'), ['one', 'three']);
    assert.deepEqual(all('a{,2}', 'aaaaa'), ['aa', 'aa', 'a', '']);
    assert.deepEqual(all('a{', 'a{'), ['a{']);
    assert.deepEqual(all('(?P<q>[\'"]).*?(?P=q)', 'say \'hi\' "yo"'), ["'hi'", '"yo"']);
    assert.deepEqual(all('(a)?(?(1)b|c)', 'ab c'), ['ab', 'c']);
    assert.deepEqual(all('(?>a+)b', 'aaab'), ['aaab']);
    assert.deepEqual(all('a++a', 'aaa'), []);
    assert.deepEqual(all('(?x) a \\  b # comment\n c', 'a bc'), ['a bc']);
    assert.deepEqual(all('(?i:A)b', 'ab Ab aB'), ['ab', 'Ab']);
    assert.deepEqual(all('[]a]+', ']a]b'), [']a]']);
    assert.deepEqual(all('(?<=\\$)\\d+', 'cost $42 or 7'), ['42']);
    assert.deepEqual(all('\\x41\\101', 'AA'), ['AA']);
  });

  it('has Python meanings for ^, $, ., \\w, \\d, \\s and \\b', () => {
    // `$` also matches before a final newline; `.` stops only at "\n".
    assert.deepEqual(all('a$', 'a\na\n'), ['a']);
    assert.deepEqual(all('.+', 'a\rb\nc'), ['a\rb', 'c']);
    // Unicode classes for str patterns: é is a word character, ٣ a digit, \x1c a space.
    assert.deepEqual(all('\\w+', 'héllo wörld'), ['héllo', 'wörld']);
    assert.deepEqual(all('\\d+', 'a1٣b'), ['1٣']);
    assert.deepEqual(all('\\s', 'a\u001cb'), ['\u001c']);
    assert.deepEqual(all('\\bé', 'é xé'), ['é']);
    assert.deepEqual(all('(?a)\\w+', 'héllo'), ['h', 'llo']);
    assert.deepEqual(all('(?i)s', 'ſS'), ['ſ', 'S']);
  });

  it('refuses what Python refuses, with its message', () => {
    fails('regex("a**")', /regex\(\): invalid regular expression "a\*\*": multiple repeat at position 2/);
    fails('regex("*a")', /nothing to repeat at position 0/);
    fails('regex("(?<=a+)b")', /look-behind requires fixed-width pattern/);
    fails('regex("[a")', /unterminated character set at position 0/);
    fails('regex("\\\\q")', /bad escape \\q at position 0/);
    fails('regex("(a)\\\\2")', /invalid group reference 2 at position 4/);
    fails('regex("a(?i)b")', /global flags not at the start of the expression at position 1/);
    fails('regex("(?P<a>x)(?P<a>y)")', /redefinition of group name 'a'/);
    // Hearth has no Unicode name table.
    fails('regex("\\\\N{EM DASH}")', /\\N\{\.\.\.\} escapes are not supported/);
  });

  it('bounds catastrophic backtracking by the evaluation steps', () => {
    const started = Date.now();
    fails(
      'regex("(a+)+b").matches($.data)',
      /evaluation exceeded the limit of 1000000 steps/,
      `${'a'.repeat(40)}c`,
    );
    assert.ok(Date.now() - started < 5000);
    // The same pattern on a string it matches quickly is fine.
    assert.equal(y('regex("(a+)+b").matches($.data)', `${'a'.repeat(40)}b`), true);
    // Matching costs steps in proportion to the work done.
    assert.throws(() => y('regex("a*b").matches($.data)', 'a'.repeat(5000), 100), /limit of 100 steps/);
  });

  it('matches long subjects without deep recursion', () => {
    const text = `${'x'.repeat(200_000)}end`;
    assert.equal(y('regex("(?:x|y)*end").matches($.data)', text, 10_000_000), true);
    assert.equal(y('regex(".*end$").search($.data, $.end)', text, 10_000_000), 200_003);
  });
});
