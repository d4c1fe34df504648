import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { softwareService } from '../../src/software/service.js';
import { openStore } from '../../src/store/index.js';
import { normalized, ok, remoteSetup } from './remote-helpers.js';

// `hearth software config|deployment ...`, embedded and with --url against `hearth serve`: the
// same commands print the same documents either way.

const FILES = {
  'hello.sh': '#!/bin/sh\necho "hello $foo"\n',
  'definition.yaml': 'inputs:\n- name: foo\n  default: bar\noutputs:\n- name: result\n',
};

describe('hearth software (embedded and --url)', () => {
  const { dir, url, remote, embedded } = remoteSetup(FILES);

  it('creates, lists, shows and deletes configs; shows, lists and deletes deployments', async () => {
    const modes = [
      { name: 'embedded', run: embedded },
      { name: '--url', run: remote },
    ];
    const seen: unknown[][] = [[], []];
    for (const [i, mode] of modes.entries()) {
      const run = (...args: string[]) => ok(mode.run(args), `${mode.name} ${args.join(' ')}`);
      const made = JSON.parse(
        run(
          'software',
          'config',
          'create',
          'hello',
          '--config-file',
          'hello.sh',
          '--definition-file',
          'definition.yaml',
          '--group',
          'script',
          '-f',
          'json',
        ),
      ) as Record<string, unknown>;
      assert.equal(made.config, FILES['hello.sh']);
      assert.deepEqual(made.inputs, [{ name: 'foo', type: 'String', default: 'bar' }]);
      const configId = String(made.id);

      // A deployment of it, as a resource type or the API makes one.
      const deploymentId = `dep-${i}`;
      const deployment = {
        id: deploymentId,
        configId,
        serverId: 'srv-1',
        inputValues: { foo: 'x' },
        action: 'CREATE',
        status: 'IN_PROGRESS' as const,
        statusReason: 'Deploy data available',
      };
      if (mode.name === 'embedded') {
        const store = await openStore(join(dir, 'state.db'));
        await softwareService(store, { projectId: 'local' }).createDeployment(deployment);
        await store.close();
      } else {
        const res = await fetch(`${url()}/software_deployments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            config_id: configId,
            server_id: 'srv-1',
            input_values: { foo: 'x' },
            action: 'CREATE',
            status: 'IN_PROGRESS',
            status_reason: 'Deploy data available',
          }),
        });
        assert.equal(res.status, 200, await res.text());
      }
      const [listed] = JSON.parse(
        run('software', 'deployment', 'list', '--server', 'srv-1', '-f', 'json'),
      ) as {
        id: string;
      }[];
      const id = listed!.id;
      // Ids differ between the modes: the config's is named as such.
      const shown = (text: string) => normalized(text.replaceAll(configId, '<config id>'));
      seen[i]!.push(
        shown(run('software', 'config', 'list', '-f', 'json')),
        shown(JSON.stringify(listed)),
        shown(run('software', 'deployment', 'show', id, '-f', 'json')),
      );
      const metadata = JSON.parse(run('software', 'deployment', 'metadata', 'srv-1')) as { id: string }[];
      assert.deepEqual(
        metadata.map((c) => c.id),
        [configId],
      );
      run('software', 'deployment', 'delete', id);
      const gone = mode.run(['software', 'config', 'show', configId]);
      assert.notEqual(gone.code, 0, 'the deployment’s config went with it');
      assert.match(gone.stderr, new RegExp(`Software config with id ${configId} not found`));
      assert.deepEqual(JSON.parse(run('software', 'deployment', 'list', '-f', 'json') || '[]'), []);
    }
    assert.deepEqual(seen[1], seen[0]);
    assert.deepEqual(seen[0]![0], [{ id: '<id>', name: 'hello', group: 'script', creation_time: '<time>' }]);
  });
});
