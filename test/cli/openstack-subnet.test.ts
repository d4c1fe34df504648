import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import type { Json } from '../../src/util/json.js';
import { Workdir } from './workdir.js';

// OS::Neutron::Subnet updates as Heat's handle_update makes them: gateway_ip removed, null or ""
// detaches the gateway, allocation_pools removed or null leaves the subnet without pools, and
// "auto" cannot change an existing subnet's gateway.
const subnet = (props: string) => `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties:
      network: {get_resource: net}
      cidr: 10.7.0.0/24
${props}
`;
const FULL = subnet(`      gateway_ip: 10.7.0.1
      allocation_pools: [{start: 10.7.0.10, end: 10.7.0.20}]`);
const REMOVED = subnet('');
const NULLED = subnet(`      gateway_ip: ''
      allocation_pools: null`);
const AUTO = subnet(`      gateway_ip: auto
      allocation_pools: [{start: 10.7.0.10, end: 10.7.0.20}]`);

describe('OS::Neutron::Subnet updates through the CLI, on the sandbox cloud', () => {
  const cloud = sandboxCloud();
  type Subnet = { id: string; cidr: string; gateway_ip: string | null; allocation_pools: Json[] };
  const live = () => cloud.state.list<Subnet>('subnet').find((s) => s.cidr === '10.7.0.0/24')!;
  const full = { gateway_ip: '10.7.0.1', allocation_pools: [{ start: '10.7.0.10', end: '10.7.0.20' }] };
  const none = { gateway_ip: null, allocation_pools: [] };
  const shape = (s: Subnet) => ({ gateway_ip: s.gateway_ip, allocation_pools: s.allocation_pools });

  it('removing or nulling gateway_ip and allocation_pools is applied; "auto" is refused on update', async () => {
    const w = new Workdir({
      'full.yaml': FULL,
      'removed.yaml': REMOVED,
      'nulled.yaml': NULLED,
      'auto.yaml': AUTO,
    });
    await w.ok(['stack', 'create', 's', '-t', 'full.yaml', '--wait']);
    const id = live().id;
    assert.deepEqual(shape(live()), full);

    await w.ok(['stack', 'update', 's', '-t', 'removed.yaml', '--wait']);
    assert.deepEqual(shape(live()), none, 'removed from the template: no gateway, no pools');
    assert.equal(live().id, id, 'updated in place');

    await w.ok(['stack', 'update', 's', '-t', 'full.yaml', '--wait']);
    assert.deepEqual(shape(live()), full);
    await w.ok(['stack', 'update', 's', '-t', 'nulled.yaml', '--wait']);
    assert.deepEqual(shape(live()), none, '"" and null: no gateway, no pools');

    await w.ok(['stack', 'update', 's', '-t', 'full.yaml', '--wait']);
    const auto = await w.run(['stack', 'update', 's', '-t', 'auto.yaml', '--wait']);
    assert.notEqual(auto.code, 0);
    assert.equal(await w.status('s'), 'UPDATE_FAILED');
    const reasons = (await w.events('s')).map((e) => e.resource_status_reason).join('\n');
    assert.match(reasons, /The value "auto" for gateway_ip cannot be used to update an existing subnet/);
    assert.deepEqual(shape(live()), full, 'the subnet is unchanged');
    assert.equal(live().id, id);
  });

  it("a subnet the cloud refuses (400) fails in Heat's wording: the client's exception, the path, the cloud's message", async () => {
    const refused = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.8.0.0/24, gateway_ip: 10.9.0.1}
`;
    const w = new Workdir({ 'refused.yaml': refused });
    const r = await w.run(['stack', 'create', 'g', '-t', 'refused.yaml', '--wait']);
    assert.notEqual(r.code, 0);
    const shown = await w.show('g');
    assert.equal(shown.stack_status, 'CREATE_FAILED');
    const wording =
      /^BadRequest: resources\.subnet: Gateway IP 10\.9\.0\.1 is not in subnet 10\.8\.0\.0\/24\. \(creating the subnet; network: POST \S+ answered 400/;
    const row = (await w.resources('g')).find((x) => x.resource_name === 'subnet')!;
    assert.equal(row.resource_status, 'CREATE_FAILED');
    assert.match(row.resource_status_reason, wording);
    assert.equal(shown.stack_status_reason, `Resource CREATE failed: ${row.resource_status_reason}`);
  });
});
