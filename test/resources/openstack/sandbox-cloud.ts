import type { FastifyInstance } from 'fastify';
import type { Cloud } from '../../../src/openstack/index.js';
import type { ResourcePlugin } from '../../../src/resources/contract.js';
import { listeningSandbox } from '../../sandbox/support.js';
import { FakeClock, FakeResource } from '../helpers.js';

/**
 * The sandbox cloud over HTTP for the OpenStack types' tests, its clock the fake one the
 * resources poll with: each poll's wait moves the sandbox's volumes and servers on too.
 */
export interface TypeRig {
  app: FastifyInstance;
  clock: FakeClock;
  /** The cloud as user demo, and as admin (who may make flavors). */
  demo: Cloud;
  admin: Cloud;
  resource(plugin: ResourcePlugin, key: string, cloud?: Cloud): FakeResource;
  /** An out-of-band change (`/admin/<kind>/<id>/<action>`), as an operator or a failure would make. */
  outOfBand(kind: string, id: string, action: string, body?: object): Promise<void>;
  close(): Promise<void>;
}

export async function typeRig(noise: unknown = { bootDelayMs: 2000 }): Promise<TypeRig> {
  const clock = new FakeClock(Date.now());
  const { app, open } = await listeningSandbox({ now: clock.now, noise });
  const demo = open('demo');
  const admin = open('admin');
  return {
    app,
    clock,
    demo,
    admin,
    resource(plugin, key, cloud = demo) {
      const r = new FakeResource(plugin, { name: 'res', stackName: 'st', key, clock });
      r.cloud = cloud;
      return r;
    },
    async outOfBand(kind, id, action, body = {}) {
      const r = await app.inject({ method: 'POST', url: `/admin/${kind}/${id}/${action}`, payload: body });
      if (r.statusCode >= 300) throw new Error(`${kind} ${action}: ${r.body}`);
    },
    async close() {
      await demo.close();
      await admin.close();
      await app.close();
    },
  };
}
