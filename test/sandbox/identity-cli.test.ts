import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createSandbox } from '../../src/sandbox/index.js';
import { OPENSTACK_CLIENT_SKIP, openstackClient } from './support.js';

// The real openstack client against the sandbox's Keystone: names a domain as users do.

describe(
  'the real openstack client against the sandbox identity API',
  { skip: OPENSTACK_CLIENT_SKIP },
  () => {
    let app: FastifyInstance;
    let url: string;

    before(async () => {
      ({ app } = createSandbox());
      url = await app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => app.close());

    it('finds the Default domain by name or id, and a project within it', async () => {
      const admin = openstackClient(url, 'admin');
      const domain = JSON.parse(await admin('domain', 'show', 'Default', '-f', 'json')) as { id: string };
      assert.equal(domain.id, 'default');
      const byId = JSON.parse(await admin('domain', 'show', 'default', '-f', 'json')) as { name: string };
      assert.equal(byId.name, 'Default');
      const project = JSON.parse(
        await admin('project', 'show', 'demo', '--domain', 'Default', '-f', 'json'),
      ) as {
        name: string;
        domain_id: string;
      };
      assert.deepEqual([project.name, project.domain_id], ['demo', 'default']);
    });
  },
);
