import type {
  DriftRecord,
  EventRecord,
  HealRecord,
  ProjectRecord,
  ResourceRecord,
  ServiceRecord,
  SnapshotRecord,
  StackRecord,
  TemplateRecord,
  TokenRecord,
  TraversalRecord,
  UserRecord,
  WorkItem,
} from '../contract.js';
import type { SoftwareConfigRecord, SoftwareDeploymentRecord } from '../../software/contract.js';
import { type ColumnKind, TableSpec } from './columns.js';

/** Record field ↔ column mappings. The DDL is in schema.ts; names here must match it. */

function spec<R>(table: string, columns: [field: keyof R & string, column: string, kind: ColumnKind][]) {
  return new TableSpec<R>(
    table,
    columns.map(([field, column, kind]) => ({ field, column, kind })),
  );
}

export const STACKS = spec<StackRecord>('stacks', [
  ['id', 'id', 'text'],
  ['name', 'name', 'text'],
  ['projectId', 'project_id', 'text'],
  ['parentId', 'parent_id', 'text'],
  ['parentResource', 'parent_resource', 'text'],
  ['rootId', 'root_stack_id', 'text'],
  ['action', 'action', 'text'],
  ['status', 'status', 'text'],
  ['reason', 'reason', 'text'],
  ['traversalId', 'traversal_id', 'text'],
  ['templateId', 'template_id', 'text'],
  ['prevTemplateId', 'prev_template_id', 'text'],
  ['convergence', 'convergence', 'bool'],
  ['timeoutMins', 'timeout_mins', 'int'],
  ['disableRollback', 'disable_rollback', 'bool'],
  ['tags', 'tags', 'json'],
  ['createdAt', 'created_at', 'time'],
  ['updatedAt', 'updated_at', 'time'],
  ['deletedAt', 'deleted_at', 'time'],
  ['observe', 'observe', 'json'],
  ['credentials', 'credentials', 'json'],
]);

export const TEMPLATES = spec<TemplateRecord>('templates', [
  ['id', 'id', 'text'],
  ['template', 'template', 'text'],
  ['url', 'url', 'text'],
  ['files', 'files', 'json'],
  ['environment', 'environment', 'json'],
  ['facade', 'facade', 'json'],
  ['createdAt', 'created_at', 'time'],
]);

export const RESOURCES = spec<ResourceRecord>('resources', [
  ['id', 'id', 'int'],
  ['uuid', 'uuid', 'text'],
  ['stackId', 'stack_id', 'text'],
  ['rootStackId', 'root_stack_id', 'text'],
  ['name', 'name', 'text'],
  ['type', 'type', 'text'],
  ['action', 'action', 'text'],
  ['status', 'status', 'text'],
  ['reason', 'reason', 'text'],
  ['physicalId', 'physical_id', 'text'],
  ['templateId', 'template_id', 'text'],
  ['properties', 'properties', 'json'],
  ['attributes', 'attributes', 'json'],
  ['data', 'data', 'json'],
  ['progress', 'progress', 'json'],
  ['requires', 'requires', 'json'],
  ['replaces', 'replaces', 'int'],
  ['replacedBy', 'replaced_by', 'int'],
  ['engineId', 'engine_id', 'text'],
  ['atomicKey', 'atomic_key', 'int'],
  ['unhealthy', 'unhealthy', 'bool'],
  ['createdAt', 'created_at', 'time'],
  ['updatedAt', 'updated_at', 'time'],
  ['createRetries', 'create_retries', 'int'],
]);

export const TRAVERSALS = spec<TraversalRecord>('traversals', [
  ['id', 'id', 'text'],
  ['stackId', 'stack_id', 'text'],
  ['rootStackId', 'root_stack_id', 'text'],
  ['action', 'action', 'text'],
  ['templateId', 'template_id', 'text'],
  ['remaining', 'remaining', 'int'],
  ['createdAt', 'created_at', 'time'],
  ['converge', 'converge', 'json'],
]);

export const EVENTS = spec<EventRecord>('events', [
  ['id', 'id', 'int'],
  ['uuid', 'uuid', 'text'],
  ['stackId', 'stack_id', 'text'],
  ['resourceName', 'resource_name', 'text'],
  ['resourceType', 'resource_type', 'text'],
  ['physicalId', 'physical_id', 'text'],
  ['action', 'action', 'text'],
  ['status', 'status', 'text'],
  ['reason', 'reason', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

export const WORK = spec<WorkItem>('work', [
  ['id', 'id', 'int'],
  ['rootStackId', 'root_stack_id', 'text'],
  ['stackId', 'stack_id', 'text'],
  ['traversalId', 'traversal_id', 'text'],
  ['kind', 'kind', 'text'],
  ['node', 'node', 'text'],
  ['payload', 'payload', 'json'],
  ['runAt', 'run_at', 'int'],
  ['attempts', 'attempts', 'int'],
  ['claimedBy', 'claimed_by', 'text'],
  ['claimExpires', 'claim_expires', 'int'],
  ['waitingFor', 'waiting_for', 'text'],
  ['inputs', 'inputs', 'json'],
]);

export const SERVICES = spec<ServiceRecord>('services', [
  ['engineId', 'engine_id', 'text'],
  ['host', 'host', 'text'],
  ['pid', 'pid', 'int'],
  ['startedAt', 'started_at', 'int'],
  ['heartbeatAt', 'heartbeat_at', 'int'],
]);

export const PROJECTS = spec<ProjectRecord>('projects', [
  ['id', 'id', 'text'],
  ['name', 'name', 'text'],
  ['createdAt', 'created_at', 'time'],
]);

export const USERS = spec<UserRecord>('users', [
  ['id', 'id', 'text'],
  ['name', 'name', 'text'],
  ['projectId', 'project_id', 'text'],
  ['roles', 'roles', 'json'],
  ['createdAt', 'created_at', 'time'],
  ['disabledAt', 'disabled_at', 'time'],
]);

export const TOKENS = spec<TokenRecord>('api_tokens', [
  ['id', 'id', 'text'],
  ['tokenHash', 'token_hash', 'text'],
  ['userId', 'user_id', 'text'],
  ['expiresAt', 'expires_at', 'int'],
  ['createdAt', 'created_at', 'time'],
  ['revokedAt', 'revoked_at', 'time'],
]);

export const DRIFT = spec<DriftRecord>('resource_drift', [
  ['stackId', 'stack_id', 'text'],
  ['resourceName', 'resource_name', 'text'],
  ['resourceType', 'resource_type', 'text'],
  ['physicalId', 'physical_id', 'text'],
  ['status', 'status', 'text'],
  ['diff', 'diff', 'json'],
  ['reason', 'reason', 'text'],
  ['detectedAt', 'detected_at', 'time'],
]);

export const HEALS = spec<HealRecord>('resource_heals', [
  ['stackId', 'stack_id', 'text'],
  ['resourceName', 'resource_name', 'text'],
  ['rootStackId', 'root_stack_id', 'text'],
  ['attempts', 'attempts', 'int'],
  ['lastAt', 'last_at', 'int'],
]);

export const SNAPSHOTS = spec<SnapshotRecord>('snapshots', [
  ['id', 'id', 'text'],
  ['stackId', 'stack_id', 'text'],
  ['projectId', 'project_id', 'text'],
  ['name', 'name', 'text'],
  ['status', 'status', 'text'],
  ['statusReason', 'status_reason', 'text'],
  ['traversalId', 'traversal_id', 'text'],
  ['data', 'data', 'json'],
  ['deleting', 'deleting', 'bool'],
  ['createdAt', 'created_at', 'time'],
  ['updatedAt', 'updated_at', 'time'],
]);

export const SOFTWARE_CONFIGS = spec<SoftwareConfigRecord>('software_configs', [
  ['id', 'id', 'text'],
  ['projectId', 'project_id', 'text'],
  ['name', 'name', 'text'],
  ['group', 'group_name', 'text'],
  ['config', 'config', 'json'],
  ['inputs', 'inputs', 'json'],
  ['outputs', 'outputs', 'json'],
  ['options', 'options', 'json'],
  ['createdAt', 'created_at', 'time'],
]);

export const SOFTWARE_DEPLOYMENTS = spec<SoftwareDeploymentRecord>('software_deployments', [
  ['id', 'id', 'text'],
  ['projectId', 'project_id', 'text'],
  ['configId', 'config_id', 'text'],
  ['serverId', 'server_id', 'text'],
  ['inputValues', 'input_values', 'json'],
  ['outputValues', 'output_values', 'json'],
  ['action', 'action', 'text'],
  ['status', 'status', 'text'],
  ['statusReason', 'status_reason', 'text'],
  ['createdAt', 'created_at', 'time'],
  ['updatedAt', 'updated_at', 'time'],
]);

/**
 * A resource row an update cannot leave alone whatever its definition (unchanged.ts's `settled`,
 * but for the row's type and data): the predicate of the partial index `resources_unsettled` (schema.ts, migration 24: keep them equal).
 * Queries repeat it word for word, so that both databases use the index. A DELETE_COMPLETE row
 * is in it too: the purge finds those through it.
 */
export const UNSETTLED = `(status <> 'COMPLETE' OR action IN ('INIT', 'DELETE') OR unhealthy <> 0 OR engine_id IS NOT NULL OR replaced_by IS NOT NULL OR physical_id IS NULL)`;
