import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HeatClient } from '../../src/client/heat-client.js';
import type { HeatEvent, HeatResource, StackId } from '../../src/client/types.js';
import { remoteClearHooks, remotePendingHooks } from '../../src/cli/backends/remote-hooks.js';

// Hooks over the API are read from events, as the openstack client reads them: a scripted server.

const BASE = 'http://h:1/v1/p/stacks';
const TOP = { name: 'h', id: 'h1' };
const CHILD = { name: 'h-member-x', id: 'n1' };

let n = 0;
function event(resource: string, status: string, reason: string): HeatEvent {
  return {
    id: `e${++n}`,
    links: [],
    event_time: '2026-01-01T00:00:00Z',
    logical_resource_id: resource,
    resource_name: resource,
    physical_resource_id: '',
    resource_status: status,
    resource_status_reason: reason,
  };
}

function resource(name: string, nested?: StackId): HeatResource {
  const links = [{ rel: 'self', href: `${BASE}/x/y/resources/${name}` }];
  if (nested) links.push({ rel: 'nested', href: `${BASE}/${nested.name}/${nested.id}` });
  return {
    resource_name: name,
    physical_resource_id: nested?.id ?? `${name}-id`,
    resource_type: nested ? 'member.yaml' : 'OS::Heat::None',
    resource_status: 'INIT_COMPLETE',
    resource_status_reason: '',
    creation_time: null,
    updated_time: null,
    required_by: [],
    links,
  };
}

const EVENTS: Record<string, HeatEvent[]> = {
  h1: [
    event('h', 'CREATE_IN_PROGRESS', 'Stack CREATE started'),
    event('first', 'INIT_COMPLETE', 'CREATE paused until Hook pre-create is cleared'),
    event('h', 'CREATE_FAILED', 'cancelled'),
    // The current operation: what came before does not count.
    event('h', 'UPDATE_IN_PROGRESS', 'Stack UPDATE started'),
    event('second', 'CREATE_COMPLETE', 'UPDATE paused until Hook pre-update is cleared'),
  ],
  n1: [
    event('h-member-x', 'CREATE_IN_PROGRESS', 'Stack CREATE started'),
    event('inner', 'INIT_COMPLETE', 'CREATE paused until Hook pre-create is cleared'),
    event('inner', 'INIT_COMPLETE', 'Hook pre-create is cleared'),
    event('inner2', 'INIT_COMPLETE', 'CREATE paused until Hook pre-create is cleared'),
  ],
};
const RESOURCES: Record<string, HeatResource[]> = {
  h1: [resource('first'), resource('second'), resource('member', CHILD)],
  n1: [resource('inner'), resource('inner2')],
};

function scripted() {
  const signals: [string, string, unknown][] = [];
  const client = {
    listEvents: async (stack: StackId) => EVENTS[stack.id]!,
    listResources: async (stack: StackId) => RESOURCES[stack.id]!,
    showResource: async (stack: StackId, name: string) =>
      RESOURCES[stack.id]!.find((r) => r.resource_name === name)!,
    signalResource: async (stack: StackId, name: string, data: unknown) => {
      signals.push([stack.name, name, data]);
    },
  };
  return { client: client as unknown as HeatClient, signals };
}

describe('remote hooks (from events)', () => {
  it('lists the resources waiting at a hook of the current operation, nested ones by path', async () => {
    const { client } = scripted();
    assert.deepEqual(await remotePendingHooks(client, TOP), [
      { path: 'second', hook: 'pre-update', stackName: 'h' },
      { path: 'member/inner2', hook: 'pre-create', stackName: 'h-member-x' },
    ]);
  });

  it('clears the hook a resource waits at (or the ones named) with unset_hook signals', async () => {
    const { client, signals } = scripted();
    await remoteClearHooks(client, TOP, 'member/inner2', []);
    await remoteClearHooks(client, TOP, 'first', ['pre-create', 'pre-delete']);
    assert.deepEqual(signals, [
      ['h-member-x', 'inner2', { unset_hook: 'pre-create' }],
      ['h', 'first', { unset_hook: 'pre-create' }],
      ['h', 'first', { unset_hook: 'pre-delete' }],
    ]);
    await assert.rejects(remoteClearHooks(client, TOP, 'member/inner', []), {
      message: 'resource "member/inner" is not waiting at a hook',
    });
    await assert.rejects(remoteClearHooks(client, TOP, 'first/x', []), {
      message: 'resource "first" of stack "h" is not a nested stack',
    });
  });
});
