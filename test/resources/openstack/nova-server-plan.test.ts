import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Iface,
  matchPorts,
  planNetworks,
  type Step,
  type Want,
} from '../../../src/resources/openstack/nova/server-networks.js';
import type { Value } from '../../../src/template/functions/types.js';

// The plan of a `networks` update (Heat's calculate_networks), from resolved entries and live ports.
describe('OS::Nova::Server networks update plan', () => {
  const want = (w: Partial<Want>): Want => ({
    port: null,
    network: null,
    subnet: null,
    fixedIp: null,
    floatingIp: null,
    tag: null,
    ...w,
  });
  const iface = (port: string, network: string, ip: string, subnet = `${network}-sub`): Iface => ({
    port,
    network,
    fixedIps: [ip],
    subnets: [subnet],
  });
  const p1 = iface('p1', 'A', '10.0.0.5');
  const p2 = iface('p2', 'B', '10.1.0.7');
  const plan = (oldW: Want[], newW: Want[], ifaces: Iface[], entries?: [Value[], Value[]]): Step[] =>
    planNetworks({
      oldEntries: (entries?.[0] ?? oldW.map(() => ({}))) as Record<string, Value>[],
      newEntries: (entries?.[1] ?? newW.map(() => ({}))) as Record<string, Value>[],
      oldWants: oldW,
      newWants: newW,
      ifaces,
      securityGroups: [],
    });
  const ops = (steps: Step[]) =>
    steps.map((s) => (s.op === 'detach' ? `detach ${s.port}` : `attach ${JSON.stringify(s.want)}`));

  it('matches the most specific entries first: a fixed IP is not taken by a plain network entry', () => {
    const other = iface('p3', 'A', '10.0.0.9');
    const wants = [want({ network: 'A' }), want({ network: 'A', fixedIp: '10.0.0.5' })];
    assert.deepEqual(
      matchPorts(wants, [p1, other]).map((i) => i?.port),
      ['p3', 'p1'],
    );
  });

  it('keeps an entry unchanged, or one that writes down what its port has; detaches and attaches the rest', () => {
    const oldW = [want({ network: 'A' }), want({ network: 'B' })];
    assert.deepEqual(plan(oldW, [want({ network: 'A' }), want({ network: 'B' })], [p1, p2]), []);
    assert.deepEqual(
      plan(oldW, [want({ network: 'A', fixedIp: '10.0.0.5' }), want({ port: 'p2' })], [p1, p2]),
      [],
      'the address p1 got, and p2 by id, are the same interfaces',
    );
    assert.deepEqual(ops(plan(oldW, [want({ network: 'A', fixedIp: '10.0.0.6' })], [p1, p2])), [
      'detach p1',
      'detach p2',
      `attach ${JSON.stringify(want({ network: 'A', fixedIp: '10.0.0.6' }))}`,
    ]);
    const fip = plan(oldW, [want({ network: 'A', floatingIp: 'f' }), want({ network: 'B' })], [p1, p2]);
    assert.deepEqual(ops(fip), [
      'detach p1',
      `attach ${JSON.stringify(want({ network: 'A', floatingIp: 'f' }))}`,
    ]);
  });

  it('a list from none or allocate_network detaches every port; an empty list attaches where Nova chooses', () => {
    const nowhere = `attach ${JSON.stringify(want({}))}`;
    assert.deepEqual(ops(plan([], [want({ network: 'A' })], [p1, p2])), [
      'detach p1',
      'detach p2',
      `attach ${JSON.stringify(want({ network: 'A' }))}`,
    ]);
    assert.deepEqual(ops(plan([want({ network: 'A' })], [], [p1])), ['detach p1', nowhere]);
    assert.deepEqual(plan([], [], [p1]), []);
    const none = plan(
      [want({ network: 'A' })],
      [want({})],
      [p1],
      [[{ network: 'A' }], [{ allocate_network: 'none' }]],
    );
    assert.deepEqual(ops(none), ['detach p1']);
    const auto = plan(
      [want({})],
      [want({ network: 'B' })],
      [p1],
      [[{ allocate_network: 'auto' }], [{ network: 'B' }]],
    );
    assert.deepEqual(ops(auto), ['detach p1', `attach ${JSON.stringify(want({ network: 'B' }))}`]);
  });

  it('an old entry whose port is gone already has nothing to detach', () => {
    assert.deepEqual(
      ops(plan([want({ port: 'gone' }), want({ network: 'A' })], [want({ network: 'A' })], [p1])),
      [],
    );
  });
});
