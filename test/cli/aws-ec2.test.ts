import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { awsStack } from '../engine/aws-ec2-template.js';
import { login, sandboxCloud } from '../sandbox/support.js';
import { Workdir } from './workdir.js';

type DriftDoc = {
  resources: { resource_name: string; drift_status: string; diff?: unknown }[];
};

// Every AWS::EC2 type from one HOT template through the CLI on the sandbox cloud: created, an
// instance's tags and a volume's metadata changed behind Hearth's back found by drift, deleted.
describe('the AWS::EC2 types through the CLI, on the sandbox cloud', () => {
  // No boot delay: servers are ACTIVE and volumes attached at once (the test is about the types).
  const cloud = sandboxCloud({ noise: { bootDelayMs: 0 } });

  it('creates the stack, finds the instance and the volume changed by hand, and deletes all it made', async () => {
    const w = new Workdir({ 'aws.yaml': awsStack('web', '22') });
    await w.ok(['stack', 'create', 'aws', '-t', 'aws.yaml', '--wait']);
    type Named = { id: string; name: string; metadata: Record<string, string> };
    const servers = cloud.state.list<Named & { deletedAt: number | null }>('server');
    const web = servers.find((s) => s.metadata.role === 'web')!;
    assert.ok(web, 'the instance with its tags as metadata');
    const volume = cloud.state.list<Named>('volume').find((v) => v.metadata.tier === 'gold')!;

    const { token, projectId } = await login(cloud.app, 'demo');
    const put = async (url: string, payload: object) => {
      const r = await cloud.app.inject({ method: 'PUT', url, headers: { 'x-auth-token': token }, payload });
      assert.ok(r.statusCode < 300, r.body);
    };
    await put(`/compute/v2.1/servers/${web.id}/metadata/role`, { meta: { role: 'db' } });
    await put(`/volume/v3/${projectId}/volumes/${volume.id}/metadata/tier`, { meta: { tier: 'silver' } });
    const drift = await w.json<DriftDoc>(['stack', 'drift', 'detect', 'aws']);
    const status = new Map(drift.resources.map((r) => [r.resource_name, r.drift_status]));
    assert.equal(status.get('web'), 'MODIFIED');
    assert.equal(status.get('data'), 'MODIFIED');
    assert.equal(status.get('gateway'), 'NOT_CHECKED');

    await w.ok(['stack', 'delete', 'aws', '--yes', '--wait']);
    assert.deepEqual(
      cloud.state
        .list<{ id: string; deletedAt: number | null }>('server')
        .filter((s) => s.deletedAt === null),
      [],
    );
    assert.deepEqual(cloud.state.list('floatingip'), []);
    assert.deepEqual(cloud.state.list('router'), []);
    assert.equal(cloud.state.list('subnet').length, 1, 'only the public subnet is left');
  });
});
