import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/contract.js';
import type { SoftwareConfigRecord, SoftwareDeploymentRecord } from '../../src/software/contract.js';
import { softwareService } from '../../src/software/service.js';
import { withStore } from './fixtures.js';

function config(id: string, overrides: Partial<SoftwareConfigRecord> = {}): SoftwareConfigRecord {
  return {
    id,
    projectId: 'p1',
    name: `config-${id}`,
    group: 'script',
    config: '#!/bin/sh\necho hi',
    inputs: [{ name: 'foo', type: 'String', default: 'bar', replace_on_change: false }],
    outputs: [{ name: 'result', type: 'String', error_output: false }],
    options: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function deployment(id: string, overrides: Partial<SoftwareDeploymentRecord> = {}): SoftwareDeploymentRecord {
  return {
    id,
    projectId: 'p1',
    configId: 'c1',
    serverId: 'server-1',
    inputValues: { foo: 'baz' },
    outputValues: {},
    action: 'CREATE',
    status: 'IN_PROGRESS',
    statusReason: 'Deploy data available',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: null,
    ...overrides,
  };
}

export function softwareContract(open: () => Promise<Store>): void {
  describe('software configs and deployments', () => {
    it('stores configs once per id, pages them oldest first by project, and deletes them', () =>
      withStore(open, async (store) => {
        await store.tx(async (tx) => {
          assert.equal(
            await tx.software.insertConfig(config('b', { createdAt: '2026-01-01T00:00:02.000Z' })),
            true,
          );
          assert.equal(
            await tx.software.insertConfig(config('a', { createdAt: '2026-01-01T00:00:02.000Z' })),
            true,
          );
          assert.equal(
            await tx.software.insertConfig(config('c', { createdAt: '2026-01-01T00:00:01.000Z' })),
            true,
          );
          assert.equal(
            await tx.software.insertConfig(config('x', { projectId: 'p2', config: { k: [1] } })),
            true,
          );
          assert.equal(
            await tx.software.insertConfig(config('a', { name: 'other' })),
            false,
            'a second insert',
          );
        });
        assert.deepEqual(
          await store.tx((tx) => tx.software.getConfig('a')),
          config('a', { createdAt: '2026-01-01T00:00:02.000Z' }),
          'the first insert kept',
        );
        assert.deepEqual((await store.tx((tx) => tx.software.getConfig('x')))?.config, { k: [1] });
        const ids = async (page: { projectId?: string; limit?: number; marker?: string }) =>
          (await store.tx((tx) => tx.software.listConfigs(page))).map((c) => c.id);
        assert.deepEqual(await ids({ projectId: 'p1' }), ['c', 'a', 'b']);
        assert.deepEqual(await ids({ projectId: 'p1', limit: 2 }), ['c', 'a']);
        assert.deepEqual(await ids({ projectId: 'p1', marker: 'a' }), ['b']);
        assert.deepEqual(await ids({ projectId: 'p1', marker: 'c', limit: 1 }), ['a']);
        assert.deepEqual(await ids({}), ['x', 'c', 'a', 'b'], 'every project (admin)');
        assert.equal(await store.tx((tx) => tx.software.deleteConfig('a')), true);
        assert.equal(await store.tx((tx) => tx.software.deleteConfig('a')), false);
        assert.equal(await store.tx((tx) => tx.software.getConfig('a')), undefined);
      }));

    it('stores deployments by server and project, updates them (compare-and-swap on status), deletes them', () =>
      withStore(open, async (store) => {
        await store.tx(async (tx) => {
          await tx.software.insertConfig(config('c1'));
          assert.equal(
            await tx.software.insertDeployment(deployment('d2', { createdAt: '2026-01-01T00:00:03.000Z' })),
            true,
          );
          assert.equal(await tx.software.insertDeployment(deployment('d1')), true);
          assert.equal(
            await tx.software.insertDeployment(deployment('d3', { serverId: 'server-2', projectId: 'p2' })),
            true,
          );
          assert.equal(await tx.software.insertDeployment(deployment('d1', { action: 'DELETE' })), false);
        });
        assert.deepEqual(await store.tx((tx) => tx.software.getDeployment('d1')), deployment('d1'));
        const ids = async (where: { projectId?: string; serverId?: string }) =>
          (await store.tx((tx) => tx.software.listDeployments(where))).map((d) => d.id);
        assert.deepEqual(await ids({ serverId: 'server-1' }), ['d1', 'd2']);
        assert.deepEqual(await ids({ projectId: 'p2' }), ['d3']);
        assert.deepEqual(await ids({ projectId: 'p1', serverId: 'server-2' }), []);
        assert.equal(await store.tx((tx) => tx.software.configInUse('c1')), true);
        assert.equal(await store.tx((tx) => tx.software.configInUse('c9')), false);

        const done = {
          status: 'COMPLETE',
          outputValues: { result: 'ok' },
          updatedAt: '2026-01-01T00:01:00.000Z',
        } as const;
        assert.equal(await store.tx((tx) => tx.software.updateDeployment('d1', done, 'IN_PROGRESS')), true);
        assert.equal(
          await store.tx((tx) => tx.software.updateDeployment('d1', { status: 'FAILED' }, 'IN_PROGRESS')),
          false,
          'no longer IN_PROGRESS',
        );
        assert.deepEqual(await store.tx((tx) => tx.software.getDeployment('d1')), deployment('d1', done));
        assert.equal(await store.tx((tx) => tx.software.updateDeployment('nothing', { action: 'X' })), false);
        assert.equal(await store.tx((tx) => tx.software.deleteDeployment('d1')), true);
        assert.equal(await store.tx((tx) => tx.software.deleteDeployment('d1')), false);
        assert.deepEqual(await ids({ serverId: 'server-1' }), ['d2']);
      }));

    it('the service over the store: a create run twice, tenancy, a signal settling a deployment once', () =>
      withStore(open, async (store) => {
        let now = Date.parse('2026-02-01T00:00:00Z');
        const p1 = softwareService(store, { projectId: 'p1', now: () => now });
        const p2 = softwareService(store, { projectId: 'p2', now: () => now });
        const made = await p1.createConfig({
          id: 'cfg',
          name: 'deploy-it',
          group: 'script',
          config: 'echo',
          inputs: [{ name: 'foo', type: 'String', replace_on_change: false }],
          outputs: [{ name: 'err', type: 'String', error_output: true }],
          options: null,
        });
        now += 1000;
        assert.deepEqual(
          await p1.createConfig({ ...made, name: 'again' }),
          made,
          'a second create finds the first',
        );
        assert.equal(await p2.getConfig('cfg'), undefined, "another project's config is absent");
        await assert.rejects(p2.createConfig({ ...made }), /already exists/);
        await p1.createDeployment({
          id: 'dep',
          configId: 'cfg',
          serverId: 'srv',
          inputValues: {},
          action: 'CREATE',
          status: 'IN_PROGRESS',
          statusReason: 'Deploy data available',
        });
        assert.equal(await p2.getDeployment('dep'), undefined);
        assert.deepEqual(await p2.serverDeployments('srv'), []);
        assert.deepEqual(
          (await p1.serverDeployments('srv')).map((c) => c.id),
          ['cfg'],
        );
        await assert.rejects(p1.deleteConfig('cfg'), /can not be deleted as it is referenced/);
        assert.equal(await p2.signalDeployment('dep', { deploy_status_code: 0 }), undefined);
        assert.equal(
          await p1.signalDeployment('dep', { deploy_stdout: 'out', deploy_status_code: 0 }),
          'deployment dep succeeded',
        );
        assert.equal(
          await p1.signalDeployment('dep', { deploy_status_code: 1 }),
          undefined,
          'settled already',
        );
        const settled = await p1.getDeployment('dep');
        assert.equal(settled?.status, 'COMPLETE');
        assert.equal(settled?.statusReason, 'Outputs received');
        assert.deepEqual(settled?.outputValues, {
          deploy_stdout: 'out',
          deploy_stderr: null,
          deploy_status_code: 0,
        });
        assert.equal(settled?.updatedAt, new Date(now).toISOString());
        assert.equal(await p1.deleteDeployment('dep'), true);
        assert.equal(await p1.deleteConfig('cfg'), true);
      }));
  });
}
