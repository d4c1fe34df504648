import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forgiven, healVerdict } from '../../src/engine/reality/heal-policy.js';
import type { HealRecord } from '../../src/store/contract.js';

const BOUNDS = { limit: 3, windowMs: 60_000 };
const record = (attempts: number, lastAt: number): HealRecord => ({
  stackId: 's',
  resourceName: 'r',
  rootStackId: 's',
  attempts,
  lastAt,
});

describe('heal policy', () => {
  it('heals a resource never healed at once', () => {
    assert.deepEqual(healVerdict(undefined, 1000, 5, BOUNDS), { kind: 'heal', attempt: 1 });
  });

  it('waits the interval doubled per earlier heal before the next one', () => {
    assert.deepEqual(healVerdict(record(1, 10_000), 1000, 10_500, BOUNDS), { kind: 'wait', until: 11_000 });
    assert.deepEqual(healVerdict(record(1, 10_000), 1000, 11_000, BOUNDS), { kind: 'heal', attempt: 2 });
    assert.deepEqual(healVerdict(record(2, 10_000), 1000, 11_000, BOUNDS), { kind: 'wait', until: 12_000 });
    assert.deepEqual(healVerdict(record(2, 10_000), 1000, 12_000, BOUNDS), { kind: 'heal', attempt: 3 });
  });

  it('gives up at the limit, however long ago the last heal was', () => {
    assert.deepEqual(healVerdict(record(3, 0), 1000, 10_000_000, BOUNDS), { kind: 'exhausted', attempts: 3 });
  });

  it('forgets heals only after a whole window in sync', () => {
    assert.equal(forgiven(record(2, 10_000), 69_999, BOUNDS), false);
    assert.equal(forgiven(record(2, 10_000), 70_000, BOUNDS), true);
  });
});
