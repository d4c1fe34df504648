import { Type } from '@sinclair/typebox';
import {
  createSnapshot,
  deleteSnapshot,
  listSnapshots,
  restoreSnapshot,
  showSnapshot,
  TEMPLATE_URL,
} from '../../engine/operations/snapshot.js';
import type { SnapshotRecord } from '../../store/contract.js';
import { MASK } from '../../template/parameters/index.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { type Redact, redactJson, redactorFor } from '../../views/redact.js';
import type { Api } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { heatTime } from '../../views/time.js';
import { StackParams } from './params.js';

const SnapshotParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String(),
  snapshot_id: Type.String(),
});

/**
 * Stack snapshots (Heat's routes and answers): create (200, the snapshot), list, show, delete
 * (204) and restore (202). The snapshot's environment is shown with hidden values masked.
 */
export function registerSnapshotRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  const base = '/stacks/:stack_name/:stack_id/snapshots';

  app.post(
    base,
    { schema: { params: StackParams, body: Type.Optional(Type.Unknown()), tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const body = request.body ?? {};
      if (!isPlainObject(body)) throw badRequest('the request body must be a JSON object');
      const snapshotName = body.name ?? null;
      if (snapshotName !== null && typeof snapshotName !== 'string')
        throw badRequest('name must be a string');
      const snapshot = await createSnapshot(engine.deps, stack.id, snapshotName);
      return snapshotJSON(snapshot, await redactorFor(engine, stack));
    },
  );

  app.get(base, { schema: { params: StackParams, tags: ['stacks'] } }, async (request) => {
    const { stack_name: name, stack_id: id } = request.params;
    const stack = await stackByIdentity(engine, request, name, id);
    const redact = await redactorFor(engine, stack);
    return { snapshots: (await listSnapshots(engine.deps, stack.id)).map((s) => snapshotJSON(s, redact)) };
  });

  app.get(
    `${base}/:snapshot_id`,
    { schema: { params: SnapshotParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id, snapshot_id: snapshotId } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const snapshot = await showSnapshot(engine.deps, stack.id, snapshotId);
      return { snapshot: snapshotJSON(snapshot, await redactorFor(engine, stack)) };
    },
  );

  app.delete(
    `${base}/:snapshot_id`,
    { schema: { params: SnapshotParams, tags: ['stacks'] } },
    async (request, reply) => {
      const { stack_name: name, stack_id: id, snapshot_id: snapshotId } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      await deleteSnapshot(engine.deps, stack.id, snapshotId);
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:snapshot_id/restore`,
    { schema: { params: SnapshotParams, tags: ['stacks'] } },
    async (request, reply) => {
      const { stack_name: name, stack_id: id, snapshot_id: snapshotId } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      await restoreSnapshot(engine.deps, engine.cache, stack.id, snapshotId);
      return reply.status(202).send();
    },
  );
}

/** Heat's format_snapshot. */
function snapshotJSON(snapshot: SnapshotRecord, redact: Redact): JsonObject {
  return {
    id: snapshot.id,
    name: snapshot.name,
    status: snapshot.status,
    status_reason: snapshot.statusReason,
    data: snapshot.data ? shownData(snapshot.data, redact) : null,
    creation_time: heatTime(snapshot.createdAt),
  };
}

/** The snapshot document with its environment's hidden parameter values masked. */
function shownData(data: JsonObject, redact: Redact): JsonObject {
  const template = isPlainObject(data.template) ? data.template : {};
  const declared = isPlainObject(template.parameters) ? template.parameters : {};
  const hidden = new Set(
    Object.entries(declared)
      .filter(([, schema]) => isPlainObject(schema) && schema.hidden === true)
      .map(([name]) => name),
  );
  const environment = isPlainObject(data.environment) ? (data.environment as JsonObject) : {};
  const shown: JsonObject = { ...environment };
  for (const section of ['parameters', 'parameter_defaults']) {
    const values = environment[section];
    if (!isPlainObject(values)) continue;
    const masked: JsonObject = {};
    for (const [name, value] of Object.entries(values)) {
      setOwn(masked, name, hidden.has(name) ? MASK : redactJson(value as Json, redact));
    }
    shown[section] = masked;
  }
  const { [TEMPLATE_URL]: _url, ...heat } = data;
  return { ...heat, environment: shown };
}
