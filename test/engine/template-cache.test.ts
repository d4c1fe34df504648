import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateCache } from '../../src/engine/templates.js';
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
});
