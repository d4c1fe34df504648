import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { JsonDepthError, parseJsonSteps, stringifyJsonSteps } from '../../src/util/json-sliced.js';
import { runToEnd, type Sliceable } from '../../src/util/loop-slice.js';

const parse = (text: string, maxDepth?: number) => runToEnd(parseJsonSteps(text, maxDepth));

/** Runs sliceable work to its end, counting the points where it paused. */
function runCounting<T>(steps: Sliceable<T>): { pauses: number; value: T } {
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  return { pauses, value: step.value };
}

/** JSON.parse's outcome: the value, or that it threw a SyntaxError. */
function outcome(fn: () => unknown): { value: unknown } | { error: true } {
  try {
    return { value: fn() };
  } catch (err) {
    assert.ok(err instanceof SyntaxError, String(err));
    return { error: true };
  }
}

describe('parseJsonSteps: JSON.parse in slices', () => {
  it('gives what JSON.parse gives for any JSON value, however it is spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n'), (value, space) => {
        const text = JSON.stringify(value, null, space as string | number | undefined);
        assert.deepStrictEqual(parse(text), JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and refuses exactly the texts JSON.parse does', () => {
    const pieces = fc.constantFrom(
      ...[
        '{',
        '}',
        '[',
        ']',
        ',',
        ':',
        '"',
        '\\',
        'a',
        '"k"',
        '1',
        '-',
        '0',
        '.',
        'e',
        '+',
        'E',
        'true',
        'nul',
        'null',
        ' ',
        '\n',
        '\u0001',
        '\\u00e9',
        '\\x',
        '\\ud83d\\ude00',
      ],
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        const theirs = outcome(() => JSON.parse(text));
        const ours = outcome(() => parse(text));
        assert.deepStrictEqual(ours, theirs, JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps __proto__ as an own key, and lets a later duplicate key win', () => {
    const text = '{"__proto__": {"polluted": true}, "a": 1, "a": 2}';
    const ours = parse(text) as Record<string, unknown>;
    assert.deepStrictEqual(ours, JSON.parse(text));
    assert.equal(Object.getPrototypeOf(ours), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepStrictEqual(Object.keys(ours), ['__proto__', 'a']);
    assert.equal(ours.a, 2);
  });

  it('refuses containers deeper than the limit, at any depth without a stack overflow', () => {
    assert.deepStrictEqual(parse('[[1]]', 2), [[1]]);
    assert.throws(() => parse('[[[1]]]', 2), JsonDepthError);
    assert.throws(() => parse('{"a": {"b": {}}}', 2), JsonDepthError);
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    assert.throws(() => parse(deep, 1000), JsonDepthError);
    let depth = 0;
    for (let v = parse(deep); Array.isArray(v); v = v[0]) depth++;
    assert.equal(depth, 200_000);
  });

  it('pauses while parsing a big document', () => {
    const text = JSON.stringify({
      resources: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`r${i}`, { type: 'T' }])),
    });
    const { pauses, value } = runCounting(parseJsonSteps(text));
    assert.ok(pauses >= 5, `${pauses} pauses`);
    assert.deepStrictEqual(value, JSON.parse(text));
  });
});

describe('stringifyJsonSteps: JSON.stringify in slices', () => {
  it('writes what JSON.stringify writes for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.equal(runToEnd(stringifyJsonSteps(value)), JSON.stringify(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes what JSON.parse read, __proto__ keys and all, pausing on big values', () => {
    const text = `{"__proto__":{"a":[1,2,{}]},"b":[],"r":${JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ i })))}}`;
    const { pauses, value } = runCounting(stringifyJsonSteps(JSON.parse(text)));
    assert.ok(pauses >= 5, `${pauses} pauses`);
    assert.equal(value, text);
  });

  it('says the text is lossy exactly when it does not parse back equal (-0, numbers beyond a double)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const written = { lossy: false };
        const text = runToEnd(stringifyJsonSteps(value, written));
        assert.equal(written.lossy, !isDeepStrictEqual(JSON.parse(text), value));
      }),
      { numRuns: 1000 },
    );
    for (const value of [{ a: [-0] }, JSON.parse('{"n": 1e400}'), { n: -Infinity }]) {
      const written = { lossy: false };
      runToEnd(stringifyJsonSteps(value, written));
      assert.ok(written.lossy, JSON.stringify(value));
    }
  });
});
