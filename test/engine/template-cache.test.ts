import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateCache } from '../../src/engine/core/templates.js';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import type { TemplateRecord } from '../../src/store/contract.js';
import { DEFAULT_LIMITS } from '../../src/template/limits.js';

function record(id: string, resources: number): TemplateRecord {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < resources; i++) lines.push(`  r${i}: {type: OS::Heat::None}`);
  return {
    id,
    template: `${lines.join('\n')}\n`,
    url: 'file:///t.yaml',
    files: {},
    environment: {},
    createdAt: '2026-11-21T00:00:00.000Z',
  };
}

const stack = { stackId: 's', stackName: 's', projectId: 'p' };

describe('template cache', () => {
  it('keeps a bound definition per template and stack, and evicts by resources held', () => {
    const cache = new TemplateCache(pluginCatalog(builtinPlugins()).typeCatalog, DEFAULT_LIMITS, 10, 25);
    const a = cache.get(record('a', 10), stack);
    assert.equal(cache.get(record('a', 10), stack), a, 'a hit returns the same definition');
    cache.get(record('b', 10), stack);
    assert.ok(cache.peek('a', 's') && cache.peek('b', 's'), '20 resources fit');
    cache.get(record('a', 10), stack); // a is now the most recently used
    cache.get(record('c', 10), stack);
    assert.equal(cache.peek('b', 's'), undefined, 'the least recently used went');
    assert.ok(cache.peek('a', 's') && cache.peek('c', 's'));
    cache.get(record('big', 40), stack);
    assert.ok(cache.peek('big', 's'), 'the newest stays even alone over the limit');
    assert.equal(cache.peek('a', 's'), undefined);
    assert.equal(cache.peek('c', 's'), undefined);
  });

  it('lookup reads the record only on a miss, and binds it once', async () => {
    const cache = new TemplateCache(pluginCatalog(builtinPlugins()).typeCatalog, DEFAULT_LIMITS);
    const reads: string[] = [];
    const read = async (id: string) => (reads.push(id), id === 'gone' ? undefined : record(id, 2));
    const first = await cache.lookup('a', stack, read);
    assert.equal(first?.resources.size, 2);
    assert.equal(await cache.lookup('a', stack, read), first, 'a hit: the same definition');
    assert.equal(cache.get(record('a', 2), stack), first, 'shared with get');
    assert.deepEqual(reads, ['a']);
    assert.equal(await cache.lookup('gone', stack, read), undefined);
    assert.notEqual(await cache.lookup('a', { ...stack, stackId: 'other' }, read), first, 'per stack');
    assert.deepEqual(reads, ['a', 'gone', 'a']);
  });

  it('holds a thousand small definitions (an API server shows many stacks in turn)', () => {
    const cache = new TemplateCache(pluginCatalog(builtinPlugins()).typeCatalog, DEFAULT_LIMITS);
    const small = record('t', 2);
    for (let i = 0; i < 1000; i++) cache.get(small, { ...stack, stackId: `s${i}` });
    assert.ok(cache.peek('t', 's0'), 'the first is still there');
  });
});
