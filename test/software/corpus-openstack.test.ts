import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { workdir } from '../cli/helpers.js';
import { type ServeProcess, serveForClients } from '../cli/serve-process.js';
import { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';
import {
  cleanUp,
  deploySequence,
  pristineImage,
  scriptTemplate,
  type StackDriver,
} from './corpus-scenarios.js';
import { addKeypair, agentCloud, BASE_NETWORK, outputsOf, type StackView, until } from './harness.js';

// Issue 22's acceptance through the real client: `openstack stack ...` against `hearth serve`
// (its engine in the same process), the corpus's script-config templates on the sandbox, whose
// agents poll and signal that server.

type Row = Record<string, string>;

describe(
  'software-config corpus templates through `openstack stack` against hearth serve',
  {
    skip: OPENSTACK_CLIENT_SKIP,
  },
  () => {
    const cloud = agentCloud();
    let server: ServeProcess;
    let env: Record<string, string>;
    let dir: string;

    /** `openstack ...args`: its stdout (asynchronous: the sandbox in this process must answer). */
    function openstack(...args: string[]): Promise<string> {
      return new Promise((res, rej) => {
        const child = spawn('openstack', args, {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 180_000,
        });
        let out = '';
        let err = '';
        child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
        child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
        child.on('close', (code) =>
          code === 0
            ? res(out)
            : rej(new Error(`openstack ${args.join(' ')} exited ${code}:\n${err}\n${out}`)),
        );
      });
    }
    const json = async <T>(...args: string[]): Promise<T> => {
      const out = await openstack(...args, '-f', 'json');
      const start = out.search(/^[[{]/m);
      assert.ok(start >= 0, `no JSON in:\n${out}`);
      return JSON.parse(out.slice(start)) as T;
    };

    const driver: StackDriver = {
      // --poll 1: the client's --wait sleeps 5 s between looks by default (only create has --poll).
      create: async (name, template, args) =>
        void (await openstack('stack', 'create', '-t', template, ...args, '--wait', '--poll', '1', name)),
      update: async (name, template, args) =>
        void (await openstack('stack', 'update', '-t', template, ...args, '--wait', name)),
      async delete(name) {
        // --wait fails unless the stack reaches DELETE_COMPLETE.
        await openstack('stack', 'delete', '--yes', '--wait', name);
      },
      async show(name) {
        const view = await json<StackView>('stack', 'show', name);
        return { status: view.stack_status, reason: view.stack_status_reason, outputs: outputsOf(view) };
      },
      async ids(name) {
        const rows = await json<Row[]>('stack', 'resource', 'list', name);
        return Object.fromEntries(rows.map((r) => [r.resource_name, r.physical_resource_id]));
      },
      async events(name) {
        const rows = await json<Row[]>('stack', 'event', 'list', name);
        return rows.map((r) => ({ resource: r.resource_name!, status: r.resource_status! }));
      },
    };

    before(async () => {
      await addKeypair(cloud);
      // The server's stacks reach the sandbox with the deployment's login (OS_* set by agentCloud).
      process.env.HEARTH_OPENSTACK_CLOUD_SHARED = 'true';
      const w = workdir({ 'base.yaml': BASE_NETWORK });
      dir = w.dir;
      const served = await serveForClients(w);
      server = served.server;
      env = served.envOf.alice!;
      await openstack('stack', 'create', '-t', 'base.yaml', '--wait', 'base');
      await until('the base network is up', async () =>
        (await json<{ stack_status: string }>('stack', 'show', 'base')).stack_status === 'CREATE_COMPLETE'
          ? true
          : undefined,
      );
    });
    after(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
      cleanUp();
    });

    it('example-script-template.yaml: create, an update of inputs reruns the config, delete', async () => {
      await scriptTemplate(driver, cloud, 'script', {
        // The stack's deployments as `openstack software deployment` and `software config` show them.
        onCreated: async (ids) => {
          const listed = await json<Row[]>('software', 'deployment', 'list', '--server', ids.server!);
          assert.deepEqual(
            listed.map((d) => [d.id, d.status]).sort(),
            [
              [ids.deployment, 'COMPLETE'],
              [ids.other_deployment, 'COMPLETE'],
            ].sort(),
          );
          const shown = await json<{
            config_id: string;
            output_values: Record<string, unknown>;
            action: string;
          }>('software', 'deployment', 'show', '--long', ids.deployment!);
          assert.equal(shown.action, 'CREATE');
          assert.equal(
            shown.output_values.result,
            `The file /tmp/baaaaa contains fooooo for server ${ids.server} during CREATE`,
          );
          // The derived config: the script with the deployment's input values.
          const config = await json<{ group: string; inputs: { name: string; value?: unknown }[] }>(
            'software',
            'config',
            'show',
            shown.config_id,
          );
          assert.equal(config.group, 'script');
          const value = (name: string) => config.inputs.find((i) => i.name === name)?.value;
          assert.deepEqual(
            [value('foo'), value('bar'), value('deploy_action')],
            ['fooooo', 'baaaaa', 'CREATE'],
          );
          const metadata = JSON.parse(
            await openstack('software', 'deployment', 'metadata', 'show', ids.server!),
          ) as { id: string }[];
          assert.equal(metadata.length, 2, "the server's two deployments' configs");
          assert.ok(metadata.some((m) => m.id === shown.config_id));
        },
        onDeleted: async (ids) =>
          assert.deepEqual(await json<Row[]>('software', 'deployment', 'list', '--server', ids.server!), []),
      });
    });

    it('example-deploy-sequence.yaml: deployments in dependency order across two servers', async () => {
      await deploySequence(driver, cloud, 'sequence');
    });

    it('example-config-pristine-image.yaml with boot-config/none_env.yaml', async () => {
      await pristineImage(driver, cloud, 'pristine');
    });
  },
);
