import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext, ServiceModule } from '../app.js';
import { ApiError } from '../errors.js';
import type { Json, JsonObject } from '../../util/json.js';
import type { SandboxObject, SandboxState } from '../state.js';

/**
 * Aodh's v2 alarms API, the part Heat's alarm types use: create, show, list, update (PUT, the
 * whole alarm) and delete, each project's alarms its own. Alarms are records; nothing evaluates
 * them (the sandbox has no metering), so they stay in `insufficient data`.
 */

type AlarmFields = JsonObject & { name: string; type: string; state: string; state_timestamp: string };
type Alarm = SandboxObject & AlarmFields & { alarm_id: string };

const KIND = 'alarm';
const TYPES = new Set([
  'threshold',
  'event',
  'composite',
  'gnocchi_resources_threshold',
  'gnocchi_aggregation_by_metrics_threshold',
  'gnocchi_aggregation_by_resources_threshold',
  'loadbalancer_member_health',
  'prometheus',
]);
/** The rule field each type carries (`<type>_rule`), checked for the fields a threshold needs. */
const THRESHOLD_TYPES = new Set([
  'threshold',
  'gnocchi_resources_threshold',
  'gnocchi_aggregation_by_metrics_threshold',
  'gnocchi_aggregation_by_resources_threshold',
]);
/** Fields the server sets; a client's values are ignored. */
const SERVER_FIELDS = ['alarm_id', 'id', 'project_id', 'user_id', 'timestamp', 'state_timestamp'];

const invalid = (message: string) => new ApiError(400, message);

function body(request: FastifyRequest): JsonObject {
  const b = request.body;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalid('Missing argument: "data"');
  return b as JsonObject;
}

function find(state: SandboxState, request: FastifyRequest): Alarm {
  const id = (request.params as { id: string }).id;
  const found = state.get<Alarm>(KIND, id);
  if (!found || state.owner(KIND, id) !== request.caller.projectId) {
    throw new ApiError(404, `Alarm ${id} not found in project ${request.caller.projectId}`);
  }
  return found;
}

/** The alarm a request describes, checked as Aodh's API checks it (type, name, the rule). */
function alarmOf(request: FastifyRequest, given: JsonObject, base: Partial<Alarm>, now: string): AlarmFields {
  const merged: Record<string, Json | undefined> = { ...base, ...given };
  for (const f of SERVER_FIELDS) delete merged[f];
  const type = merged.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    throw invalid(`Invalid input for field/attribute type. Value: '${String(type)}'.`);
  }
  const name = merged.name;
  if (typeof name !== 'string' || name === '') throw invalid('Invalid input for field/attribute name.');
  const rule = merged[`${type}_rule`];
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    throw invalid(`Invalid input for field/attribute ${type}_rule. Value: 'None'. Mandatory field missing.`);
  }
  if (THRESHOLD_TYPES.has(type) && typeof (rule as JsonObject).threshold !== 'number') {
    throw invalid(`Invalid input for field/attribute threshold. Value: 'None'. Mandatory field missing.`);
  }
  const state = base.state ?? 'insufficient data';
  return {
    description: `Alarm when ${type} rule is met`,
    enabled: true,
    severity: 'low',
    repeat_actions: false,
    alarm_actions: [],
    ok_actions: [],
    insufficient_data_actions: [],
    time_constraints: [],
    ...(merged as JsonObject),
    name,
    type,
    state,
    project_id: request.caller.projectId,
    user_id: request.caller.userId,
    timestamp: now,
    state_timestamp: base.state_timestamp ?? now,
  };
}

function register(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const now = () => new Date(ctx.now()).toISOString();
  // An alarm's name is unique in its project.
  const nameTaken = (project: string, name: string, except?: string) =>
    state
      .list<Alarm>(KIND, { projectId: project, equal: { name: [name] } })
      .some((a) => a.alarm_id !== except);

  app.get('/v2/alarms', async (request) => state.list<Alarm>(KIND, { projectId: request.caller.projectId }));

  app.post('/v2/alarms', async (request, reply) => {
    const project = request.caller.projectId;
    const alarm = state.transaction(() => {
      const fields = alarmOf(request, body(request), {}, now());
      if (nameTaken(project, fields.name)) throw new ApiError(409, `Alarm with name='${fields.name}' exists`);
      const id = randomUUID();
      return state.put<Alarm>(KIND, project, { ...fields, id, alarm_id: id });
    });
    return reply.code(201).send(alarm);
  });

  app.get('/v2/alarms/:id', async (request) => find(state, request));

  app.put('/v2/alarms/:id', async (request) =>
    state.transaction(() => {
      const found = find(state, request);
      const fields = alarmOf(request, body(request), found, now());
      if (nameTaken(request.caller.projectId, fields.name, found.alarm_id)) {
        throw new ApiError(409, `Alarm with name='${fields.name}' exists`);
      }
      return state.put<Alarm>(KIND, request.caller.projectId, {
        ...fields,
        id: found.id,
        alarm_id: found.id,
      });
    }),
  );

  app.delete('/v2/alarms/:id', async (request, reply) => {
    state.transaction(() => {
      find(state, request);
      state.delete(KIND, (request.params as { id: string }).id);
    });
    return reply.code(204).send();
  });
}

export const alarmingService: ServiceModule = {
  name: 'alarming',
  prefix: '/alarming',
  authenticated: true,
  noisy: true,
  register,
};
