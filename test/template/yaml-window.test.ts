import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { yamlChunks } from '../../src/template/yaml-chunks.js';
import { changedChunks, chunkLayout, commonEnds, editChunks } from '../../src/template/yaml-window.js';

const BASE = `heat_template_version: 2018-08-31
resources:
  a:
    type: OS::Heat::Value
    properties:
      value: |
        two
        lines
  # a comment
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, value]}}}

  c.d-e: {type: OS::Heat::Value}
  d: {type: OS::Heat::Value, properties: {value: d}}
outputs:
  o: {value: {get_attr: [b, value]}}
`;

/** The line kinds of a random template: resource key lines, then the lines that may follow one. */
const POOL = [
  '  r{i}: {type: OS::Heat::Value, properties: {value: v{i}}}',
  '  r{i}:',
  '    type: OS::Heat::Value',
  '    properties: {value: w{i}}',
  '',
  '  # note {i}',
];

/**
 * 300 random 12-resource templates (a seeded generator, so a failure replays), each with one to
 * three lines removed, inserted or replaced: the text before and after.
 */
function* randomEdits(seed: number, extra: string[] = []): Generator<{ before: string; text: string }> {
  const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const pool = [...POOL, ...extra];
  for (let round = 0; round < 300; round++) {
    const lines = ['heat_template_version: 2018-08-31', 'resources:'];
    for (let i = 0; i < 12; i++)
      lines.push(pool[random(2)]!.replaceAll('{i}', String(i)), pool[2 + random(pool.length - 2)]!);
    const before = [...lines, ...(random(2) ? ['outputs:', '  o: {value: 1}'] : [])].join('\n') + '\n';
    const after = before.split('\n');
    for (let edits = 1 + random(3); edits > 0; edits--) {
      const at = 2 + random(after.length - 3);
      const line = pool[random(pool.length)]!.replaceAll('{i}', String(random(20)));
      const kind = random(3);
      if (kind === 0) after.splice(at, 1);
      else if (kind === 1) after.splice(at, 0, line);
      else after[at] = line;
    }
    yield { before, text: after.join('\n') };
  }
}

/** What cutting both texts whole finds: the new text's chunks not the same in the old. */
function byWholeCut(before: string, text: string): Set<string> {
  const old = yamlChunks(before)!;
  const chunks = yamlChunks(text)!;
  return new Set(
    [...chunks.resources].filter(([name, chunk]) => old.resources.get(name) !== chunk).map(([n]) => n),
  );
}

function changed(before: string, text: string): Set<string> | undefined {
  return changedChunks(before, text, yamlChunks(text)!);
}

describe('changedChunks', () => {
  it('finds the changed, new and renamed resources as cutting both texts whole does', () => {
    const edits: [string, string][] = [
      ['value: d}', 'value: e}'],
      ['        lines\n', '        lines, more\n'],
      ['  b: {', '  bb: {'],
      ['  c.d-e: {type: OS::Heat::Value}\n', ''],
      [
        '  c.d-e: {type: OS::Heat::Value}\n',
        '  c.d-e: {type: OS::Heat::Value}\n  m: {type: OS::Heat::None}\n',
      ],
      ['  d: {type: OS::Heat::Value, properties: {value: d}}\n', ''],
      ['  a:\n', '  z: {type: OS::Heat::None}\n  a:\n'],
      ['\n\n  c.d-e', '\n  c.d-e'],
      ['# a comment', '# another comment'],
    ];
    for (const [from, to] of edits) {
      const text = BASE.replace(from, to);
      assert.ok(yamlChunks(text), `${from} -> ${to}`);
      assert.notEqual(text, BASE);
      const found = changed(BASE, text);
      assert.ok(found, `${from} -> ${to}`);
      assert.deepEqual([...found].sort(), [...byWholeCut(BASE, text)].sort(), `${from} -> ${to}`);
    }
    assert.deepEqual([...changed(BASE, BASE)!], []);
  });

  it('reads a template that ends with its resources, with or without a last newline', () => {
    const text = BASE.slice(0, BASE.indexOf('outputs:'));
    assert.deepEqual([...changed(text, text.replace('value: d}}\n', 'value: x}}\n'))!], ['d']);
    assert.deepEqual([...changed(text, text.trimEnd())!], []);
    assert.deepEqual([...changed(text, `${text}  e: {type: OS::Heat::None}\n`)!], ['e']);
    assert.deepEqual([...changed(`${text}  e: {type: OS::Heat::None}\n`, text)!], []);
  });

  it('declines a difference outside the resources or previous lines that are not plain chunks', () => {
    const declined = [
      BASE.replace('2018-08-31', '2021-04-16'),
      BASE.replace('get_attr: [b, value]', 'get_attr: [a, value]'),
      BASE.replace('outputs:\n', 'more:\n  x: 1\noutputs:\n'),
    ];
    for (const text of declined) assert.equal(changed(BASE, text), undefined, text);
    // The old lines had an anchor, or a top-level key, where the new ones differ.
    assert.equal(changed(BASE.replace('value: d}', 'value: &x d}'), BASE), undefined);
    assert.equal(changed(BASE.replace('  d: {', 'x: 1\n  d: {'), BASE), undefined);
  });

  it('compares texts from either end, past the blocks it compares at once', () => {
    const long = 'x'.repeat(10_000);
    assert.deepEqual(commonEnds(`${long}a${long}`, `${long}bc${long}`), { prefix: 10_000, suffix: 10_000 });
    assert.deepEqual(commonEnds('abc', 'abc'), { prefix: 3, suffix: 0 });
    assert.deepEqual(commonEnds('aXa', 'aa'), { prefix: 1, suffix: 1 });
  });

  it('agrees with cutting both texts whole on random line edits', () => {
    let agreed = 0;
    for (const { before, text } of randomEdits(7, ['      deeper: {i}'])) {
      if (!yamlChunks(before) || !yamlChunks(text)) continue;
      const found = changed(before, text);
      if (!found) continue;
      agreed++;
      assert.deepEqual([...found].sort(), [...byWholeCut(before, text)].sort(), `${before}\n---\n${text}`);
    }
    assert.ok(agreed > 100, `only ${agreed} comparisons`);
  });

  it('editChunks: the same changes from the stored layout alone, the removed and added names, each chunk by name', () => {
    let agreed = 0;
    for (const { before, text } of randomEdits(11)) {
      const old = yamlChunks(before);
      const now = yamlChunks(text);
      if (!old || !now) continue;
      const had = (name: string) => old.resources.has(name);
      const edit = editChunks(before, text, chunkLayout(old)!, had);
      if (!edit) continue;
      agreed++;
      const context = `${before}\n---\n${text}`;
      assert.deepEqual([...edit.changed].sort(), [...byWholeCut(before, text)].sort(), context);
      const gone = old.names.filter((name) => !now.resources.has(name));
      assert.deepEqual([...edit.removed].sort(), gone.sort(), context);
      assert.deepEqual(
        [...edit.added].sort(),
        now.names.filter((name) => !old.resources.has(name)).sort(),
        context,
      );
      assert.deepEqual(edit.layout, chunkLayout(now), context);
      for (const name of now.names) {
        const chunk: string = edit.chunkOf(name)!;
        assert.equal(chunk.trimEnd(), now.resources.get(name)!.trimEnd(), context);
      }
    }
    assert.ok(agreed > 100, `only ${agreed} comparisons`);
  });

  it('editChunks declines a name written again that the unchanged lines keep', () => {
    const text = BASE.replace('  d: {type', '  b: {type');
    const old = yamlChunks(BASE)!;
    assert.equal(
      editChunks(BASE, text, chunkLayout(old)!, (name) => old.resources.has(name)),
      undefined,
    );
  });
});
