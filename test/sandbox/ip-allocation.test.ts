import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freeAddress } from '../../src/sandbox/network/ip-allocation.js';
import { defaultNoise, mergeNoise } from '../../src/sandbox/noise.js';
import { networkClient } from './network-helpers.js';

describe('sandbox Neutron: choosing a free address', () => {
  const pools = [
    { start: '10.0.0.2', end: '10.0.0.4' },
    { start: '10.0.1.10', end: '10.0.4.255' },
  ];

  it('takes the first free address of the pools by default (ipAllocation first)', () => {
    assert.equal(freeAddress(pools, new Set()), '10.0.0.2');
    assert.equal(freeAddress(pools, new Set(['10.0.0.2', '10.0.0.3', '10.0.0.4'])), '10.0.1.10');
    assert.equal(freeAddress([{ start: '10.0.0.2', end: '10.0.0.2' }], new Set(['10.0.0.2'])), undefined);
  });

  it('picks among the first thousand free ones, as Neutron’s IPAM, when asked (ipAllocation random)', () => {
    const counts: number[] = [];
    const pick = (index: number) => (count: number) => {
      counts.push(count);
      return index;
    };
    const used = new Set(['10.0.0.3']);
    assert.equal(freeAddress(pools, used, pick(0)), '10.0.0.2');
    assert.equal(freeAddress(pools, used, pick(1)), '10.0.0.4', 'a used address is never chosen');
    assert.equal(freeAddress(pools, used, pick(2)), '10.0.1.10', 'across pools');
    assert.deepEqual(new Set(counts), new Set([1000]), 'the window: the first 1000 free addresses');
    assert.equal(freeAddress(pools, used, pick(5000)), freeAddress(pools, used, pick(999)));
  });

  it('is a noise knob: first (the default) or random', () => {
    assert.equal(defaultNoise().ipAllocation, 'first');
    assert.equal(mergeNoise(defaultNoise(), { ipAllocation: 'random' }).ipAllocation, 'random');
    assert.throws(() => mergeNoise(defaultNoise(), { ipAllocation: 'any' }), /ipAllocation/);
  });
});

describe('sandbox Neutron: ipAllocation random through the API', () => {
  it('gives a port one of the free addresses the noise’s random draw names; first stays in order', async () => {
    const draws = [0.5, 0.25];
    const c = await networkClient({ noise: { ipAllocation: 'random' }, random: () => draws.shift() ?? 0 });
    const net = await c.create('networks', { name: 'random-net' });
    // 10.0.0.2 .. 10.0.0.254: 253 free addresses.
    await c.create('subnets', { network_id: net.id, cidr: '10.0.0.0/24', ip_version: 4 });
    const a = await c.create('ports', { network_id: net.id });
    const b = await c.create('ports', { network_id: net.id });
    assert.equal(a.fixed_ips[0].ip_address, `10.0.0.${2 + Math.floor(0.5 * 253)}`);
    assert.equal(b.fixed_ips[0].ip_address, `10.0.0.${2 + Math.floor(0.25 * 252)}`);
  });
});
