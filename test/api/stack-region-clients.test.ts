import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { openstackSkip, type ServeProcess, startNoauthServe } from './serve-process.js';

// OS::Heat::Stack's context.region_name as the openstack client meets it, against `hearth serve`
// whose cloud is the sandbox (its RegionTwo has objects of its own).

const CHILD = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: client-far-net}}
outputs:
  net_id: {value: {get_resource: net}}
`;
const parent = (region: string) => `heat_template_version: 2018-08-31
resources:
  far:
    type: OS::Heat::Stack
    properties:
      context: {region_name: ${region}}
      template: {get_file: child.yaml}
outputs:
  net_id: {value: {get_attr: [far, net_id]}}
`;

const run = promisify(execFile);

/**
 * `openstack <args>` against the server as project admin without authentication; the sandbox's
 * OS_* variables (the server's cloud, which this process holds) are not the client's.
 */
async function client(server: ServeProcess, args: string[]): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OS_')));
  const endpoint = { OS_AUTH_TYPE: 'none', OS_ENDPOINT: `${server.url}/v1/admin` };
  return (await run('openstack', args, { env: { ...env, ...endpoint } })).stdout;
}

describe(
  'OS::Heat::Stack in another region through the openstack client',
  { skip: await openstackSkip() },
  () => {
    const cloud = sandboxCloud();
    let server: ServeProcess;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'hearth-region-'));
      writeFileSync(join(dir, 'child.yaml'), CHILD);
      writeFileSync(join(dir, 'two.yaml'), parent('RegionTwo'));
      writeFileSync(join(dir, 'dark.yaml'), parent('DARKHOLE'));
      server = await startNoauthServe();
    });
    after(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('creates the child’s net in RegionTwo and gives its output to the parent', async () => {
      await client(server, ['stack', 'create', '--wait', '-t', join(dir, 'two.yaml'), 'far', '-f', 'json']);
      const nets = cloud.state.region('RegionTwo').list<{ id: string; name: string }>('network');
      const made = nets.filter((n) => n.name === 'client-far-net');
      assert.equal(made.length, 1);
      assert.ok(
        !cloud.state.list<{ id: string; name: string }>('network').some((n) => n.name === 'client-far-net'),
      );
      const output = JSON.parse(
        await client(server, ['stack', 'output', 'show', 'far', 'net_id', '-f', 'json']),
      );
      assert.equal(output.output_value, made[0]!.id);
      await client(server, ['stack', 'delete', '--yes', '--wait', 'far']);
      assert.ok(
        !cloud.state
          .region('RegionTwo')
          .list<{ id: string; name: string }>('network')
          .some((n) => n.name === 'client-far-net'),
      );
    });

    it('refuses an unknown region with Heat’s message', async () => {
      const failed = await client(server, ['stack', 'create', '-t', join(dir, 'dark.yaml'), 'dark']).then(
        () => assert.fail('the create was accepted'),
        (error: { stderr: string }) => error.stderr,
      );
      assert.match(
        failed,
        /ERROR: Cannot establish connection to Heat endpoint at region "DARKHOLE" due to "publicURL endpoint for orchestration service in DARKHOLE region not found"/,
      );
    });
  },
);
