import { randomUUID } from 'node:crypto';
import type {
  NewWork,
  ResourceRecord,
  StackRecord,
  Store,
  SyncPointRecord,
  TemplateRecord,
  TraversalRecord,
} from '../../src/store/contract.js';

/** Record factories for the store contract tests: complete records with overridable fields. */

export const T0 = '2024-05-01T12:00:00.000Z';

export function stack(overrides: Partial<StackRecord> = {}): StackRecord {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    name: `stack-${id.slice(0, 8)}`,
    projectId: 'project-a',
    parentId: null,
    parentResource: null,
    rootId: id,
    action: 'CREATE',
    status: 'IN_PROGRESS',
    reason: 'Stack CREATE started',
    traversalId: 't-1',
    templateId: null,
    prevTemplateId: null,
    convergence: true,
    timeoutMins: null,
    disableRollback: false,
    tags: [],
    createdAt: T0,
    updatedAt: null,
    deletedAt: null,
    observe: null,
    credentials: null,
    ...overrides,
  };
}

export function template(overrides: Partial<TemplateRecord> = {}): TemplateRecord {
  return {
    id: randomUUID(),
    template: 'heat_template_version: 2021-04-16\nresources: {}\n',
    url: 'file:///tmp/t.yaml',
    files: {},
    environment: { parameters: {} },
    createdAt: T0,
    ...overrides,
  };
}

export function resource(
  stackId: string,
  name: string,
  overrides: Partial<ResourceRecord> = {},
): Omit<ResourceRecord, 'id'> {
  return {
    uuid: randomUUID(),
    stackId,
    rootStackId: stackId,
    name,
    type: 'OS::Heat::None',
    action: 'INIT',
    status: 'COMPLETE',
    reason: '',
    physicalId: null,
    templateId: null,
    properties: null,
    attributes: {},
    data: {},
    progress: null,
    requires: [],
    replaces: null,
    replacedBy: null,
    engineId: null,
    atomicKey: 0,
    unhealthy: false,
    createRetries: 0,
    createdAt: T0,
    updatedAt: null,
    ...overrides,
  };
}

export function traversal(stackId: string, overrides: Partial<TraversalRecord> = {}): TraversalRecord {
  return {
    id: randomUUID(),
    stackId,
    rootStackId: stackId,
    action: 'CREATE',
    templateId: null,
    remaining: 0,
    createdAt: T0,
    converge: null,
    ...overrides,
  };
}

export function point(
  traversalId: string,
  stackId: string,
  node: string,
  overrides: Partial<SyncPointRecord> = {},
): SyncPointRecord {
  return {
    traversalId,
    node,
    stackId,
    waiting: 0,
    dependents: [],
    direct: 0,
    inputs: {},
    done: false,
    ...overrides,
  };
}

export function work(
  traversalId: string,
  stackId: string,
  node: string,
  overrides: Partial<NewWork> = {},
): NewWork {
  return { rootStackId: stackId, stackId, traversalId, kind: 'check', node, ...overrides };
}

/** A stack with a traversal, the parent rows most tests need. */
export async function stackWithTraversal(store: Store): Promise<{ stackId: string; traversalId: string }> {
  const t = traversal(randomUUID());
  const s = stack({ id: t.stackId, traversalId: t.id });
  await store.tx(async (tx) => {
    await tx.stacks.insert(s);
    await tx.traversals.insert(t);
  });
  return { stackId: s.id, traversalId: t.id };
}

/** Opens a store for one test and closes it afterwards. */
export async function withStore<T>(open: () => Promise<Store>, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await open();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
