import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

/**
 * A server whose `networks` name a user's port is replaced (its flavor changes): the replacement
 * is created before the old server is deleted, so the old server lets go of the port first (Heat's
 * prepare_for_replace); a rollback that keeps the old server gives the port back (restore_prev_rsrc).
 */
const TEMPLATE = (flavor: string, extra = '') => `heat_template_version: 2018-08-31
resources:${extra}
  address:
    type: OS::Heat::Value
    properties: {value: {get_attr: [server, first_address]}}
  net: {type: OS::Neutron::Net, properties: {name: replnet}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.9.0.0/24}
  user_port:
    type: OS::Neutron::Port
    depends_on: subnet
    properties: {network: {get_resource: net}, fixed_ips: [{ip_address: 10.9.0.50}]}
  server:
    type: OS::Nova::Server
    properties:
      image: cirros-0.6.2-x86_64-disk
      flavor: ${flavor}
      networks: [{port: {get_resource: user_port}}]
outputs:
  ip: {value: {get_attr: [server, first_address]}}
`;

type Server = { id: string; deletedAt: number | null };
type Port = { id: string; device_id: string };

describe('OS::Nova::Server replaced while a networks entry names a user port', () => {
  // A failed boot fails at once (no retries): the rollback comes sooner.
  const cloud = sandboxCloud({}, { HEARTH_ACTION_RETRY_LIMIT: '0' });
  const servers = () => cloud.state.list<Server>('server').filter((s) => s.deletedAt === null);
  const port = (id: string) => cloud.state.list<Port>('port').find((p) => p.id === id);
  const noise = (bootFailureRate: number) =>
    cloud.app.inject({ method: 'PUT', url: '/admin/noise', payload: { bootFailureRate } });

  it('moves the port to the replacement; the old server is deleted, the port kept', async () => {
    const w = new Workdir({ 'v1.yaml': TEMPLATE('m1.tiny'), 'v2.yaml': TEMPLATE('m1.small') });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    const before = await w.ids('s');
    assert.equal(port(before.user_port!)?.device_id, before.server);

    assert.equal(await w.finished(['stack', 'update', 's', '-t', 'v2.yaml', '--wait']), 'UPDATE_COMPLETE');
    const after = await w.ids('s');
    assert.notEqual(after.server, before.server, 'the server was replaced');
    assert.equal(after.user_port, before.user_port, 'the port is the same');
    assert.deepEqual(
      servers().map((s) => s.id),
      [after.server],
      'the old server is deleted',
    );
    assert.equal(port(after.user_port!)?.device_id, after.server, 'the replacement has the port');
    assert.equal((await w.outputs('s')).ip, '10.9.0.50');

    await w.ok(['stack', 'delete', 's', '--yes', '--wait']);
    assert.deepEqual(servers(), []);
  });

  it('a replacement that fails, rolled back: the port is on the old server again', async () => {
    const w = new Workdir({ 'v1.yaml': TEMPLATE('m1.tiny'), 'v2.yaml': TEMPLATE('m1.small') });
    await w.ok(['stack', 'create', 'r', '-t', 'v1.yaml', '--wait']);
    const before = await w.ids('r');

    assert.equal((await noise(1)).statusCode, 200);
    let r;
    try {
      r = await w.run(['stack', 'update', 'r', '-t', 'v2.yaml', '--rollback', 'enabled', '--wait']);
    } finally {
      assert.equal((await noise(0)).statusCode, 200);
    }
    assert.equal(await w.status('r'), 'ROLLBACK_COMPLETE', r.stderr);
    assert.deepEqual(await w.ids('r'), before, 'the old server is the stack’s again');
    assert.deepEqual(
      servers().map((s) => s.id),
      [before.server],
      'the failed replacement is gone',
    );
    assert.equal(port(before.user_port!)?.device_id, before.server, 'the port is back on the old server');
    assert.equal((await w.outputs('r')).ip, '10.9.0.50');
    await w.ok(['stack', 'delete', 'r', '--yes', '--wait']);
  });

  it('a replacement that came up, rolled back for another failure: the stack’s server has the port', async () => {
    // The rollback finds the replacement COMPLETE and replaces it in turn (with the old flavor):
    // the port moves on again, and the servers before are gone.
    const bad = `
  bad:
    type: OS::Heat::TestResource
    depends_on: address
    properties: {fail: true}`;
    const w = new Workdir({ 'v1.yaml': TEMPLATE('m1.tiny'), 'v2.yaml': TEMPLATE('m1.small', bad) });
    await w.ok(['stack', 'create', 'b', '-t', 'v1.yaml', '--wait']);
    const before = await w.ids('b');

    const r = await w.run(['stack', 'update', 'b', '-t', 'v2.yaml', '--rollback', 'enabled', '--wait']);
    assert.equal(await w.status('b'), 'ROLLBACK_COMPLETE', r.stderr);
    assert.match(r.stdout + r.stderr, /\[bad\]: CREATE_FAILED/);
    const after = await w.ids('b');
    assert.equal(after.user_port, before.user_port);
    assert.deepEqual(
      servers().map((s) => s.id),
      [after.server],
      'one server left, the stack’s',
    );
    assert.equal(port(after.user_port!)?.device_id, after.server, 'the stack’s server has the port');
    assert.equal(await w.attribute('b', 'address', 'value'), '10.9.0.50');
    await w.ok(['stack', 'delete', 'b', '--yes', '--wait']);
  });
});
