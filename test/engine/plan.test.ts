import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { byDepth, chooseRows, type DesiredResource } from '../../src/engine/core/plan.js';
import type { ResourceHead } from '../../src/store/contract.js';

const want = (name: string, ...requires: string[]): DesiredResource => ({ name, type: 'T', requires });

function head(id: number, name: string, changes: Partial<ResourceHead> = {}): ResourceHead {
  return {
    id,
    name,
    type: 'T',
    action: 'CREATE',
    status: 'COMPLETE',
    physicalId: `p${id}`,
    requires: [],
    replacedBy: null,
    engineId: null,
    atomicKey: 1,
    templateId: 't1',
    ...changes,
  };
}

describe('byDepth', () => {
  it('puts each depth of chains together, in template order within a depth', () => {
    const chains = [want('a0'), want('a1', 'a0'), want('a2', 'a1'), want('b0'), want('b1', 'b0')];
    assert.deepEqual(
      byDepth(chains).map((r) => r.name),
      ['a0', 'b0', 'a1', 'b1', 'a2'],
    );
  });

  it('takes the longest path to a resource as its depth and ignores names outside the list', () => {
    const diamond = [
      want('d', 'b', 'c'),
      want('c', 'a'),
      want('b', 'a', 'outside'),
      want('a'),
      want('e', 'c'),
    ];
    assert.deepEqual(
      byDepth(diamond).map((r) => r.name),
      ['a', 'c', 'b', 'd', 'e'],
    );
  });

  it('orders every resource after all it requires (random graphs)', () => {
    const graph = fc
      .integer({ min: 1, max: 40 })
      .chain((n) =>
        fc.array(fc.array(fc.nat({ max: n - 1 }), { maxLength: 4 }), { minLength: n, maxLength: n }),
      );
    fc.assert(
      fc.property(graph, (deps) => {
        // Only edges to lower indexes: an acyclic graph, as validated templates are.
        const resources = deps.map((reqs, i) =>
          want(`r${i}`, ...reqs.filter((j) => j < i).map((j) => `r${j}`)),
        );
        const order = byDepth([...resources].reverse());
        const position = new Map(order.map((r, i) => [r.name, i]));
        assert.equal(order.length, resources.length);
        for (const r of resources)
          for (const req of r.requires) assert.ok(position.get(req)! < position.get(r.name)!);
      }),
    );
  });
});

describe('chooseRows', () => {
  it('gives the name to a replacement that exists and did not fail', () => {
    const rows = [head(1, 'web', { replacedBy: 2 }), head(2, 'web', { action: 'UPDATE' })];
    const { chosen, obsolete } = chooseRows([want('web')], rows);
    assert.equal(chosen.get('web')!.id, 2);
    assert.deepEqual(
      obsolete.map((r) => r.id),
      [1],
    );
  });

  it('keeps the original when its replacement failed (as Heat does)', () => {
    const rows = [head(1, 'web', { replacedBy: 2 }), head(2, 'web', { status: 'FAILED', templateId: 't2' })];
    const { chosen, obsolete } = chooseRows([want('web')], rows, 't3');
    assert.equal(chosen.get('web')!.id, 1);
    assert.deepEqual(
      obsolete.map((r) => r.id),
      [2],
    );
  });

  it('on rollback takes the row already converged to the target template', () => {
    const rows = [head(1, 'web', { replacedBy: 2, templateId: 't1' }), head(2, 'web', { templateId: 't2' })];
    assert.equal(chooseRows([want('web')], rows, 't1').chosen.get('web')!.id, 1);
    assert.equal(chooseRows([want('web')], rows, 't3').chosen.get('web')!.id, 2);
  });

  it('reports names without a row as missing', () => {
    const { missing } = chooseRows([want('web'), want('db')], [head(1, 'web')]);
    assert.deepEqual(
      missing.map((r) => r.name),
      ['db'],
    );
  });
});
