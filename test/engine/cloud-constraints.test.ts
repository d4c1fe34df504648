import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../src/openstack/index.js';
import type { ResourcePlugin } from '../../src/resources/contract.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { TemplateError } from '../../src/template/errors.js';
import { C, P } from '../../src/template/properties/index.js';
import { sandboxEnv } from '../sandbox/support.js';
import { Harness } from './harness.js';

const TYPE = 'Test::NeedsCloudObjects';

/** A type whose properties carry the cloud constraints a server's do, one of them in a list of maps. */
const plugin: ResourcePlugin = {
  type: TYPE,
  description: 'test: properties under cloud-backed custom constraints',
  properties: {
    flavor: P.string({ constraints: [C.custom('nova.flavor')] }),
    image: P.string({ constraints: [C.custom('glance.image')] }),
    networks: P.list({
      items: P.map({ schema: { network: P.string({ constraints: [C.custom('neutron.network')] }) } }),
    }),
  },
  attributes: {},
  async create(ctx) {
    return { physicalId: `made-${ctx.resourceName}` };
  },
  async delete() {
    return {};
  },
  async getReality() {
    return { state: 'gone' };
  },
  async attribute() {
    return null;
  },
};

const template = (flavor: string, network: string) => `heat_template_version: 2018-08-31
parameters:
  key:
    type: string
    default: mykey
    constraints: [{custom_constraint: nova.keypair}]
resources:
  other: {type: OS::Heat::RandomString}
  r:
    type: ${TYPE}
    properties:
      flavor: ${flavor}
      image: cirros-0.6.2-x86_64-disk
      networks: [{network: ${network}}, {network: {get_attr: [other, value]}}]
  s:
    type: ${TYPE}
    properties: {flavor: ${flavor}, image: cirros-0.6.2-x86_64-disk}
`;

async function rejection(promise: Promise<unknown>): Promise<TemplateError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof TemplateError, String(error));
    return error;
  }
  assert.fail('the request was accepted');
}

describe('cloud-backed custom constraints at create and update', () => {
  let app: FastifyInstance;
  let cloud: Cloud;
  const lookups: string[] = [];

  before(async () => {
    ({ app } = createSandbox());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const real = openCloud(
      loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }),
    );
    // Counts the lookups, to show each distinct value is looked up once.
    cloud = {
      ...real,
      findByNameOrId: (service, path, key, ref) => {
        lookups.push(`${path}:${ref}`);
        return real.findByNameOrId(service, path, key, ref);
      },
    };
    await real.request('compute', 'POST', '/os-keypairs', {
      keypair: { name: 'mykey', public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHearthTestKey hearth' },
    });
    await real.request('network', 'POST', '/networks', { network: { name: 'private' } });
  });
  after(async () => {
    await cloud?.close();
    await app?.close();
  });

  const harness = () => Harness.create({ plugins: [plugin], openstack: () => cloud });

  it('accepts values the cloud has, looking each distinct one up once', async () => {
    const h = await harness();
    lookups.length = 0;
    await h.create('ok', template('m1.tiny', 'private'));
    await h.settle();
    assert.equal(await h.status('ok'), 'CREATE_COMPLETE');
    // m1.tiny and the image are used twice; the network from get_attr is not known yet.
    assert.deepEqual(lookups.sort(), [
      '/flavors:m1.tiny',
      '/images:cirros-0.6.2-x86_64-disk',
      '/networks:private',
    ]);
  });

  it('refuses a create naming a flavor the cloud lacks, at its place in the template', async () => {
    const h = await harness();
    const error = await rejection(h.create('bad', template('m1.huge', 'private')));
    assert.equal(error.kind, 'property');
    assert.deepEqual(error.path, ['resources', 'r', 'properties', 'flavor']);
    assert.match(error.message, /^file:\/\/\/work\/t\.yaml:12:7: resources\.r\.properties\.flavor: /);
    assert.match(
      error.message,
      /Error validating value 'm1\.huge': The Flavor \(m1\.huge\) could not be found\.$/,
    );
    assert.equal(
      (await h.deps.store.tx((tx) => tx.stacks.list({ projectId: 'p' }))).length,
      0,
      'nothing stored',
    );
  });

  it('refuses a parameter naming a key pair the cloud lacks', async () => {
    const h = await harness();
    const error = await rejection(
      h.create('bad', template('m1.tiny', 'private'), { parameters: { key: 'nokey' } }),
    );
    assert.equal(error.kind, 'parameter');
    assert.deepEqual(error.path, ['parameters', 'key']);
    assert.match(error.message, /Error validating value 'nokey': The Key \(nokey\) could not be found\./);
  });

  it('refuses an update naming a network the cloud lacks, inside a list, and leaves the stack as it was', async () => {
    const h = await harness();
    await h.create('u', template('m1.tiny', 'private'));
    await h.settle();
    const error = await rejection(h.update('u', template('m1.tiny', 'nowhere')));
    assert.deepEqual(error.path, ['resources', 'r', 'properties', 'networks', 0, 'network']);
    assert.match(error.message, /The Network \(nowhere\) could not be found\./);
    assert.equal(await h.status('u'), 'CREATE_COMPLETE');
  });

  it('checks nothing when no cloud is configured (the types report that when they run)', async () => {
    const h = await Harness.create({ plugins: [plugin] });
    await h.create('offline', template('m1.huge', 'nowhere'));
    await h.settle();
    assert.equal(await h.status('offline'), 'CREATE_COMPLETE');
  });
});
