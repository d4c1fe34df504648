import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outputsOf } from '../../src/engine/node-work.js';
import type { Cloud } from '../../src/openstack/index.js';
import type { PluginContext, ResourcePlugin } from '../../src/resources/contract.js';

/** A cloud that counts its requests and answers a GET with the path it was asked. */
function countingCloud(fail = new Set<string>()) {
  const calls: string[] = [];
  const cloud = {
    async request(service: string, method: string, path: string) {
      calls.push(`${method} ${service} ${path}`);
      if (fail.has(path)) {
        fail.delete(path);
        throw new Error(`${path} failed once`);
      }
      return { status: 200, headers: {}, body: { path } };
    },
  } as unknown as Cloud;
  return { cloud, calls };
}

/** A type whose every attribute reads the live object, as the OpenStack types do. */
const plugin = {
  attributes: { name: {}, status: {}, tenant_id: {}, show: {} },
  async attribute(ctx: PluginContext, name: string) {
    const r = await ctx
      .openstack()
      .request<{ path: string }>('network', 'GET', `/v2.0/networks/${ctx.physicalId}`);
    if (name === 'status') await ctx.openstack().request('network', 'POST', '/v2.0/ping', {});
    return `${name}:${r.body.path}`;
  },
} as unknown as ResourcePlugin;

const context = (cloud: Cloud) => ({ physicalId: 'n1', openstack: () => cloud }) as unknown as PluginContext;

describe('attributes after an action read the live object once', () => {
  it('answers identical GETs once and sends everything else', async () => {
    const { cloud, calls } = countingCloud();
    const { attributes, refId } = await outputsOf(plugin, context(cloud), {});
    assert.deepEqual(attributes, {
      name: 'name:/v2.0/networks/n1',
      status: 'status:/v2.0/networks/n1',
      tenant_id: 'tenant_id:/v2.0/networks/n1',
    });
    assert.equal(refId, 'n1');
    assert.deepEqual(calls, ['GET network /v2.0/networks/n1', 'POST network /v2.0/ping']);
  });

  it('does not remember a failed read', async () => {
    const { cloud, calls } = countingCloud(new Set(['/v2.0/networks/n1']));
    await assert.rejects(outputsOf(plugin, context(cloud), {}), /failed once/);
    const { attributes } = await outputsOf(plugin, context(cloud), {});
    assert.equal(attributes.name, 'name:/v2.0/networks/n1');
    assert.equal(calls.filter((c) => c.startsWith('GET')).length, 2, 'the failed read, then one that worked');
  });
});
