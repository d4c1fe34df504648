import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { detectDrift, type ResourceDrift, storedDrift } from '../../src/engine/reality/drift.js';
import { createStack } from '../../src/engine/operations/create.js';
import { findStack } from '../../src/engine/operations/queries.js';
import type { Cloud } from '../../src/openstack/index.js';
import type { SandboxState } from '../../src/sandbox/state.js';
import { listeningSandbox } from '../sandbox/support.js';
import { Harness, type HarnessOptions } from './harness.js';

/**
 * What the drift tests of the OpenStack types share: the step-driven engine harness whose plugins
 * reach a sandbox cloud over HTTP (project `p` as user demo, project `admin` as admin), and
 * sessions of their own to change the cloud's objects behind the engine's back, through the
 * same OpenStack APIs a user would call.
 */
export interface DriftRig {
  h: Harness;
  app: FastifyInstance;
  state: SandboxState;
  /** Out-of-band sessions: another login of the same users the engine acts as. */
  demo: Cloud;
  admin: Cloud;
  /** Creates a stack in `project` and runs the engine until it is done; fails unless CREATE_COMPLETE. */
  create(stack: string, template: string, project?: 'p' | 'admin'): Promise<void>;
  /** Detects the stack's drift now; every resource's result, by name. */
  detect(stack: string, project?: 'p' | 'admin'): Promise<Map<string, ResourceDrift>>;
  /** Physical ids by resource name. */
  ids(stack: string, project?: 'p' | 'admin'): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export async function driftRig(options: Omit<HarnessOptions, 'openstack'> = {}): Promise<DriftRig> {
  // No boot delay: servers are ACTIVE, volumes available and attached as soon as asked, so the
  // harness's fake clock never has to move the sandbox's.
  const { app, state, open } = await listeningSandbox({ noise: { bootDelayMs: 0 } });
  const engineClouds = { p: open('demo'), admin: open('admin') };
  const h = await Harness.create({
    ...options,
    openstack: ({ projectId }) => (projectId === 'admin' ? engineClouds.admin : engineClouds.p),
  });
  const stackId = async (stack: string, project: string) => (await findStack(h.deps, project, stack)).id;
  const demo = open('demo');
  const admin = open('admin');
  return {
    h,
    app,
    state,
    demo,
    admin,
    async create(stack, template, project = 'p') {
      await createStack(h.deps, h.engine.cache, {
        name: stack,
        projectId: project,
        template: h.input(template),
        disableRollback: true,
      });
      await h.settle();
      const found = await findStack(h.deps, project, stack);
      const rows = await h.deps.store.tx((tx) => tx.resources.listActive(found.id));
      assert.equal(
        `${found.action}_${found.status}`,
        'CREATE_COMPLETE',
        `${found.reason}\n${rows.map((r) => `${r.name}: ${r.reason}`).join('\n')}`,
      );
    },
    async detect(stack, project = 'p') {
      const id = await stackId(stack, project);
      await detectDrift(h.deps, id);
      return new Map((await storedDrift(h.deps, id)).resources.map((r) => [r.resourceName, r]));
    },
    async ids(stack, project = 'p') {
      const id = await stackId(stack, project);
      const rows = await h.deps.store.tx((tx) => tx.resources.listActive(id));
      return new Map(rows.map((r) => [r.name, r.physicalId!]));
    },
    async close() {
      for (const cloud of [demo, admin, engineClouds.p, engineClouds.admin]) await cloud.close();
      await app.close();
    },
  };
}

/** `{property, expected, actual}` entries as the API shows them, from a result's diff. */
export function diffOf(
  record: ResourceDrift | undefined,
): { property: string; expected: unknown; actual: unknown }[] {
  assert.ok(record, 'no drift result for the resource');
  return record.diff.map((d) => ({ property: d.name, expected: d.expected, actual: d.actual }));
}

/** Each resource's drift status, by name (sorted), for one assertion over a whole stack. */
export function statuses(records: Map<string, ResourceDrift>): Record<string, string> {
  return Object.fromEntries(
    [...records].sort(([a], [b]) => a.localeCompare(b)).map(([n, r]) => [n, r.status]),
  );
}
