import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TemplateDigests } from '../../src/engine/core/digests.js';
import { decodeDigests, derivedFrom, encodeDigests } from '../../src/engine/core/digests-form.js';

/* The stored form of a template's digests (core/digests-form.ts): one line per resource. */

const d = (i: number) => String(i).padStart(16, 'A');

function digests(names: string[], requires: string[][], types?: string[]): TemplateDigests {
  return {
    context: 'c'.repeat(16),
    outputs: 'o'.repeat(16),
    table: {
      names,
      snippets: names.map((_, i) => d(i)),
      types: types ?? names.map(() => 'p:OS::Heat::Value'),
      requires,
    },
    disabled: ['off'],
    layout: { start: 40, end: 9000, indent: 2 },
  };
}

describe('digests stored one line per resource', () => {
  it('round-trips names and types with tabs, line breaks and quotes, and a table of none', () => {
    const odd = digests(
      ['a\tb', '"quoted', 'x\ny', 'r\r', 'plain'],
      [[], ['a\tb', 'x\ny'], ['"quoted'], [], ['r\r', 'plain']],
      ['p:T', 't:"x', 'u:z', 'p:T', 'p:T'],
    );
    assert.deepEqual(decodeDigests(encodeDigests(odd)), odd);
    const none = digests([], []);
    assert.deepEqual(decodeDigests(encodeDigests(none)), none);
    const { layout: _, ...noLayout } = none;
    assert.deepEqual(decodeDigests(encodeDigests(noLayout)), noLayout);
  });

  it('a resource changed changes its line alone; the summary is the first line', () => {
    const names = Array.from({ length: 50 }, (_, i) => `r${i}`);
    const requires = names.map((_, i) => (i % 10 === 0 ? [] : [`r${i - 1}`]));
    const before = encodeDigests(digests(names, requires)).split('\n');
    const changed = digests(names, requires);
    (changed.table.snippets as string[])[25] = 'Z'.repeat(16);
    const after = encodeDigests(changed).split('\n');
    assert.equal(after.length, 51);
    const differing = after.flatMap((line, i) => (line === before[i] ? [] : [i]));
    assert.deepEqual(differing, [26]);
    assert.equal(JSON.parse(after[0]!).v, 3);
  });

  it('digests derived from decoded ones are written as the old text patched: the same text as whole', () => {
    const names = Array.from({ length: 300 }, (_, i) => (i === 7 ? 'odd\tname' : `r${i}`));
    const requires = names.map((_, i) => (i % 10 === 0 ? [] : [names[i - 1]!]));
    const prev = decodeDigests(encodeDigests(digests(names, requires)))!;
    const derive = (change: (t: { snippets: string[]; types: string[]; requires: string[][] }) => void) => {
      const table = {
        names: [...prev.table.names],
        snippets: [...prev.table.snippets],
        types: [...prev.table.types],
        requires: prev.table.requires.map((r) => [...r]),
      };
      change(table);
      const next: TemplateDigests = { ...prev, table, layout: { start: 40, end: 9100, indent: 2 } };
      const whole = encodeDigests(structuredClone(next));
      derivedFrom(next, prev);
      return [encodeDigests(next), whole] as const;
    };
    const cases: ((t: { snippets: string[]; types: string[]; requires: string[][] }) => void)[] = [
      () => {},
      (t) => void (t.snippets[0] = 'Z'.repeat(16)),
      (t) => void (t.snippets[299] = 'Z'.repeat(16)),
      (t) => {
        t.snippets[8] = 'Y'.repeat(16);
        t.types[40] = 't:"nested.yaml';
        t.requires[41] = ['r3', 'odd\tname'];
      },
      (t) => void (t.requires[5] = ['missing']),
    ];
    for (const [i, change] of cases.entries()) {
      const [patched, whole] = derive(change);
      assert.equal(patched, whole, `case ${i}`);
    }
    assert.equal(decodeDigests(derive(cases[4]!)[0]), undefined, 'an unbound name: unreadable');
    // A partial bind lists its bound resources first: the text keeps the old order, same entries.
    const moved = (i: number) => [i, ...Array.from({ length: 300 }, (_, k) => k).filter((k) => k !== i)];
    const order = moved(150);
    const table = {
      names: order.map((k) => prev.table.names[k]!),
      snippets: order.map((k) => (k === 150 ? 'Q'.repeat(16) : prev.table.snippets[k]!)),
      types: order.map((k) => prev.table.types[k]!),
      requires: order.map((k) => prev.table.requires[k]!),
    };
    const next: TemplateDigests = { ...prev, table };
    const whole = decodeDigests(encodeDigests(structuredClone(next)))!;
    derivedFrom(next, prev);
    const text = encodeDigests(next);
    const patched = decodeDigests(text)!;
    assert.deepEqual(patched.table.names, prev.table.names, 'the old order');
    const entries = (t: TemplateDigests) =>
      new Map(
        t.table.names.map((name, k) => [name, [t.table.snippets[k], t.table.types[k], t.table.requires[k]]]),
      );
    assert.deepEqual(entries(patched), entries(whole));
    assert.equal(patched.table.snippets[150], 'Q'.repeat(16));
  });

  it('a name required but not bound is stored unreadable (the full comparison then)', () => {
    assert.equal(decodeDigests(encodeDigests(digests(['a'], [['missing']]))), undefined);
  });

  it('reads the JSON form stored before schema 26', () => {
    const v2 = JSON.stringify({
      v: 2,
      c: 'c'.repeat(16),
      o: 'o'.repeat(16),
      n: ['a', 'b'],
      d: d(0) + d(1),
      t: ['p:OS::Heat::Value'],
      k: [0, 0],
      r: ';0',
      x: ['off'],
      l: [40, 9000, 2],
    });
    assert.deepEqual(decodeDigests(v2), digests(['a', 'b'], [[], ['a']]));
    assert.equal(decodeDigests('garbage\nlines'), undefined);
  });
});
