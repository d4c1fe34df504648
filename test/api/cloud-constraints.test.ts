import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { type HeatError, startApi, type TestApi } from './harness.js';

const template = (flavor: string) => ({
  heat_template_version: '2018-08-31',
  resources: {
    server: {
      type: 'OS::Nova::Server',
      properties: { image: 'cirros-0.6.2-x86_64-disk', flavor, networks: [{ network: 'public' }] },
    },
  },
});

// Heat's validate and previews look a flavor or image up in the cloud, as a create does: a value the
// cloud lacks is a 400 naming the property, not a server that fails minutes later.
describe('API: custom constraints checked against the cloud', () => {
  sandboxCloud();
  let api: TestApi;
  const P = '/v1/demo';
  before(async () => {
    api = await startApi();
  });
  after(() => api?.close());

  for (const [route, body] of [
    ['/validate', (flavor: string) => ({ template: template(flavor) })],
    ['/stacks/preview', (flavor: string) => ({ stack_name: 'p', template: template(flavor) })],
  ] as const) {
    it(`${route}: accepts a flavor the cloud has and refuses one it lacks`, async () => {
      const ok = await api.call('POST', `${P}${route}`, { body: body('m1.tiny') });
      assert.equal(ok.statusCode, 200, ok.body);
      const bad = await api.call('POST', `${P}${route}`, { body: body('m1.huge') });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(
        (bad.json() as HeatError).error.message,
        /resources\.server\.properties\.flavor: Error validating value 'm1\.huge': The Flavor \(m1\.huge\) could not be found\./,
      );
    });
  }

  it('POST /stacks: an OS::Heat::Stack in a region the catalog lacks is a 400 in Heat’s words, nothing stored', async () => {
    const remote = (region: string) => ({
      stack_name: `remote-${region}`,
      template: {
        heat_template_version: '2018-08-31',
        resources: {
          far: {
            type: 'OS::Heat::Stack',
            properties: {
              context: { region_name: region },
              template: 'heat_template_version: 2018-08-31\nresources: {}\n',
            },
          },
        },
      },
    });
    const bad = await api.call('POST', `${P}/stacks`, { body: remote('DARKHOLE') });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(
      (bad.json() as HeatError).error.message,
      /^Cannot establish connection to Heat endpoint at region "DARKHOLE" due to "publicURL endpoint for orchestration service in DARKHOLE region not found"/,
    );
    const listed = await api.call('GET', `${P}/stacks`);
    assert.deepEqual(
      (listed.json() as { stacks: { stack_name: string }[] }).stacks.filter(
        (s) => s.stack_name === 'remote-DARKHOLE',
      ),
      [],
    );
    const ok = await api.call('POST', `${P}/stacks`, { body: remote('RegionTwo') });
    assert.equal(ok.statusCode, 201, ok.body);
  });

  it('/validate: a keystone.region parameter is looked up in the catalog', async () => {
    const body = (region: string) => ({
      template: {
        heat_template_version: '2018-08-31',
        parameters: { region: { type: 'string', constraints: [{ custom_constraint: 'keystone.region' }] } },
        resources: {},
      },
      parameters: { region },
    });
    const ok = await api.call('POST', `${P}/validate`, { body: body('RegionTwo') });
    assert.equal(ok.statusCode, 200, ok.body);
    const bad = await api.call('POST', `${P}/validate`, { body: body('Nowhere') });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(
      (bad.json() as HeatError).error.message,
      /Error validating value 'Nowhere': The KeystoneRegion \(Nowhere\) could not be found\./,
    );
  });
});
