import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import { template, withStore } from './fixtures.js';

/** A block-style template of n one-line resources; `changed` gives resource i another value. */
function bigText(n: number, changed = -1): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    lines.push(`  r${i}: {type: OS::Heat::Value, properties: {value: ${i === changed ? 'other' : 'a'}}}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Digests-like text: one line per resource (engine/core/digests.ts's stored form). */
function digestText(n: number, changed = -1): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(`r${i}\t${i === changed ? 'BBBBBBBBBBBBBBBB' : 'AAAAAAAAAAAAAAAA'}\tp:OS::Heat::Value`);
  return `{"v":3}\n${lines.join('\n')}`;
}

/**
 * Template versions share their unchanged pieces (store/sql/template-text.ts): what a version
 * adds is what it changed; what no template names any more goes with the last one naming it.
 */
export function templatesContract(
  open: () => Promise<Store>,
  openPair?: () => Promise<[Store, Store]>,
): void {
  describe('templates in pieces', () => {
    it('round-trips texts of every shape: empty, CRLF, non-ASCII, one long line, pieces cut inside a line', () =>
      withStore(open, async (store) => {
        const emoji = '\u{1F525}'.repeat(200_000); // surrogate pairs, one line far over a piece's bound
        const texts = [
          '',
          'heat_template_version: 2018-08-31\r\nresources:\r\n  a: {type: OS::Heat::None}\r\n',
          `description: "Zürich — 東京 ${emoji}"\nresources: {}\n`,
          `{"heat_template_version": "2018-08-31", "resources": {${Array.from({ length: 20_000 }, (_, i) => `"r${i}": {"type": "OS::Heat::None"}`).join(', ')}}}`,
          `${bigText(5_000).replace(/\n/g, '\r\n')}é`,
          ' \n\n   \n',
        ];
        for (const [i, text] of texts.entries()) {
          const record = template({ id: `t${i}`, template: text });
          const digests = i % 2 === 0 ? digestText(3_000 + i) : undefined;
          await store.tx((tx) => tx.templates.insert(record, 'root', digests));
          assert.deepEqual(await store.tx((tx) => tx.templates.get(`t${i}`)), record, `text ${i}`);
          assert.equal(await store.tx((tx) => tx.templates.digests(`t${i}`)), digests, `digests ${i}`);
        }
        for (let i = 0; i < texts.length; i++) await store.tx((tx) => tx.templates.delete(`t${i}`));
        assert.deepEqual(await store.tx((tx) => tx.templates.footprint('root')), {
          pieces: 0,
          chars: 0,
          bytes: 0,
        });
      }));

    it('keeps short texts in their row: no pieces, nothing shared between sibling stacks', () =>
      withStore(open, async (store) => {
        const record = template({ id: 'short', template: bigText(50) });
        await store.tx((tx) => tx.templates.insert(record, 'root', digestText(50)));
        assert.deepEqual(await store.tx((tx) => tx.templates.get('short')), record);
        assert.equal(await store.tx((tx) => tx.templates.digests('short')), digestText(50));
        assert.equal((await store.tx((tx) => tx.templates.footprint('root'))).pieces, 0);
      }));

    it('stores what a new version changed only, and keeps the pieces another template still names', () =>
      withStore(open, async (store) => {
        const n = 20_000;
        const first = template({ id: 'v1', template: bigText(n) });
        await store.tx((tx) => tx.templates.insert(first, 'root', digestText(n)));
        const one = await store.tx((tx) => tx.templates.footprint('root'));
        assert.ok(one.pieces >= 10, `a big text is cut into pieces (${one.pieces})`);
        assert.ok(one.bytes < one.chars / 3, `pieces are stored deflated (${one.bytes} of ${one.chars})`);
        const second = template({ id: 'v2', template: bigText(n, n / 2) });
        await store.tx((tx) => tx.templates.insert(second, 'root', digestText(n, n / 2)));
        const two = await store.tx((tx) => tx.templates.footprint('root'));
        // One piece of the text and one of the digests changed (a neighbour's too, at worst).
        assert.ok(two.pieces - one.pieces <= 4, `${two.pieces - one.pieces} pieces added`);
        assert.ok(
          two.chars - one.chars < one.chars / 10,
          `${two.chars - one.chars} of ${one.chars} characters added`,
        );
        // Another tree shares nothing with this one.
        assert.deepEqual(await store.tx((tx) => tx.templates.footprint('other-root')), {
          pieces: 0,
          chars: 0,
          bytes: 0,
        });
        await store.tx((tx) => tx.templates.delete('v1'));
        assert.deepEqual(await store.tx((tx) => tx.templates.get('v2')), second);
        assert.equal(await store.tx((tx) => tx.templates.digests('v2')), digestText(n, n / 2));
        const left = await store.tx((tx) => tx.templates.footprint('root'));
        assert.equal(left.chars, second.template.length + digestText(n).length, 'only what v2 names is left');
        await store.tx((tx) => tx.templates.delete('v2'));
        await store.tx((tx) => tx.templates.delete('v2'));
        assert.equal((await store.tx((tx) => tx.templates.footprint('root'))).pieces, 0);
      }));

    it('a retried insert adds nothing twice; a piece twice in one text is counted once', () =>
      withStore(open, async (store) => {
        // One line three times a piece's bound: cut into three equal pieces, one stored (the
        // digests, short, stay in the row).
        const record = template({ id: 'twice', template: 'x'.repeat(3 * 256 * 1024) });
        for (let i = 0; i < 3; i++) await store.tx((tx) => tx.templates.insert(record, 'root', 'd'));
        assert.deepEqual(await store.tx((tx) => tx.templates.footprint('root')), {
          ...(await store.tx((tx) => tx.templates.footprint('root'))),
          pieces: 1,
          chars: 256 * 1024,
        });
        assert.deepEqual(await store.tx((tx) => tx.templates.get('twice')), record);
        await store.tx((tx) => tx.templates.delete('twice'));
        assert.equal((await store.tx((tx) => tx.templates.footprint('root'))).pieces, 0);
      }));

    it('a deleted and a new template sharing pieces in one transaction keep them', () =>
      withStore(open, async (store) => {
        await store.tx((tx) =>
          tx.templates.insert(template({ id: 'old', template: bigText(10_000) }), 'root'),
        );
        const next = template({ id: 'new', template: bigText(10_000, 3) });
        await store.tx(async (tx) => {
          await tx.templates.delete('old');
          await tx.templates.insert(next, 'root');
        });
        assert.deepEqual(await store.tx((tx) => tx.templates.get('new')), next);
        const left = await store.tx((tx) => tx.templates.footprint('root'));
        assert.equal(left.chars, next.template.length);
      }));

    if (openPair) {
      it('two stores, one deleting a version while the other stores the next: no piece is lost', async () => {
        const [a, b] = await openPair();
        try {
          const n = 10_000;
          await a.tx((tx) => tx.templates.insert(template({ id: 'v0', template: bigText(n) }), 'root'));
          for (let round = 1; round <= 6; round++) {
            const next = template({ id: `v${round}`, template: bigText(n, round) });
            // The store that adds v<round> and the one that deletes v<round-1> race.
            await Promise.all([
              b.tx((tx) => tx.templates.insert(next, 'root', digestText(n, round))),
              a.tx((tx) => tx.templates.delete(`v${round - 1}`)),
            ]);
            assert.deepEqual(await a.tx((tx) => tx.templates.get(next.id)), next, `round ${round}`);
            assert.equal(await a.tx((tx) => tx.templates.digests(next.id)), digestText(n, round));
          }
          const left = await a.tx((tx) => tx.templates.footprint('root'));
          assert.equal(left.chars, bigText(n, 6).length + digestText(n, 6).length, 'nothing stale is left');
        } finally {
          await a.close();
          await b.close();
        }
      });
    }
  });
}
