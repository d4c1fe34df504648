import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isAdmin } from '../../auth/identity.js';
import type { DeploymentChanges } from '../../software/contract.js';
import { formatConfig, formatDeployment } from '../../software/format.js';
import { bodyObject, bodyString, configFromBody } from '../../software/io.js';
import { type ProjectSoftware, softwareService, type SoftwareStore } from '../../software/service.js';
import { isPlainObject, type JsonObject } from '../../util/json.js';
import type { Api } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, HttpError, notFound } from '../errors.js';

const ConfigParams = Type.Object({ project_id: Type.String(), config_id: Type.String() });
const DeploymentParams = Type.Object({ project_id: Type.String(), deployment_id: Type.String() });
const ServerParams = Type.Object({ project_id: Type.String(), server_id: Type.String() });
const ConfigQuery = Type.Object({
  limit: Type.Optional(Type.String()),
  marker: Type.Optional(Type.String()),
  global_tenant: Type.Optional(Type.String()),
});
const DeploymentQuery = Type.Object({ server_id: Type.Optional(Type.String()) });
const AnyBody = Type.Optional(Type.Unknown());

const configNotFound = (id: string) => notFound(`Software config with id ${id} not found`, 'NotFound');
const deploymentNotFound = (id: string) => notFound(`Deployment with id ${id} not found`, 'NotFound');

/**
 * Heat's software config and deployment routes (api/openstack/v1/software_configs.py,
 * software_deployments.py): the request's project sees its own (an admin every project's, as
 * Heat's admin context); another's is a 404 naming the id.
 */
export function registerSoftwareRoutes(app: Api, deps: ApiDeps): void {
  const { store, clock } = deps.engine.deps;
  // Reads go through the store's read transactions: they stay quick while the engine writes.
  const reader: SoftwareStore = { tx: (fn) => store.read(fn) };
  const service = (request: FastifyRequest, reads = false): ProjectSoftware =>
    softwareService(reads ? reader : store, {
      projectId: request.identity.projectId,
      admin: isAdmin(request.identity),
      now: () => clock.now(),
    });
  const configTags = { tags: ['software_configs'] };
  const deploymentTags = { tags: ['software_deployments'] };

  app.get('/software_configs', { schema: { querystring: ConfigQuery, ...configTags } }, async (request) => {
    const { limit, marker, global_tenant: global } = request.query;
    // Heat's policy for software_configs:global_index is deny_everybody.
    if (global !== undefined && /^(true|1|yes|on|t|y)$/i.test(global))
      throw new HttpError(403, 'Forbidden', 'Access was denied to this resource: global_tenant');
    const admin = isAdmin(request.identity);
    const configs = await service(request, true).listConfigs({
      limit: limit === undefined ? undefined : nonNegativeInt(limit, 'limit'),
      marker,
    });
    return {
      software_configs: configs.map((c) => formatConfig(c, { detail: false, includeProject: admin })),
    };
  });

  app.post('/software_configs', { schema: { body: AnyBody, ...configTags } }, async (request) => {
    const body = objectBody(request.body);
    const config = await service(request).createConfig(configFromBody(randomUUID(), body));
    return { software_config: formatConfig(config) };
  });

  app.get(
    '/software_configs/:config_id',
    { schema: { params: ConfigParams, ...configTags } },
    async (request) => {
      const config = await service(request, true).getConfig(request.params.config_id);
      if (!config) throw configNotFound(request.params.config_id);
      return { software_config: formatConfig(config) };
    },
  );

  app.delete(
    '/software_configs/:config_id',
    { schema: { params: ConfigParams, ...configTags } },
    async (request, reply) => {
      if (!(await service(request).deleteConfig(request.params.config_id)))
        throw configNotFound(request.params.config_id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/software_deployments',
    { schema: { querystring: DeploymentQuery, ...deploymentTags } },
    async (request) => {
      const deployments = await service(request, true).listDeployments(request.query.server_id);
      return { software_deployments: deployments.map(formatDeployment) };
    },
  );

  app.get(
    '/software_deployments/metadata/:server_id',
    { schema: { params: ServerParams, ...deploymentTags } },
    async (request) => ({
      metadata: await service(request, true).serverDeployments(request.params.server_id),
    }),
  );

  app.post('/software_deployments', { schema: { body: AnyBody, ...deploymentTags } }, async (request) => {
    const body = objectBody(request.body);
    const configId = bodyString(body, 'config_id');
    const serverId = bodyString(body, 'server_id');
    if (!configId) throw badRequest('config_id is required', 'Invalid');
    if (!serverId) throw badRequest('server_id is required', 'Invalid');
    const userProject = bodyString(body, 'stack_user_project_id');
    if (userProject !== undefined && userProject.length > 64)
      throw badRequest('"stack_user_project_id" should be no more than 64 characters', 'Invalid');
    const deployment = await service(request).createDeployment({
      id: randomUUID(),
      configId,
      serverId,
      inputValues: bodyObject(body, 'input_values') ?? {},
      action: bodyString(body, 'action') ?? 'INIT',
      status: (bodyString(body, 'status') ?? 'COMPLETE') as never,
      statusReason: bodyString(body, 'status_reason') ?? '',
    });
    return { software_deployment: formatDeployment(deployment) };
  });

  app.get(
    '/software_deployments/:deployment_id',
    { schema: { params: DeploymentParams, ...deploymentTags } },
    async (request) => {
      const deployment = await service(request, true).getDeployment(request.params.deployment_id);
      if (!deployment) throw deploymentNotFound(request.params.deployment_id);
      return { software_deployment: formatDeployment(deployment) };
    },
  );

  app.put(
    '/software_deployments/:deployment_id',
    { schema: { params: DeploymentParams, body: AnyBody, ...deploymentTags } },
    async (request) => {
      const body = objectBody(request.body);
      const changes: DeploymentChanges = {};
      const configId = bodyString(body, 'config_id');
      if (configId !== undefined) changes.configId = configId;
      const inputValues = bodyObject(body, 'input_values');
      if (inputValues !== undefined) changes.inputValues = inputValues;
      const outputValues = bodyObject(body, 'output_values');
      if (outputValues !== undefined) changes.outputValues = outputValues;
      const action = bodyString(body, 'action');
      if (action !== undefined) changes.action = action;
      const status = bodyString(body, 'status');
      if (status !== undefined) changes.status = status as never;
      const reason = bodyString(body, 'status_reason');
      if (reason !== undefined) changes.statusReason = reason;
      const updated = await service(request).updateDeployment(request.params.deployment_id, changes);
      if (!updated) throw deploymentNotFound(request.params.deployment_id);
      return { software_deployment: formatDeployment(updated) };
    },
  );

  app.delete(
    '/software_deployments/:deployment_id',
    { schema: { params: DeploymentParams, ...deploymentTags } },
    async (request, reply) => {
      if (!(await service(request).deleteDeployment(request.params.deployment_id)))
        throw deploymentNotFound(request.params.deployment_id);
      return reply.status(204).send();
    },
  );
}

function objectBody(body: unknown): JsonObject {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw badRequest('the request body must be a JSON object');
  return body as JsonObject;
}

/** Heat's extract_int for `limit` (zero allowed, negative not). */
function nonNegativeInt(value: string, name: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw badRequest(`Only integer is acceptable by '${name}'.`);
  const n = Number(value);
  if (n < 0) throw badRequest(`Only non-negative integer is acceptable by '${name}'.`);
  return n;
}
