import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stringify as yamlStringify } from 'yaml';
import { TemplateError, type TemplateErrorKind } from '../../src/template/errors.js';
import { withLimits } from '../../src/template/limits.js';
import { parseSource, parseSourceSteps, type SourceDocument } from '../../src/template/source.js';
import { runToEnd } from '../../src/util/loop-slice.js';
import { isPlainObject, jsonEqual } from '../../src/util/json.js';

/** Asserts that `run` throws a TemplateError of `kind`, and returns it for further checks. */
function templateError(run: () => unknown, kind: TemplateErrorKind): TemplateError {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof TemplateError, `expected a TemplateError, got ${String(caught)}`);
  assert.equal(caught.kind, kind, caught.message);
  return caught;
}

/** Runs `run`, accepting success or a TemplateError; anything else thrown fails the test. */
function parsesOrTemplateError<T>(run: () => T): T | TemplateError {
  try {
    return run();
  } catch (err) {
    if (err instanceof TemplateError) return err;
    throw err;
  }
}

/** Whether `value` is made only of JSON types: plain objects, arrays and primitives. */
function isJsonData(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number' && Number.isFinite(item)) continue;
    if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (isPlainObject(item)) for (const child of Object.values(item)) stack.push(child);
    else return false;
  }
  return true;
}

function assertNotPolluted(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(Object.prototype), []);
}

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  web:
    type: OS::Nova::Server
    properties:
      networks:
        - port: p1
        - {port: p2, fixed_ip: 10.0.0.1}
`;

describe('parseSource: YAML 1.1 as Heat reads it', () => {
  it('reads yes/no/on/off in any of their spellings as booleans', () => {
    const { data, format } = parseSource(
      't.yaml',
      'a: yes\nb: no\nc: on\nd: off\ne: Yes\nf: NO\ng: ON\nh: Off\n',
    );
    assert.equal(format, 'yaml');
    assert.deepEqual(data, { a: true, b: false, c: true, d: false, e: true, f: false, g: true, h: false });
  });

  it('keeps y and n as strings, as PyYAML does', () => {
    assert.deepEqual(parseSource('t.yaml', 'a: y\nb: n\n').data, { a: 'y', b: 'n' });
  });

  it('keeps dates and timestamps as strings, so a template version is a string', () => {
    const { data } = parseSource('t.yaml', 'v: 2018-08-31\nt: 2001-12-14t21:59:43.10-05:00\n');
    assert.deepEqual(data, { v: '2018-08-31', t: '2001-12-14t21:59:43.10-05:00' });
  });

  it('reads YAML 1.1 numbers', () => {
    assert.deepEqual(parseSource('t.yaml', 'a: 010\nb: 0x1F\nc: 1_000\nd: 1.5e3\ne: ~\n').data, {
      a: 8,
      b: 31,
      c: 1000,
      d: 1500,
      e: null,
    });
  });

  it('returns only JSON data, whatever the tags', {}, () => {
    for (const text of ['a: !!binary aGVsbG8=\n', 'a: !!set {x, y}\n', 'a: !!omap [x: 1]\n']) {
      const result = parsesOrTemplateError(() => parseSource('t.yaml', text));
      if (!(result instanceof TemplateError)) assert.ok(isJsonData(result.data), text);
    }
  });

  it('lets a later duplicate key win and resolves merge keys', () => {
    assert.deepEqual(parseSource('t.yaml', 'a: 1\na: 2\n').data, { a: 2 });
    assert.deepEqual(parseSource('t.yaml', 'base: &b {p: 1, q: 1}\nuse:\n  <<: *b\n  q: 2\n').data, {
      base: { p: 1, q: 1 },
      use: { p: 1, q: 2 },
    });
  });

  it('reads an empty document as null', () => {
    assert.equal(parseSource('t.yaml', '').data, null);
    assert.equal(parseSource('t.yaml', '# only a comment\n').data, null);
  });

  it('parses the whole template', () => {
    const { data } = parseSource('t.yaml', TEMPLATE);
    assert.deepEqual(data, {
      heat_template_version: '2018-08-31',
      resources: {
        web: {
          type: 'OS::Nova::Server',
          properties: { networks: [{ port: 'p1' }, { port: 'p2', fixed_ip: '10.0.0.1' }] },
        },
      },
    });
  });
});

describe('parseSource: JSON', () => {
  it('treats text that starts with { as JSON', () => {
    const doc = parseSource('t.json', '{"a": "yes", "v": "2018-08-31", "n": [1, 2.5, null, true]}');
    assert.equal(doc.format, 'json');
    assert.deepEqual(doc.data, { a: 'yes', v: '2018-08-31', n: [1, 2.5, null, true] });
  });

  it('reads text with whitespace before the { as YAML, as Heat does', () => {
    const doc = parseSource('t.json', '\n  {"a": 1, "b": yes}');
    assert.equal(doc.format, 'yaml');
    assert.deepEqual(doc.data, { a: 1, b: true });
  });

  it('reads JSON that starts with a byte order mark', () => {
    assert.deepEqual(parseSource('t.json', '\uFEFF{"a": 1}').data, { a: 1 });
  });

  it('reads JSON strictly: a YAML-only value is an error', () => {
    templateError(() => parseSource('t.json', '{"a": yes}'), 'syntax');
  });

  it('reads text that starts with anything else as YAML', () => {
    const doc = parseSource('t.yaml', '[1, {"a": yes}]');
    assert.equal(doc.format, 'yaml');
    assert.deepEqual(doc.data, [1, { a: true }]);
  });
});

describe('parseSource: syntax errors', () => {
  it('names the file, line and column of a YAML error', () => {
    const err = templateError(() => parseSource('stack.yaml', 'a: 1\nb: [1, 2\nc: 3\n'), 'syntax');
    assert.equal(err.file, 'stack.yaml');
    assert.deepEqual(err.position, { line: 3, column: 1 });
    assert.match(err.message, /^stack\.yaml:3:1: invalid YAML: /);
  });

  it('points at a bad indentation', () => {
    const err = templateError(() => parseSource('t.yaml', 'a:\n  - 1\n  b: 2\n'), 'syntax');
    assert.deepEqual(err.position, { line: 3, column: 1 });
  });

  it('names the file, line and column of a JSON error', () => {
    const err = templateError(() => parseSource('stack.json', '{\n  "a": 1,\n  "b" 2\n}'), 'syntax');
    assert.equal(err.file, 'stack.json');
    assert.deepEqual(err.position, { line: 3, column: 7 });
    assert.match(err.message, /^stack\.json:3:7: invalid JSON: /);
  });

  it('points at an unterminated JSON string', () => {
    const err = templateError(() => parseSource('t.json', '{\n  "a": "x\n}'), 'syntax');
    assert.equal(err.position?.line, 3);
  });

  it('rejects several documents in one file', () => {
    const err = templateError(() => parseSource('t.yaml', 'a: 1\n---\nb: 2\n'), 'syntax');
    assert.equal(err.position?.line, 2);
  });

  it('reports an alias without an anchor as a syntax error', {}, () => {
    templateError(() => parseSource('t.yaml', 'a: *nope\n'), 'syntax');
  });

  it('reports a merge of a scalar as a syntax error', () => {
    templateError(() => parseSource('t.yaml', 'a:\n  <<: 1\n'), 'syntax');
  });

  it('gives the line and column of a JSON trailing comma', {}, () => {
    // The YAML parser used to locate JSON errors accepts the trailing comma, so no position is found.
    const err = templateError(() => parseSource('t.json', '{"a": 1,}'), 'syntax');
    assert.deepEqual(err.position, { line: 1, column: 9 });
  });
});

describe('SourceDocument.positionOf', () => {
  const doc = parseSource('t.yaml', TEMPLATE);

  it('points at the root and at top-level keys', () => {
    assert.deepEqual(doc.positionOf([]), { line: 1, column: 1 });
    assert.deepEqual(doc.positionOf(['heat_template_version']), { line: 1, column: 1 });
    assert.deepEqual(doc.positionOf(['resources']), { line: 2, column: 1 });
  });

  it('points at nested map keys', () => {
    assert.deepEqual(doc.positionOf(['resources', 'web']), { line: 3, column: 3 });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'type']), { line: 4, column: 5 });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks']), { line: 6, column: 7 });
  });

  it('points at list items and at keys inside them', () => {
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks', 0]), {
      line: 7,
      column: 11,
    });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks', 0, 'port']), {
      line: 7,
      column: 11,
    });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks', 1]), {
      line: 8,
      column: 11,
    });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks', 1, 'fixed_ip']), {
      line: 8,
      column: 22,
    });
  });

  it('falls back to the nearest existing ancestor', () => {
    assert.deepEqual(doc.positionOf(['resources', 'missing', 'type']), { line: 2, column: 1 });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks', 5]), {
      line: 6,
      column: 7,
    });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'type', 'deeper']), { line: 4, column: 5 });
    assert.deepEqual(doc.positionOf(['resources', 'web', 'properties', 'networks', 'x']), {
      line: 6,
      column: 7,
    });
  });

  it('follows aliases to their anchor', () => {
    const aliased = parseSource('t.yaml', 'base: &b\n  x: 1\nuse: *b\n');
    assert.deepEqual(aliased.positionOf(['use']), { line: 3, column: 1 });
    assert.deepEqual(aliased.positionOf(['use', 'x']), { line: 2, column: 3 });
  });

  it('finds keys that YAML 1.1 reads as other types by their string form', () => {
    const odd = parseSource('t.yaml', 'x: 0\nyes: 1\n2: 2\n');
    assert.deepEqual(odd.data, { x: 0, true: 1, '2': 2 });
    assert.deepEqual(odd.positionOf(['true']), { line: 2, column: 1 });
    assert.deepEqual(odd.positionOf(['2']), { line: 3, column: 1 });
  });

  it('points into JSON documents', () => {
    const json = parseSource(
      't.json',
      '{\n  "resources": {\n    "web": {"type": "X"}\n  },\n  "list": [1,\n    2]\n}',
    );
    assert.deepEqual(json.positionOf(['resources', 'web', 'type']), { line: 3, column: 13 });
    assert.deepEqual(json.positionOf(['list', 1]), { line: 6, column: 5 });
  });

  it('has no position in an empty document', () => {
    assert.equal(parseSource('t.yaml', '').positionOf(['a']), undefined);
  });

  it('points at the duplicate key that won', {}, () => {
    const dup = parseSource('t.yaml', 'a: 1\na:\n  b: x\n');
    assert.deepEqual(dup.data, { a: { b: 'x' } });
    assert.deepEqual(dup.positionOf(['a']), { line: 2, column: 1 });
    assert.deepEqual(dup.positionOf(['a', 'b']), { line: 3, column: 3 });
  });
});

describe('SourceDocument.annotate', () => {
  const doc = parseSource('stack.yaml', TEMPLATE);

  it('fills in the file and the position of the error path', () => {
    const err = new TemplateError('schema', 'unknown type', ['resources', 'web', 'type']);
    assert.equal(doc.annotate(err), err);
    assert.equal(err.file, 'stack.yaml');
    assert.deepEqual(err.position, { line: 4, column: 5 });
    assert.equal(err.message, 'stack.yaml:4:5: resources.web.type: unknown type');
    assert.equal(err.detail, 'unknown type');
  });

  it('locates list items in the path', () => {
    const err = doc.annotate(
      new TemplateError('property', 'bad ip', ['resources', 'web', 'properties', 'networks', 1]),
    );
    assert.equal(err.message, 'stack.yaml:8:11: resources.web.properties.networks[1]: bad ip');
  });

  it('keeps an error that already names another file', () => {
    const err = doc.annotate(new TemplateError('schema', 'bad', ['resources'], { file: 'nested.yaml' }));
    assert.equal(err.file, 'nested.yaml');
    assert.equal(err.position, undefined);
    assert.equal(err.message, 'nested.yaml: resources: bad');
  });

  it('keeps a position the error already had', () => {
    const err = doc.annotate(
      new TemplateError('schema', 'bad', ['resources'], { position: { line: 9, column: 2 } }),
    );
    assert.equal(err.file, 'stack.yaml');
    assert.deepEqual(err.position, { line: 9, column: 2 });
  });

  it('passes any other error through untouched', () => {
    const err = new Error('boom');
    assert.equal(doc.annotate(err), err);
    assert.equal(err.message, 'boom');
    assert.equal(doc.annotate('text'), 'text');
  });
});

describe('parseSource: limits', () => {
  it('limits the size in UTF-8 bytes', () => {
    const text = 'a: é'; // 5 bytes, 4 characters
    assert.deepEqual(parseSource('t.yaml', text, withLimits({ maxDocumentBytes: 5 })).data, { a: 'é' });
    const err = templateError(
      () => parseSource('t.yaml', text, withLimits({ maxDocumentBytes: 4 })),
      'limit',
    );
    assert.equal(err.file, 't.yaml');
    assert.match(err.message, /Template size \(5 bytes\) exceeds maximum allowed size \(4 bytes\)/);
  });

  it('limits the nesting depth of YAML and JSON', () => {
    const limits = withLimits({ maxDocumentDepth: 2 });
    assert.deepEqual(parseSource('t.yaml', '[[1]]', limits).data, [[1]]);
    assert.deepEqual(parseSource('t.json', '{"a": {"b": 1}}', limits).data, { a: { b: 1 } });
    templateError(() => parseSource('t.yaml', '[[[1]]]', limits), 'limit');
    templateError(() => parseSource('t.json', '{"a": {"b": {"c": 1}}}', limits), 'limit');
  });

  it('limits the number of nodes', () => {
    const limits = withLimits({ maxDocumentNodes: 3 });
    assert.deepEqual(parseSource('t.yaml', '[1, 2]', limits).data, [1, 2]);
    templateError(() => parseSource('t.yaml', '[1, 2, 3]', limits), 'limit');
    templateError(() => parseSource('t.json', '{"a": 1, "b": 2, "c": 3}', limits), 'limit');
  });

  it('counts the nodes of expanded aliases', () => {
    // root + a [3 items] + b [a, a] = 1 + 4 + (1 + 2 * 4) = 14 nodes
    const text = 'a: &a [1, 2, 3]\nb: [*a, *a]\n';
    assert.ok(parseSource('t.yaml', text, withLimits({ maxDocumentNodes: 14 })));
    templateError(() => parseSource('t.yaml', text, withLimits({ maxDocumentNodes: 13 })), 'limit');
  });

  it('limits alias expansions', () => {
    templateError(() => parseSource('t.yaml', 'a: &a 1\nb: *a\n', withLimits({ maxAliasCount: 0 })), 'limit');
    assert.deepEqual(parseSource('t.yaml', 'a: &a 1\nb: [*a, *a]\n').data, { a: 1, b: [1, 1] });
  });

  it('stops a billion-laughs document', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [name, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
    ]) {
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const err = templateError(() => parseSource('laughs.yaml', lines.join('\n')), 'limit');
    assert.equal(err.file, 'laughs.yaml');
  });

  it('reads a document with aliases that PyYAML reads and the strict parser refuses', () => {
    // A quoted scalar continued on unindented lines (heat-templates' MultiNode_DevStack.yaml).
    const text = 'd: "one\ntwo"\na: &a {x: 1}\nb: *a\n';
    assert.deepEqual(parseSource('t.yaml', text).data, { d: 'one two', a: { x: 1 }, b: { x: 1 } });
    // Expanded, never shared: the two places are two values.
    const data = parseSource('t.yaml', text).data as Record<string, unknown>;
    assert.notEqual(data.a, data.b);
  });

  it('refuses such a document when its aliases would expand past the node limit', () => {
    const lines = ['d: "one', 'two"', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [name, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['e', 'c'],
      ['f', 'e'],
      ['g', 'f'],
      ['h', 'g'],
    ]) {
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    templateError(() => parseSource('laughs.yaml', lines.join('\n')), 'syntax');
  });

  it('stops an alias that contains itself', () => {
    templateError(() => parseSource('t.yaml', 'a: &a [*a]\n'), 'limit');
    templateError(() => parseSource('t.yaml', 'a: &a {b: *a}\n'), 'limit');
  });

  it('survives [[[[...]]]] nested 100,000 levels deep with a TemplateError', () => {
    const text = '['.repeat(100_000) + ']'.repeat(100_000);
    const err = parsesOrTemplateError(() => parseSource('deep.yaml', text));
    assert.ok(err instanceof TemplateError);
    assert.equal(err.file, 'deep.yaml');
  });

  it('reports [[[[...]]]] nested 100,000 levels deep as a limit', {}, () => {
    const text = '['.repeat(100_000) + ']'.repeat(100_000);
    templateError(() => parseSource('deep.yaml', text), 'limit');
  });

  it('reports a block mapping nested 5,000 levels deep as a limit', {}, () => {
    const text = Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n') + ' 1';
    templateError(() => parseSource('deep.yaml', text), 'limit');
  });

  it('reports JSON nested 100,000 levels deep as a limit', () => {
    const text = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    templateError(() => parseSource('deep.json', text), 'limit');
    const mixed = '{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    templateError(() => parseSource('deep.json', mixed), 'limit');
  });
});

describe('parseSource: prototype safety', () => {
  it('keeps a JSON __proto__ key as an own property', () => {
    const data = parseSource('t.json', '{"__proto__": {"polluted": 1}}').data as Record<string, unknown>;
    assertNotPolluted();
    assert.ok(Object.hasOwn(data, '__proto__'));
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(data, '__proto__')?.value, { polluted: 1 });
    assert.equal(data.polluted, undefined);
  });

  it('keeps a YAML __proto__ key as an own property', () => {
    for (const text of [
      '__proto__:\n  polluted: 1\n',
      '"__proto__": {polluted: 1}\n',
      '[{__proto__: {polluted: 1}}]',
    ]) {
      const parsed = parseSource('t.yaml', text).data;
      const data = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
      assertNotPolluted();
      assert.ok(Object.hasOwn(data, '__proto__'), text);
      assert.equal(Object.getPrototypeOf(data), Object.prototype);
      assert.equal(data.polluted, undefined);
    }
  });

  it('keeps __proto__ brought in by a merge key as an own property', () => {
    const data = parseSource('t.yaml', 'x: &x\n  __proto__: {polluted: 1}\ny:\n  <<: *x\n').data as Record<
      string,
      Record<string, unknown>
    >;
    assertNotPolluted();
    assert.ok(Object.hasOwn(data.y!, '__proto__'));
    assert.equal(Object.getPrototypeOf(data.y), Object.prototype);
  });

  it('keeps constructor and prototype keys as plain data', () => {
    for (const [file, text] of [
      ['t.json', '{"constructor": {"prototype": {"polluted": 1}}}'],
      ['t.yaml', 'constructor:\n  prototype:\n    polluted: 1\n'],
    ] as const) {
      const data = parseSource(file, text).data as Record<string, unknown>;
      assertNotPolluted();
      assert.ok(Object.hasOwn(data, 'constructor'));
      assert.deepEqual(data.constructor, { prototype: { polluted: 1 } });
    }
  });
});

/** Strings that stress a YAML parser: indicators, anchors, tags, directives, odd whitespace. */
const yamlish = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ':',
      ': ',
      '- ',
      ',',
      ' ',
      '  ',
      '\n',
      '\t',
      '\r\n',
      '&a ',
      '*a',
      '&b ',
      '*b',
      '!!str ',
      '!!binary ',
      '!!set ',
      '!!omap ',
      '!foo ',
      '<<',
      '"',
      "'",
      '\\',
      '#',
      '? ',
      '|',
      '>',
      '---',
      '...',
      '%YAML 1.1\n',
      '%TAG ! !x\n',
      'yes',
      '1',
      '0x',
      '2018-08-31',
      '.inf',
      '~',
      'a',
      '__proto__',
      'constructor',
      '\u2028',
      '\u0085',
      '\uFEFF',
      '\u0000',
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** JSON values whose strings use all of Unicode, lone surrogates included. */
const anyJson = fc.jsonValue({ stringUnit: 'binary' });

/** A JSON value as JSON.parse would return it (no -0, keys in insertion order). */
function canonical(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function assertJsonEqual(actual: unknown, expected: unknown): void {
  if (!jsonEqual(actual, expected)) assert.deepStrictEqual(actual, expected);
}

describe('parseSource properties', () => {
  it('reads any JSON object back as JSON.parse does', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: 'binary' }), anyJson),
        fc.constantFrom(undefined, 2),
        (value, indent) => {
          const text = JSON.stringify(value, null, indent);
          const doc = parseSource('t.json', text);
          assert.equal(doc.format, 'json');
          assertJsonEqual(doc.data, JSON.parse(text));
          assertNotPolluted();
        },
      ),
    );
  });

  it('reads any JSON value back equal, or raises a TemplateError', () => {
    fc.assert(
      fc.property(anyJson, fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const result = parsesOrTemplateError(() => parseSource('t.json', text));
        if (!(result instanceof TemplateError)) {
          assert.ok(isJsonData(result.data));
          assertJsonEqual(result.data, JSON.parse(text));
        }
        assertNotPolluted();
      }),
    );
  });

  it('reads any value written as YAML 1.1 back equal, or raises a TemplateError', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const text = yamlStringify(value, { version: '1.1' });
        const result = parsesOrTemplateError(() => parseSource('t.yaml', text));
        if (!(result instanceof TemplateError)) {
          assert.ok(isJsonData(result.data));
          assertJsonEqual(result.data, canonical(value));
        }
        assertNotPolluted();
      }),
    );
  });

  it('raises nothing but TemplateError on random text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), yamlish), (text) => {
        parsesOrTemplateError(() => parseSource('t', text));
        assertNotPolluted();
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a position, or none, for any path into any document', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyJson.map((value) => yamlStringify(value, { version: '1.1' })),
          yamlish,
        ),
        fc.array(fc.oneof(fc.string(), fc.nat(5)), { maxLength: 6 }),
        (text, path) => {
          const result = parsesOrTemplateError(() => parseSource('t', text));
          if (result instanceof TemplateError) return;
          const position = result.positionOf(path);
          if (position === undefined) return;
          const lines = text.split(/\r\n|\r|\n/).length;
          assert.ok(position.line >= 1 && position.line <= lines, `line ${position.line} of ${lines}`);
          assert.ok(position.column >= 1);
        },
      ),
    );
  });
});

describe('parseSourceSteps: a document parsed already (the CLI loader hands its parse to the engine)', () => {
  const text = 'heat_template_version: 2018-08-31\nresources:\n  a: {type: OS::Heat::None}\n';
  const parseWith = (parsed: SourceDocument, limits = withLimits(), file = 'a.yaml', source = text) =>
    runToEnd(parseSourceSteps(file, source, limits, undefined, parsed));

  it('measures the shape it checked: nodes, and the depth of the deepest container', () => {
    assert.deepEqual(parseSource('a.yaml', text).shape, { nodes: 5, depth: 3 });
    assert.deepEqual(parseSource('s.yaml', 'x').shape, { nodes: 1, depth: 0 });
  });

  it('takes the parsed data of the same file and text instead of parsing again', () => {
    const first = parseSource('a.yaml', text);
    assert.equal(parseWith(first).data, first.data);
  });

  it('parses again for another text or file', () => {
    const first = parseSource('a.yaml', text);
    assert.notEqual(parseWith(first, withLimits(), 'b.yaml').data, first.data);
    const other = `${text}# changed\n`;
    assert.notEqual(parseWith(first, withLimits(), 'a.yaml', other).data, first.data);
  });

  it('still refuses, with the same words, a document over tighter limits than the parse had', () => {
    const first = parseSource('a.yaml', text);
    const nodes = templateError(() => parseWith(first, withLimits({ maxDocumentNodes: 4 })), 'limit');
    assert.match(nodes.message, /more than 4 nodes/);
    const depth = templateError(() => parseWith(first, withLimits({ maxDocumentDepth: 2 })), 'limit');
    assert.match(depth.message, /nested deeper than 2 levels/);
    const bytes = templateError(() => parseWith(first, withLimits({ maxDocumentBytes: 10 })), 'limit');
    assert.match(bytes.message, /exceeds maximum allowed size/);
  });
});

describe('SourceDocument.release: a bound template lets its data go', () => {
  it('reads the same data back from the text afterwards, a new copy each time', () => {
    for (const [file, text] of [
      [
        'a.yaml',
        'heat_template_version: 2018-08-31\nresources:\n  a: {type: OS::Heat::None, properties: {n: 0777, b: yes}}\n',
      ],
      ['a.json', '{"heat_template_version": "2018-08-31", "resources": {"a": {"type": "OS::Heat::None"}}}'],
      ['s.yaml', 'plain'],
      ['x.yaml', 'base: &b {type: OS::Heat::None}\nother: *b\n'],
    ] as const) {
      const doc = parseSource(file, text, withLimits({ maxDocumentDepth: 4 }));
      const before = doc.data;
      doc.release();
      assert.deepEqual(doc.data, before);
      if (before !== null && typeof before === 'object') assert.notEqual(doc.data, before);
    }
  });
});
