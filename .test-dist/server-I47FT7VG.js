import {
  AuthenticationError,
  AuthenticationUnavailableError,
  ConflictError,
  HEARTH_VERSION,
  IdentityError,
  MASK,
  NodeResolveContext,
  OperationError,
  SIGNAL_TOKEN_PREFIX,
  STACK_USER_ROLE,
  TemplateError,
  abandonStack,
  allVersions,
  authToken,
  cancelStack,
  checkStack,
  createStack,
  currentOutputs,
  currentRow,
  defineStackFromText,
  deleteStack,
  engineAlive,
  environmentToJSON,
  findVersion,
  heatTime,
  isAdmin,
  isPlainObject,
  isUnknown,
  knownValue,
  markUnhealthy,
  mergeEnvironments,
  parseBoolean,
  parseEnvironment,
  parseSource,
  parseTemplate,
  previewStackCreate,
  previewStackUpdate,
  providerTemplate,
  pyStr,
  resolveTemplateUrl,
  schemaToHeatJSON,
  setOwn,
  signalResource,
  stackOutputs,
  stackPath,
  storedInput,
  suspendOrResume,
  typeName,
  updateStack,
  validateResult
} from "./chunk-DJHPI5HD.js";

// src/api/server.ts
import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import Fastify from "fastify";

// src/api/errors.ts
var STATUS_TEXT = {
  400: [
    "Bad Request",
    "The server could not comply with the request since it is either malformed or otherwise incorrect."
  ],
  401: [
    "Unauthorized",
    "This server could not verify that you are authorized to access the document you requested."
  ],
  403: ["Forbidden", "Access was denied to this resource."],
  404: ["Not Found", "The resource could not be found."],
  405: ["Method Not Allowed", "The method specified is not allowed for this resource."],
  409: ["Conflict", "There was a conflict when trying to complete your request."],
  413: ["Request Entity Too Large", "The body of your request was too large for this server."],
  415: ["Unsupported Media Type", "The request media type is not supported by this server."],
  500: [
    "Internal Server Error",
    "The server has either erred or is incapable of performing the requested operation."
  ],
  501: [
    "Not Implemented",
    "The server has either erred or is incapable of performing the requested operation."
  ],
  503: ["Service Unavailable", "The server is currently unavailable. Please try again at a later time."]
};
var HttpError = class extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
  status;
  type;
  name = "HttpError";
};
var badRequest = (message, type = "HTTPBadRequest") => new HttpError(400, type, message);
var notFound = (message, type = "EntityNotFound") => new HttpError(404, type, message);
function stackNotFound(nameOrId) {
  return notFound(`The Stack (${nameOrId}) could not be found.`);
}
function heatErrorBody(status, type, message) {
  const [title, explanation] = STATUS_TEXT[status] ?? STATUS_TEXT[status >= 500 ? 500 : 400];
  return { code: status, title, explanation, error: { message, type, traceback: null } };
}
function templateErrorType(error) {
  if (error.kind === "version") return "InvalidTemplateVersion";
  if (error.kind === "limit") return "RequestLimitExceeded";
  return "StackValidationFailed";
}
var OPERATION_ERRORS = {
  not_found: [404, "EntityNotFound"],
  conflict: [409, "ActionInProgress"],
  invalid: [400, "StackValidationFailed"]
};
function classify(err) {
  if (err instanceof HttpError)
    return { status: err.status, type: err.type, message: err.message, internal: false };
  if (err instanceof AuthenticationError) {
    return { status: 401, type: "HTTPUnauthorized", message: err.message, internal: false };
  }
  if (err instanceof AuthenticationUnavailableError) {
    return { status: 503, type: "HTTPServiceUnavailable", message: err.message, internal: false };
  }
  if (err instanceof IdentityError)
    return { status: 400, type: "HTTPBadRequest", message: err.message, internal: false };
  if (err instanceof TemplateError) {
    return { status: 400, type: templateErrorType(err), message: err.message, internal: false };
  }
  if (err instanceof OperationError) {
    const [status, type] = OPERATION_ERRORS[err.code];
    return { status, type, message: err.message, internal: false };
  }
  if (err instanceof ConflictError) {
    return { status: 409, type: "ActionInProgress", message: err.message, internal: false };
  }
  const fastify = err;
  if (typeof fastify.statusCode === "number" && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const type = fastify.statusCode === 413 ? "RequestLimitExceeded" : "HTTPBadRequest";
    return { status: fastify.statusCode, type, message: fastify.message ?? "bad request", internal: false };
  }
  return {
    status: 500,
    type: "InternalServerError",
    message: "The server could not complete the request; the error is in its log.",
    internal: true
  };
}

// src/api/metrics.ts
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
var REQUEST_LABELS = ["method", "route", "status"];
var BUCKETS = [1e-3, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
function registerMetrics(app, deps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: "hearth_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: REQUEST_LABELS,
    registers
  });
  const latency = new Histogram({
    name: "hearth_http_request_duration_seconds",
    help: "Time from a request to its response, by method, route pattern and status",
    labelNames: REQUEST_LABELS,
    buckets: BUCKETS,
    registers
  });
  app.addHook("onResponse", async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? "unmatched",
      status: String(reply.statusCode)
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1e3);
  });
  const units = new Counter({
    name: "hearth_work_units_total",
    help: "Units of work this process's engine ran, by kind",
    labelNames: ["kind"],
    registers
  });
  const failedUnits = new Counter({
    name: "hearth_work_units_failed_total",
    help: "Units of work that ended in an error (each is retried), by kind",
    labelNames: ["kind"],
    registers
  });
  const unitTime = new Histogram({
    name: "hearth_work_unit_duration_seconds",
    help: "Time a unit of work took (units run as a batch share its time evenly), by kind",
    labelNames: ["kind"],
    buckets: BUCKETS,
    registers
  });
  const stopObserving = deps.engine.worker.observe((kind, ok, ms) => {
    units.inc({ kind });
    if (!ok) failedUnits.inc({ kind });
    unitTime.observe({ kind }, ms / 1e3);
  });
  app.addHook("onClose", async () => {
    stopObserving();
  });
  const queue = new Gauge({
    name: "hearth_work_queue_items",
    help: "Units of work queued: due (claimable now), claimed (running), scheduled (a later time or an event)",
    labelNames: ["state"],
    registers
  });
  const nextDue = new Gauge({
    name: "hearth_work_queue_next_due_timestamp_seconds",
    help: "When the earliest queued unit became or becomes claimable (+Inf when the queue is empty)",
    registers
  });
  const stacks = new Gauge({
    name: "hearth_stacks",
    help: "Stacks not deleted (nested ones included), by action and status",
    labelNames: ["action", "status"],
    registers
  });
  const heartbeats = new Gauge({
    name: "hearth_engine_heartbeat_timestamp_seconds",
    help: "Last heartbeat of each engine registered in the store",
    labelNames: ["engine_id"],
    registers
  });
  async function readEngine() {
    const { store, clock } = deps.engine.deps;
    const now = clock.now();
    const figures = await store.tx(async (tx) => ({
      byStatus: await tx.stacks.countByStatus(),
      work: await tx.work.stats(now),
      services: await tx.services.list()
    }));
    stacks.reset();
    for (const { action, status, count } of figures.byStatus) stacks.set({ action, status }, count);
    queue.reset();
    queue.set({ state: "due" }, figures.work.due);
    queue.set({ state: "claimed" }, figures.work.claimed);
    queue.set({ state: "scheduled" }, figures.work.scheduled);
    const next = figures.work.nextAvailableAt;
    nextDue.set(next === void 0 ? Infinity : next / 1e3);
    heartbeats.reset();
    for (const s of figures.services) heartbeats.set({ engine_id: s.engineId }, s.heartbeatAt / 1e3);
  }
  app.get("/metrics", { schema: { hide: true }, logLevel: "warn" }, async (_request, reply) => {
    await readEngine();
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

// src/api/routes/actions.ts
import { Type } from "@sinclair/typebox";

// src/api/replies.ts
function replyNull(reply) {
  return reply.status(200).header("content-type", "application/json").send("null");
}

// src/api/stack-access.ts
async function stackByNameOrId(engine, request, nameOrId) {
  const project = request.identity.projectId;
  const found = await engine.deps.store.tx(async (tx) => {
    const byName = await tx.stacks.findByName(project, nameOrId);
    if (byName) return byName;
    return tx.stacks.get(nameOrId);
  });
  if (!found || found.projectId !== project || found.deletedAt) throw stackNotFound(nameOrId);
  return found;
}
async function stackByIdentity(engine, request, name, id) {
  const found = await engine.deps.store.tx((tx) => tx.stacks.get(id));
  if (!found || found.projectId !== request.identity.projectId || found.deletedAt || found.name !== name && found.id !== name) {
    throw stackNotFound(`${name}/${id}`);
  }
  return found;
}
async function stackDefinition(engine, stack) {
  if (!stack.templateId) return void 0;
  return engine.cache.lookup(
    stack.templateId,
    { stackId: stack.id, stackName: stack.name, projectId: stack.projectId },
    (id) => engine.deps.store.tx((tx) => tx.templates.get(id))
  );
}

// src/api/routes/actions.ts
var StackParams = Type.Object({
  project_id: Type.String(),
  stack_name: Type.String(),
  stack_id: Type.String()
});
var ACTIONS = ["check", "cancel_update", "cancel_without_rollback", "suspend", "resume"];
function registerActionRoutes(app, deps) {
  const { engine } = deps;
  app.post(
    "/stacks/:stack_name/:stack_id/actions",
    { schema: { params: StackParams, body: Type.Record(Type.String(), Type.Unknown()), tags: ["stacks"] } },
    async (request, reply) => {
      const keys = Object.keys(request.body);
      if (keys.length !== 1 || !ACTIONS.includes(keys[0])) {
        throw badRequest(`the body must have exactly one of the actions ${ACTIONS.join(", ")}`);
      }
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      switch (keys[0]) {
        case "check":
          await checkStack(engine.deps, engine.cache, stack.id);
          break;
        case "cancel_update":
          await cancelStack(engine.deps, stack.id, { rollback: true });
          break;
        case "cancel_without_rollback":
          await cancelStack(engine.deps, stack.id, { rollback: false });
          break;
        case "suspend":
          await suspendOrResume(engine.deps, stack.id, "SUSPEND");
          break;
        case "resume":
          await suspendOrResume(engine.deps, stack.id, "RESUME");
          break;
      }
      return replyNull(reply);
    }
  );
}

// src/api/routes/signal-url.ts
import { Type as Type2 } from "@sinclair/typebox";

// src/api/signal.ts
async function acceptSignal(engine, stackId, resourceName, body) {
  const details = body ?? null;
  if (details !== null && !isPlainObject(details)) {
    throw badRequest(`The signal's details must be a JSON object, not a ${typeName(details)}`);
  }
  try {
    await signalResource(engine.deps, stackId, resourceName, details);
  } catch (err) {
    if (err instanceof OperationError && err.code === "invalid") {
      throw new HttpError(400, "ResourceActionNotSupported", err.message);
    }
    throw err;
  }
}

// src/api/routes/signal-url.ts
function registerSignalUrlRoute(app, deps) {
  app.post(
    "/v1/signal/:token",
    { schema: { params: Type2.Object({ token: Type2.String() }), hide: true } },
    async (request, reply) => {
      const target = deps.signer?.verify(request.params.token);
      if (!target) throw new HttpError(401, "HTTPUnauthorized", "The signal URL is not valid");
      const stack = await deps.engine.deps.store.tx((tx) => tx.stacks.get(target.stackId));
      if (!stack || stack.deletedAt || stack.projectId !== target.projectId) {
        throw notFound(`The resource signalled by this URL is gone`);
      }
      await acceptSignal(deps.engine, stack.id, target.resourceName, request.body);
      return reply.status(200).send();
    }
  );
}

// src/api/routes/catalog.ts
import { Type as Type3 } from "@sinclair/typebox";

// src/api/request/query.ts
function queryBool(value, name) {
  if (value === void 0) return false;
  const parsed = parseBoolean(value);
  if (parsed === void 0) {
    throw badRequest(`Unrecognized value "${value}" for "${name}": expected true or false`);
  }
  return parsed;
}

// src/api/views/catalog.ts
var HOT_VERSION_KEY = "heat_template_version";
function templateVersionJSON(version) {
  return {
    version: `${HOT_VERSION_KEY}.${version.date}`,
    type: "hot",
    aliases: version.alias ? [`${HOT_VERSION_KEY}.${version.alias}`] : []
  };
}
function templateFunctionsJSON(version, withConditions) {
  const rows = version.functions.names().map((name) => ({ functions: name, description: version.functions.get(name).description }));
  if (withConditions) {
    for (const name of version.conditionFunctions.names()) {
      if (version.functions.get(name)) continue;
      rows.push({ functions: name, description: version.conditionFunctions.lookup(name).description });
    }
  }
  return rows;
}
function supportStatusOf(plugin) {
  const declared = plugin.supportStatus;
  return { status: declared?.status ?? "SUPPORTED", version: declared?.version };
}
function resourceTypeJSON(plugin, withDescription) {
  const status = plugin.supportStatus;
  return schemaToHeatJSON(plugin.type, plugin.properties, plugin.attributes, {
    ...status ? { supportStatus: status } : {},
    ...withDescription ? { description: plugin.description } : {}
  });
}

// src/api/routes/catalog.ts
var SUPPORT_STATUSES = ["UNKNOWN", "SUPPORTED", "DEPRECATED", "UNSUPPORTED", "HIDDEN"];
var TypesQuery = Type3.Object({
  name: Type3.Optional(Type3.String()),
  version: Type3.Optional(Type3.String()),
  support_status: Type3.Optional(Type3.String()),
  with_description: Type3.Optional(Type3.String())
});
var TypeParams = Type3.Object({ project_id: Type3.String(), type_name: Type3.String() });
var TypeQuery = Type3.Object({ with_description: Type3.Optional(Type3.String()) });
var TemplateQuery = Type3.Object({ template_type: Type3.Optional(Type3.String()) });
var VersionParams = Type3.Object({ project_id: Type3.String(), template_version: Type3.String() });
var FunctionsQuery = Type3.Object({ with_condition_func: Type3.Optional(Type3.String()) });
function nameMatcher(pattern) {
  if (pattern === void 0) return () => true;
  const quantifiers = pattern.match(/[*+?]|\{\d/g)?.length ?? 0;
  if (pattern.length > 128 || quantifiers > 4 || /\)[*+?{]/.test(pattern)) {
    throw badRequest(`the name pattern "${pattern}" is too complex: at most 4 quantifiers, none on a group`);
  }
  let re;
  try {
    re = new RegExp(`^(?:${pattern})`);
  } catch {
    return () => false;
  }
  return (type) => re.test(type);
}
function registerCatalogRoutes(app, deps) {
  const plugins = deps.engine.deps.plugins;
  function offered(type) {
    const plugin = plugins.plugin(type);
    if (!plugin || supportStatusOf(plugin).status === "HIDDEN") {
      throw notFound(`The resource type ${type} is not known.`, "ResourceTypeNotFound");
    }
    return plugin;
  }
  app.get(
    "/resource_types",
    { schema: { querystring: TypesQuery, tags: ["resource types"] } },
    async (request) => {
      const q = request.query;
      const withDescription = queryBool(q.with_description, "with_description");
      if (q.support_status !== void 0 && !SUPPORT_STATUSES.includes(q.support_status)) {
        throw badRequest(
          `support_status "${q.support_status}" is not one of ${SUPPORT_STATUSES.join(", ")}`,
          "Invalid"
        );
      }
      const matches2 = nameMatcher(q.name);
      const types = plugins.types().map((type) => plugins.plugin(type)).filter((plugin) => {
        const { status, version } = supportStatusOf(plugin);
        return status !== "HIDDEN" && matches2(plugin.type) && (q.support_status === void 0 || status === q.support_status) && (q.version === void 0 || version === q.version);
      });
      return {
        resource_types: types.map(
          (p) => withDescription ? { resource_type: p.type, description: p.description } : p.type
        )
      };
    }
  );
  app.get(
    "/resource_types/:type_name",
    { schema: { params: TypeParams, querystring: TypeQuery, tags: ["resource types"] } },
    async (request) => {
      const plugin = offered(request.params.type_name);
      return resourceTypeJSON(plugin, queryBool(request.query.with_description, "with_description"));
    }
  );
  app.get(
    "/resource_types/:type_name/template",
    { schema: { params: TypeParams, querystring: TemplateQuery, tags: ["resource types"] } },
    async (request) => {
      const plugin = offered(request.params.type_name);
      const format = (request.query.template_type ?? "cfn").toLowerCase();
      if (format !== "hot" && format !== "cfn") {
        throw badRequest(`Template type is not supported: ${request.query.template_type}; use hot or cfn`);
      }
      return providerTemplate(plugin.type, plugin.properties, plugin.attributes, format);
    }
  );
  app.get("/template_versions", { schema: { tags: ["templates"] } }, async () => ({
    template_versions: allVersions().map(templateVersionJSON)
  }));
  app.get(
    "/template_versions/:template_version/functions",
    { schema: { params: VersionParams, querystring: FunctionsQuery, tags: ["templates"] } },
    async (request) => {
      const name = request.params.template_version;
      const prefix = `${HOT_VERSION_KEY}.`;
      const version = name.startsWith(prefix) ? findVersion(name.slice(prefix.length)) : void 0;
      if (!version) throw notFound(`Template with version ${name} not found`, "NotFound");
      const withConditions = queryBool(request.query.with_condition_func, "with_condition_func");
      return { template_functions: templateFunctionsJSON(version, withConditions) };
    }
  );
  app.get("/build_info", { schema: { tags: ["build"] } }, async () => ({
    api: { revision: HEARTH_VERSION },
    engine: { revision: HEARTH_VERSION }
  }));
}

// src/api/routes/previews.ts
import { Type as Type5 } from "@sinclair/typebox";

// src/api/request/stack-body.ts
import { Type as Type4 } from "@sinclair/typebox";

// src/api/request/template-input.ts
var INLINE_BASE = "file:///";
function stringMap(value, field) {
  if (value === void 0 || value === null) return {};
  if (!isPlainObject(value)) throw badRequest(`"${field}" must be an object`);
  const out = {};
  for (const [key, text] of Object.entries(value)) {
    if (typeof text !== "string") throw badRequest(`"${field}.${key}" must be a string`);
    out[resolveTemplateUrl(INLINE_BASE, key)] = text;
  }
  return out;
}
function jsonMap(value, field) {
  if (value === void 0 || value === null) return {};
  if (!isPlainObject(value)) throw badRequest(`"${field}" must be an object`);
  return { ...value };
}
function templateText(fields) {
  if (fields.template_url !== void 0 && fields.template === void 0) {
    throw badRequest('template_url is not supported: send the template itself in "template"');
  }
  const template = fields.template;
  if (template === void 0 || template === null) throw badRequest("No template specified");
  if (typeof template === "string") return template;
  if (!isPlainObject(template)) throw badRequest('"template" must be an object or a string');
  return JSON.stringify(template);
}
function requestEnvironment(fields, files, limits) {
  const layers = [];
  const envFiles = fields.environment_files ?? [];
  if (!Array.isArray(envFiles) || envFiles.some((f) => typeof f !== "string")) {
    throw badRequest('"environment_files" must be a list of file names');
  }
  for (const name of envFiles) {
    const url = resolveTemplateUrl(INLINE_BASE, name);
    const text = files[url];
    if (text === void 0) throw badRequest(`environment file "${name}" is not in "files"`);
    layers.push(parseEnvironment(url, text, limits));
  }
  const environment = fields.environment;
  if (environment !== void 0 && environment !== null) {
    if (typeof environment === "string") {
      layers.push(parseEnvironment(`${INLINE_BASE}environment`, environment, limits));
    } else if (isPlainObject(environment)) {
      layers.push(parseEnvironment(`${INLINE_BASE}environment`, JSON.stringify(environment), limits));
    } else {
      throw badRequest('"environment" must be an object or a string');
    }
  }
  const merged = mergeEnvironments(layers);
  const parameters = jsonMap(fields.parameters, "parameters");
  return Object.keys(parameters).length === 0 ? merged : { ...merged, parameters: { ...merged.parameters, ...parameters } };
}
function templateInput(fields, limits) {
  const text = templateText(fields);
  const files = stringMap(fields.files, "files");
  return {
    url: `${INLINE_BASE}template`,
    text,
    files,
    environment: requestEnvironment(fields, files, limits)
  };
}

// src/api/request/stack-body.ts
var Strings = Type4.Array(Type4.String());
var templateFields = {
  template: Type4.Optional(Type4.Unknown()),
  template_url: Type4.Optional(Type4.String()),
  files: Type4.Optional(Type4.Record(Type4.String(), Type4.String())),
  environment: Type4.Optional(Type4.Unknown()),
  environment_files: Type4.Optional(Strings),
  parameters: Type4.Optional(Type4.Record(Type4.String(), Type4.Unknown()))
};
var stackFields = {
  timeout_mins: Type4.Optional(Type4.Union([Type4.Integer({ minimum: 1 }), Type4.Null()])),
  disable_rollback: Type4.Optional(Type4.Boolean()),
  tags: Type4.Optional(Type4.Union([Type4.String(), Strings]))
};
var TemplateBody = Type4.Object(templateFields, { additionalProperties: true });
var CreateBody = Type4.Object(
  { stack_name: Type4.Optional(Type4.String()), ...templateFields, ...stackFields },
  { additionalProperties: true }
);
var UpdateBody = Type4.Object(
  {
    ...templateFields,
    ...stackFields,
    clear_parameters: Type4.Optional(Strings),
    existing: Type4.Optional(Type4.Boolean())
  },
  { additionalProperties: true }
);
function tagList(value) {
  if (value === void 0) return void 0;
  const items = Array.isArray(value) ? value : value.split(",");
  return items.map((t) => t.trim()).filter((t) => t !== "");
}
async function createRequest(deps, projectId, body) {
  const { engine } = deps;
  const name = body.stack_name;
  if (!name) throw badRequest("No stack name specified");
  const limit = deps.limits.max_stacks_per_tenant;
  if (limit >= 0) {
    const count = (await engine.deps.store.tx((tx) => tx.stacks.list({ projectId }))).length;
    if (count >= limit) {
      throw badRequest(
        `You have reached the maximum stacks per tenant, ${limit}. Please delete some stacks.`,
        "RequestLimitExceeded"
      );
    }
  }
  const existing = await engine.deps.store.tx((tx) => tx.stacks.findByName(projectId, name));
  if (existing) throw new HttpError(409, "StackExists", `The Stack (${name}) already exists.`);
  return {
    name,
    projectId,
    template: templateInput(body, engine.deps.settings.limits),
    timeoutMins: body.timeout_mins ?? null,
    disableRollback: body.disable_rollback ?? true,
    tags: tagList(body.tags) ?? []
  };
}
async function updateRequest(engine, stack, body, patch) {
  const req = {
    ...body.disable_rollback !== void 0 ? { disableRollback: body.disable_rollback } : {},
    ...body.timeout_mins !== void 0 ? { timeoutMins: body.timeout_mins } : {},
    ...body.tags !== void 0 ? { tags: tagList(body.tags) } : {}
  };
  const limits = engine.deps.settings.limits;
  const fields = body;
  if (!patch) return { ...req, template: templateInput(fields, limits) };
  const stored = await storedInput(engine.deps, stack);
  const base = body.template !== void 0 && body.template !== null ? templateInput(fields, limits) : stored;
  const kept = { ...stored.environment.parameters };
  for (const cleared of body.clear_parameters ?? []) delete kept[cleared];
  const given = requestEnvironment(fields, base.files, limits);
  const environment = mergeEnvironments([{ ...stored.environment, parameters: kept }, given]);
  return { ...req, template: { ...base, files: { ...stored.files, ...base.files }, environment } };
}

// src/api/views/stack.ts
function stackStatus(stack) {
  return `${stack.action}_${stack.status}`;
}
function links(base, stack) {
  const self = [{ href: stackPath(base, stack), rel: "self" }];
  return stack.parentId ? [...self, { href: `${base.project}/stacks/${stack.parentId}`, rel: "parent" }] : self;
}
function updatedTime(stack) {
  return stack.updatedAt === null || stack.updatedAt === stack.createdAt ? null : heatTime(stack.updatedAt);
}
function stackListItem(base, stack, withProject) {
  return {
    id: stack.id,
    links: links(base, stack),
    ...withProject ? { project: stack.projectId } : {},
    stack_name: stack.name,
    description: "",
    stack_status: stackStatus(stack),
    stack_status_reason: stack.reason,
    creation_time: heatTime(stack.createdAt),
    updated_time: updatedTime(stack),
    deletion_time: heatTime(stack.deletedAt),
    stack_owner: stack.projectId,
    parent: stack.parentId,
    stack_user_project_id: stack.projectId,
    tags: stack.tags.length > 0 ? stack.tags : null
  };
}
function shownParameters(definition, stack) {
  const out = {
    "OS::stack_id": stack.id,
    "OS::project_id": stack.projectId,
    "OS::stack_name": stack.name
  };
  if (!definition) return out;
  for (const [name, schema] of definition.template.parameters) {
    const value = definition.parameters.get(name);
    if (value === void 0 || isUnknown(value)) continue;
    out[name] = schema.hidden ? MASK : pyStr(value);
  }
  return out;
}
function stackDetail(base, stack, definition, outputs) {
  const description = definition?.template.description ?? "";
  return {
    stack_name: stack.name,
    id: stack.id,
    links: links(base, stack),
    creation_time: heatTime(stack.createdAt),
    updated_time: updatedTime(stack),
    deletion_time: heatTime(stack.deletedAt),
    notification_topics: [],
    parameters: shownParameters(definition, stack),
    description,
    template_description: description,
    capabilities: [],
    disable_rollback: stack.disableRollback,
    timeout_mins: stack.timeoutMins,
    stack_owner: stack.projectId,
    parent: stack.parentId,
    stack_user_project_id: stack.projectId,
    tags: stack.tags,
    stack_status: stackStatus(stack),
    stack_status_reason: stack.reason,
    ...outputs ? { outputs } : {}
  };
}

// src/api/views/preview.ts
var NO_ID = "None";
function resourceJSON(projectId, plugins, r) {
  const identity = (path) => ({
    tenant: projectId,
    stack_name: r.stack.name,
    stack_id: r.stack.id,
    path
  });
  const row = r.row;
  const out = {
    updated_time: row ? heatTime(row.updatedAt ?? row.createdAt) : null,
    creation_time: row ? heatTime(row.createdAt) : null,
    resource_name: r.name,
    physical_resource_id: row?.physicalId ?? "",
    resource_action: row?.action ?? "INIT",
    resource_status: row?.status ?? "COMPLETE",
    resource_status_reason: row?.reason ?? "",
    resource_type: r.type,
    resource_identity: identity(`/resources/${r.name}`),
    stack_identity: identity(""),
    stack_name: r.stack.name,
    required_by: [...r.requiredBy]
  };
  if (r.parentResource !== void 0) out.parent_resource = r.parentResource;
  out.description = r.description;
  out.metadata = r.metadata ?? {};
  out.attributes = attributesJSON(plugins, r.type, row);
  if (r.properties) out.properties = r.properties;
  return out;
}
function attributesJSON(plugins, type, row) {
  const plugin = plugins.plugin(type);
  const read = plugins.typeCatalog.get(type)?.readAttribute;
  const cached = row && row.action !== "INIT" ? row.attributes : void 0;
  const value = (name) => {
    if (!cached) return null;
    if (Object.hasOwn(cached, name)) return cached[name];
    return read?.(cached, name) ?? null;
  };
  if (!plugin) return cached ? read?.(cached, void 0) ?? { ...cached } : {};
  const out = {};
  for (const [name, schema] of Object.entries(plugin.attributes)) {
    if (schema.supportStatus?.status !== "HIDDEN") out[name] = value(name);
  }
  return out;
}
function propertiesJSON(plugin, known) {
  const given = known !== null && typeof known === "object" && !Array.isArray(known) ? known : {};
  if (!plugin || plugin.anyProperties) return { ...given };
  const out = {};
  for (const name of Object.keys(plugin.properties))
    out[name] = Object.hasOwn(given, name) ? given[name] : null;
  return out;
}
function createPreviewBody(base, plugins, s) {
  const description = s.definition.template.description ?? "";
  const outputs = [...s.definition.template.outputs.values()].map((o) => ({
    output_key: o.name,
    description: o.description ?? "No description given",
    output_value: null
  }));
  return {
    stack_name: s.name,
    id: NO_ID,
    links: [{ href: `${base.project}/stacks/${encodeURIComponent(s.name)}/${NO_ID}`, rel: "self" }],
    creation_time: heatTime(new Date(s.now).toISOString()),
    updated_time: null,
    deletion_time: null,
    notification_topics: [],
    parameters: shownParameters(s.definition, { id: NO_ID, projectId: s.projectId, name: s.name }),
    description,
    template_description: description,
    capabilities: [],
    disable_rollback: s.disableRollback,
    timeout_mins: s.timeoutMins,
    stack_owner: s.projectId,
    parent: null,
    stack_user_project_id: null,
    tags: s.tags,
    outputs,
    resources: nestedResources(s, plugins)
  };
}
function nestedResources(s, plugins) {
  const byStack = /* @__PURE__ */ new Map();
  for (const r of s.resources) {
    const key = JSON.stringify(r.path);
    byStack.set(key, [...byStack.get(key) ?? [], r]);
  }
  const level = (path) => (byStack.get(JSON.stringify(path)) ?? []).map((r) => {
    const inner = [...path, r.name];
    if (byStack.has(JSON.stringify(inner))) return level(inner);
    const plugin = plugins.plugin(r.type);
    return resourceJSON(s.projectId, plugins, {
      name: r.name,
      type: r.type,
      stack: { name: [s.name, ...path].join("-"), id: NO_ID },
      requiredBy: r.requiredBy,
      parentResource: path.at(-1),
      description: r.description,
      metadata: knownValue(r.metadata),
      row: void 0,
      properties: propertiesJSON(plugin, knownValue(r.properties))
    });
  });
  return level([]);
}
function updatePreviewBody(plugins, ctx, changes) {
  const byChange = {
    unchanged: [],
    updated: [],
    replaced: [],
    added: [],
    deleted: []
  };
  for (const c of changes) {
    const existing = c.change === "unchanged" || c.change === "updated" || c.change === "deleted";
    const row = existing && c.row ? ctx.rows.get(c.row.id) : void 0;
    const stack = c.stackId === null ? { name: [ctx.stack.name, ...c.path].join("-"), id: NO_ID } : { name: ctx.stackNames.get(c.stackId) ?? ctx.stack.name, id: c.stackId };
    byChange[c.change].push(
      resourceJSON(ctx.projectId, plugins, {
        name: c.name,
        type: c.type,
        stack,
        requiredBy: c.requiredBy,
        parentResource: c.path.at(-1),
        description: c.description,
        metadata: {},
        row
      })
    );
  }
  return { resource_changes: byChange };
}

// src/api/routes/previews.ts
var StackParams2 = Type5.Object({
  project_id: Type5.String(),
  stack_name: Type5.String(),
  stack_id: Type5.String()
});
var PreviewQuery = Type5.Object({ show_nested: Type5.Optional(Type5.String()) });
function registerPreviewRoutes(app, deps) {
  const { engine } = deps;
  app.post("/stacks/preview", { schema: { body: CreateBody, tags: ["stacks"] } }, async (request) => {
    const req = await createRequest(deps, request.identity.projectId, request.body);
    const { definition, resources } = previewStackCreate(engine.deps, engine.cache, req);
    const stack = createPreviewBody(baseOf(request), engine.deps.plugins, {
      name: req.name,
      projectId: req.projectId,
      definition,
      resources,
      disableRollback: req.disableRollback ?? true,
      timeoutMins: req.timeoutMins ?? null,
      tags: req.tags ?? [],
      now: engine.deps.clock.now()
    });
    return { stack };
  });
  for (const method of ["PUT", "PATCH"]) {
    app.route({
      method,
      url: "/stacks/:stack_name/:stack_id/preview",
      schema: { params: StackParams2, querystring: PreviewQuery, body: UpdateBody, tags: ["stacks"] },
      handler: async (request) => {
        const { stack_name: name, stack_id: id } = request.params;
        const { show_nested } = request.query;
        const nested = queryBool(show_nested, "show_nested");
        const stack = await stackByIdentity(engine, request, name, id);
        const body = request.body;
        const req = await updateRequest(engine, stack, body, method === "PATCH" || body.existing === true);
        const changes = await previewStackUpdate(engine.deps, engine.cache, stack.id, req, nested);
        const { rows, stackNames } = await rowsOf(deps, changes);
        return updatePreviewBody(
          engine.deps.plugins,
          {
            projectId: stack.projectId,
            stack: { name: stack.name, id: stack.id },
            rows,
            stackNames
          },
          changes
        );
      }
    });
  }
}
async function rowsOf(deps, changes) {
  const stackIds = new Set(changes.flatMap((c) => c.stackId === null ? [] : [c.stackId]));
  const rows = /* @__PURE__ */ new Map();
  const stackNames = /* @__PURE__ */ new Map();
  await deps.engine.deps.store.tx(async (tx) => {
    for (const stackId of stackIds) {
      const stack = await tx.stacks.get(stackId);
      if (stack) stackNames.set(stackId, stack.name);
      for (const row of await tx.resources.listAll(stackId)) rows.set(row.id, row);
    }
  });
  return { rows, stackNames };
}

// src/api/routes/events.ts
import { Type as Type7 } from "@sinclair/typebox";

// src/api/redact.ts
var MIN_SECRET_LENGTH = 4;
async function redactorFor(engine, stack) {
  const secrets = /* @__PURE__ */ new Set();
  for (let current = stack; current; ) {
    const definition = await stackDefinition(engine, current).catch((err) => {
      if (err instanceof TemplateError) return void 0;
      throw err;
    });
    if (definition) collectHidden(definition, secrets);
    const parentId = current.parentId;
    current = parentId ? await engine.deps.store.tx((tx) => tx.stacks.get(parentId)) : void 0;
  }
  return redactor(secrets);
}
function redactor(values) {
  const secrets = [...values].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => secrets.reduce((out, secret) => out.split(secret).join(MASK), text);
}
function collectHidden(definition, into) {
  for (const [name, schema] of definition.template.parameters) {
    const value = definition.parameters.get(name);
    if (!schema.hidden || value === void 0 || isUnknown(value)) continue;
    for (const form of textForms(value)) into.add(form);
  }
  for (const resource of definition.resources.values()) {
    const impl = resource.implementation;
    if (impl.kind === "template") collectHidden(impl.stack, into);
  }
}
function textForms(value) {
  if (typeof value === "string") return [value];
  const forms = [pyStr(value), JSON.stringify(value)];
  const visit = (v) => {
    if (typeof v === "string") forms.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (isPlainObject(v)) Object.values(v).forEach((x) => visit(x));
  };
  visit(value);
  return forms;
}
function redactJson(value, redact) {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact));
  if (isPlainObject(value)) {
    const out = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, redactJson(v, redact));
    return out;
  }
  return value;
}

// src/api/views/resource.ts
function resourcePath(base, stack, name) {
  return `${stackPath(base, stack)}/resources/${encodeURIComponent(name)}`;
}
function resourceView(base, shown, redact) {
  const { row, stack } = shown;
  const links2 = [
    { href: resourcePath(base, stack, row.name), rel: "self" },
    { href: stackPath(base, stack), rel: "stack" }
  ];
  if (shown.nested) links2.push({ href: stackPath(base, shown.nested), rel: "nested" });
  return {
    updated_time: heatTime(row.updatedAt ?? row.createdAt),
    creation_time: heatTime(row.createdAt),
    logical_resource_id: row.name,
    resource_name: row.name,
    physical_resource_id: row.physicalId ?? "",
    resource_status: `${row.action}_${row.status}`,
    resource_status_reason: redact(row.reason),
    resource_type: row.type,
    links: links2,
    required_by: shown.requiredBy,
    ...stack.parentResource !== null ? { parent_resource: stack.parentResource } : {},
    ...shown.detail ? { description: shown.detail.description, attributes: shown.detail.attributes } : {}
  };
}

// src/api/views/event.ts
function eventView(base, event, stack, redact, options = {}) {
  const resource = resourcePath(base, stack, event.resourceName);
  const links2 = [
    { href: `${resource}/events/${event.uuid}`, rel: "self" },
    { href: resource, rel: "resource" },
    { href: stackPath(base, stack), rel: "stack" }
  ];
  if (options.root) links2.push({ href: stackPath(base, options.root), rel: "root_stack" });
  return {
    id: event.uuid,
    links: links2,
    event_time: heatTime(event.createdAt),
    logical_resource_id: event.resourceName,
    resource_name: event.resourceName,
    physical_resource_id: event.physicalId,
    resource_status: `${event.action}_${event.status}`,
    resource_status_reason: redact(event.reason),
    ...options.detail ? { resource_type: event.resourceType, resource_properties: {} } : {}
  };
}

// src/api/routes/params.ts
import { Type as Type6 } from "@sinclair/typebox";
var StackParams3 = Type6.Object({
  project_id: Type6.String(),
  stack_name: Type6.String(),
  stack_id: Type6.String()
});
var ResourceParams = Type6.Object({
  project_id: Type6.String(),
  stack_name: Type6.String(),
  stack_id: Type6.String(),
  resource_name: Type6.String()
});
var Strings2 = Type6.Array(Type6.String());
function boolParam(name, value) {
  if (typeof value === "boolean") return value;
  const text = String(value).trim().toLowerCase();
  if (["1", "t", "true", "on", "y", "yes"].includes(text)) return true;
  if (["0", "f", "false", "off", "n", "no"].includes(text)) return false;
  throw badRequest(`${name} must be a boolean (true or false), got "${String(value)}"`);
}
function refuseUnknown(query, known) {
  const unknown = Object.keys(query).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw badRequest(`Invalid filter parameters ${unknown.join(", ")}`);
}

// src/api/routes/events.ts
var ListQuery = Type7.Object(
  {
    limit: Type7.Optional(Type7.Integer({ minimum: 0 })),
    marker: Type7.Optional(Type7.String()),
    sort_keys: Type7.Optional(Strings2),
    sort_dir: Type7.Optional(Type7.Union([Type7.Literal("asc"), Type7.Literal("desc")])),
    nested_depth: Type7.Optional(Type7.Integer({ minimum: 0 })),
    resource_action: Type7.Optional(Strings2),
    resource_status: Type7.Optional(Strings2),
    resource_name: Type7.Optional(Strings2),
    resource_type: Type7.Optional(Strings2)
  },
  { additionalProperties: true }
);
var EventParams = Type7.Composite([ResourceParams, Type7.Object({ event_id: Type7.String() })]);
var SORT_KEYS = { event_time: "time", resource_type: "type" };
async function stackTree(engine, stack, depth) {
  const all = [stack];
  let level = [stack];
  for (let d = 0; d < depth && level.length > 0; d++) {
    const parents = level;
    level = await engine.deps.store.tx(async (tx) => {
      const children = [];
      for (const parent of parents) children.push(...await tx.stacks.children(parent.id));
      return children;
    });
    all.push(...level);
  }
  return all;
}
function eventQuery(q, stackIds) {
  const keys = q.sort_keys ?? [];
  const bad = keys.find((k) => !Object.hasOwn(SORT_KEYS, k));
  if (bad !== void 0) {
    throw badRequest(`sort key "${bad}" is not one of ${Object.keys(SORT_KEYS).join(", ")}`);
  }
  return {
    stackIds,
    ...q.resource_name ? { resourceNames: q.resource_name } : {},
    ...q.resource_type ? { resourceTypes: q.resource_type } : {},
    ...q.resource_action ? { actions: q.resource_action } : {},
    ...q.resource_status ? { statuses: q.resource_status } : {},
    sortKey: keys.length > 0 ? SORT_KEYS[keys[0]] : "time",
    sortDir: q.sort_dir ?? (keys.length > 0 ? "asc" : "desc"),
    ...q.marker !== void 0 ? { marker: q.marker } : {},
    ...q.limit !== void 0 ? { limit: q.limit } : {}
  };
}
function registerEventRoutes(app, deps) {
  const { engine } = deps;
  const store = engine.deps.store;
  async function list(request, stack, q, resourceName) {
    const depth = q.nested_depth ?? 0;
    const stacks = await stackTree(engine, stack, depth);
    const byId = new Map(stacks.map((s) => [s.id, s]));
    const query = eventQuery(resourceName === void 0 ? q : { ...q, resource_name: [resourceName] }, [
      ...byId.keys()
    ]);
    if (query.marker !== void 0) {
      const [marker] = await store.tx(
        (tx) => tx.events.query({ stackIds: query.stackIds, uuid: query.marker, limit: 1 })
      );
      if (!marker)
        throw badRequest(`marker "${query.marker}" is not an event of this stack`, "InvalidMarker");
    }
    const events = await store.tx((tx) => tx.events.query(query));
    if (events.length === 0 && resourceName !== void 0) {
      const any = await store.tx(
        (tx) => tx.events.query({ stackIds: query.stackIds, resourceNames: [resourceName], limit: 1 })
      );
      if (any.length === 0) throw notFound(`No events found for resource ${resourceName}`, "HTTPNotFound");
    }
    const [base, redact] = [baseOf(request), await redactorFor(engine, stack)];
    const root = depth > 0 ? { root: stack } : {};
    return { events: events.map((e) => eventView(base, e, byId.get(e.stackId), redact, root)) };
  }
  app.get(
    "/stacks/:stack_name/:stack_id/events",
    { schema: { params: StackParams3, querystring: ListQuery, tags: ["events"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      return list(request, await stackByIdentity(engine, request, name, id), request.query);
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/resources/:resource_name/events",
    { schema: { params: ResourceParams, querystring: ListQuery, tags: ["events"] } },
    async (request) => {
      const { stack_name: name, stack_id: id, resource_name: resource } = request.params;
      return list(request, await stackByIdentity(engine, request, name, id), request.query, resource);
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/resources/:resource_name/events/:event_id",
    { schema: { params: EventParams, tags: ["events"] } },
    async (request) => {
      const { stack_name: name, stack_id: id, resource_name: resource, event_id: eventId } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const [event] = await store.tx(
        (tx) => tx.events.query({ stackIds: [stack.id], resourceNames: [resource], uuid: eventId, limit: 1 })
      );
      if (!event) throw notFound(`There is no event ${eventId} of resource ${resource}.`, "HTTPNotFound");
      const redact = await redactorFor(engine, stack);
      return { event: eventView(baseOf(request), event, stack, redact, { detail: true }) };
    }
  );
}

// src/api/routes/outputs.ts
import { Type as Type8 } from "@sinclair/typebox";
var OutputParams = Type8.Composite([StackParams3, Type8.Object({ output_key: Type8.String() })]);
function registerOutputRoutes(app, deps) {
  const { engine } = deps;
  app.get(
    "/stacks/:stack_name/:stack_id/outputs",
    { schema: { params: StackParams3, tags: ["outputs"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const definition = await stackDefinition(engine, stack);
      const outputs = [...definition?.template.outputs.values() ?? []].map((o) => ({
        output_key: o.name,
        description: o.description ?? "No description given"
      }));
      return { outputs };
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/outputs/:output_key",
    { schema: { params: OutputParams, tags: ["outputs"] } },
    async (request) => {
      const { stack_name: name, stack_id: id, output_key: key } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const output = (await stackOutputs(engine.deps, engine.cache, stack)).find((o) => o.output_key === key);
      if (!output) throw notFound(`The stack ${stack.name} has no output "${key}".`, "NotFound");
      if (output.output_error !== void 0) {
        output.output_error = (await redactorFor(engine, stack))(output.output_error);
      }
      return { output };
    }
  );
}

// src/api/routes/resources.ts
import { Type as Type9 } from "@sinclair/typebox";

// src/engine/metadata.ts
async function resourceMetadata(deps, definition, stack, name) {
  const snippet = definition.resources.get(name)?.definition.metadata;
  if (snippet === void 0 || snippet === null) return {};
  const rows = await deps.store.tx((tx) => tx.resources.listStates(stack.id));
  const context = new NodeResolveContext(definition, currentOutputs(deps, rows, stack.id));
  try {
    const value = context.resolve(snippet);
    return isPlainObject(value) ? value : {};
  } catch (err) {
    if (err instanceof TemplateError) return {};
    throw err;
  }
}

// src/api/resource-listing.ts
function matches(row, filter) {
  const any = (values, test) => values === void 0 || values.some(test);
  return any(filter.names, (v) => v === row.name) && any(filter.types, (v) => row.type.includes(v)) && any(filter.statuses, (v) => v === row.status || v === `${row.action}_${row.status}`) && any(filter.actions, (v) => v === row.action) && any(filter.ids, (v) => v === row.uuid) && any(filter.physicalIds, (v) => v === row.physicalId);
}
function currentRows(rows) {
  const byName = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const same = byName.get(row.name);
    if (same) same.push(row);
    else byName.set(row.name, [row]);
  }
  return [...byName.values()].map((same) => currentRow(same));
}
function requiredBy(rows, current) {
  const nameOf = new Map(rows.map((r) => [r.id, r.name]));
  const out = /* @__PURE__ */ new Map();
  for (const row of current) {
    for (const id of row.requires) {
      const name = nameOf.get(id);
      if (name === void 0 || name === row.name) continue;
      const list = out.get(name) ?? [];
      if (!list.includes(row.name)) list.push(row.name);
      out.set(name, list);
    }
  }
  return out;
}
function attributesOf(engine, row, withAttr) {
  const read = engine.deps.plugins.typeCatalog.get(row.type)?.readAttribute;
  const all = read?.(row.attributes, void 0) ?? row.attributes;
  if (withAttr.length === 0) return all;
  const out = { ...all };
  for (const name of withAttr) {
    if (Object.hasOwn(out, name)) continue;
    out[name] = read?.(row.attributes, name) ?? (Object.hasOwn(row.attributes, name) ? row.attributes[name] : null);
  }
  return out;
}
async function listResources(engine, stack, options) {
  const out = [];
  const templates = /* @__PURE__ */ new Map();
  const descriptionOf = async (of, name) => {
    const templateId = of.templateId;
    if (!templateId) return "";
    if (!templates.has(templateId)) templates.set(templateId, await templateOf(engine, of, templateId));
    return templates.get(templateId)?.resources.get(name)?.description ?? "";
  };
  const visit = async (at, depth) => {
    const { rows, children } = await engine.deps.store.tx(async (tx) => ({
      rows: await tx.resources.listActive(at.id),
      children: await tx.stacks.children(at.id)
    }));
    const current = currentRows(rows);
    const required = requiredBy(rows, current);
    for (const row of current) {
      if (!matches(row, options.filter)) continue;
      const nested = children.find((c) => c.parentResource === row.name && c.id === row.physicalId);
      const shown = { row, stack: at, requiredBy: required.get(row.name) ?? [] };
      if (nested) shown.nested = nested;
      if (options.detail) {
        shown.detail = {
          description: await descriptionOf(at, row.name),
          attributes: attributesOf(engine, row, options.withAttr ?? [])
        };
      }
      out.push(shown);
      if (nested && depth > 0) await visit(nested, depth - 1);
    }
  };
  await visit(stack, options.depth);
  return out;
}
async function templateOf(engine, stack, templateId) {
  const cached = engine.cache.peek(templateId, stack.id);
  if (cached) return cached.template;
  const record = await engine.deps.store.tx((tx) => tx.templates.get(templateId));
  if (!record) return void 0;
  try {
    return parseTemplate(parseSource(record.url, record.template, engine.deps.settings.limits));
  } catch {
    return void 0;
  }
}

// src/api/routes/resources.ts
var FILTERS = ["name", "type", "status", "action", "id", "physical_resource_id"];
var ListQuery2 = Type9.Object(
  {
    nested_depth: Type9.Optional(Type9.Integer({ minimum: 0 })),
    with_detail: Type9.Optional(Type9.String()),
    ...Object.fromEntries(FILTERS.map((f) => [f, Type9.Optional(Strings2)]))
  },
  { additionalProperties: true }
);
var ShowQuery = Type9.Object({ with_attr: Type9.Optional(Strings2) }, { additionalProperties: true });
function resourceFilter(q) {
  return {
    ...q.name ? { names: q.name } : {},
    ...q.type ? { types: q.type } : {},
    ...q.status ? { statuses: q.status } : {},
    ...q.action ? { actions: q.action } : {},
    ...q.id ? { ids: q.id } : {},
    ...q.physical_resource_id ? { physicalIds: q.physical_resource_id } : {}
  };
}
function resourceNotFound(stack, name) {
  return notFound(`There is no resource "${name}" in stack ${stack.name}.`, "ResourceNotFound");
}
function registerResourceRoutes(app, deps) {
  const { engine } = deps;
  const maxDepth = engine.deps.settings.limits.maxNestingDepth;
  async function resourceOf(request, params) {
    const stack = await stackByIdentity(engine, request, params.stack_name, params.stack_id);
    const row = currentRow(
      await engine.deps.store.tx((tx) => tx.resources.findByName(stack.id, params.resource_name))
    );
    if (!row) throw resourceNotFound(stack, params.resource_name);
    return { stack, row };
  }
  app.get(
    "/stacks/:stack_name/:stack_id/resources",
    { schema: { params: StackParams3, querystring: ListQuery2, tags: ["resources"] } },
    async (request) => {
      const q = request.query;
      refuseUnknown(q, ["nested_depth", "with_detail", ...FILTERS]);
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const detail = q.with_detail === void 0 ? false : boolParam("with_detail", q.with_detail);
      const shown = await listResources(engine, stack, {
        depth: Math.min(q.nested_depth ?? 0, maxDepth),
        filter: resourceFilter(q),
        detail
      });
      const [base, redact] = [baseOf(request), await redactorFor(engine, stack)];
      return { resources: shown.map((r) => resourceView(base, r, redact)) };
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/resources/:resource_name",
    { schema: { params: ResourceParams, querystring: ShowQuery, tags: ["resources"] } },
    async (request) => {
      const { stack } = await resourceOf(request, request.params);
      const [shown] = await listResources(engine, stack, {
        depth: 0,
        filter: { names: [request.params.resource_name] },
        detail: true,
        withAttr: request.query.with_attr ?? []
      });
      if (!shown) throw resourceNotFound(stack, request.params.resource_name);
      return { resource: resourceView(baseOf(request), shown, await redactorFor(engine, stack)) };
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/resources/:resource_name/metadata",
    { schema: { params: ResourceParams, tags: ["resources"] } },
    async (request) => {
      const { stack, row } = await resourceOf(request, request.params);
      const definition = await stackDefinition(engine, stack);
      const metadata = definition ? await resourceMetadata(engine.deps, definition, stack, row.name) : {};
      return { metadata };
    }
  );
  app.post(
    "/stacks/:stack_name/:stack_id/resources/:resource_name/signal",
    { schema: { params: ResourceParams, tags: ["resources"] } },
    async (request, reply) => {
      const { stack, row } = await resourceOf(request, request.params);
      await acceptSignal(engine, stack.id, row.name, request.body);
      return replyNull(reply);
    }
  );
  app.patch(
    "/stacks/:stack_name/:stack_id/resources/:resource_name",
    {
      schema: {
        params: ResourceParams,
        body: Type9.Record(Type9.String(), Type9.Unknown()),
        tags: ["resources"]
      }
    },
    async (request, reply) => {
      const body = request.body;
      const unknown = Object.keys(body).filter(
        (k) => k !== "mark_unhealthy" && k !== "resource_status_reason"
      );
      if (unknown.length > 0)
        throw badRequest(`Invalid keys in the mark unhealthy request: ${unknown.join(", ")}`);
      if (!Object.hasOwn(body, "mark_unhealthy")) throw badRequest("The request must have mark_unhealthy");
      const unhealthy = boolParam("mark_unhealthy", body.mark_unhealthy);
      const reason = body.resource_status_reason ?? "";
      if (typeof reason !== "string") throw badRequest("resource_status_reason must be a string");
      const { stack, row } = await resourceOf(request, request.params);
      await markUnhealthy(engine.deps, stack.id, row.name, reason, unhealthy);
      return replyNull(reply);
    }
  );
}

// src/api/routes/stack-documents.ts
function hiddenNames(definition) {
  const names = /* @__PURE__ */ new Set();
  for (const [name, schema] of definition?.template.parameters ?? []) if (schema.hidden) names.add(name);
  return names;
}
function shownTemplate(definition) {
  const data = definition.template.source.data;
  const hidden = hiddenNames(definition);
  const parameters = data.parameters;
  if (hidden.size === 0 || !isPlainObject(parameters)) return data;
  const masked = { ...parameters };
  for (const name of hidden) {
    const schema = masked[name];
    if (isPlainObject(schema) && Object.hasOwn(schema, "default"))
      setOwn(masked, name, { ...schema, default: MASK });
  }
  return { ...data, parameters: masked };
}
function shownEnvironment(environment, definition, redact) {
  const hidden = hiddenNames(definition);
  const out = { ...environment };
  for (const section of ["parameters", "parameter_defaults"]) {
    const values = environment[section];
    if (!isPlainObject(values)) continue;
    const masked = {};
    for (const [name, value] of Object.entries(values)) {
      setOwn(masked, name, hidden.has(name) ? MASK : redactJson(value, redact));
    }
    out[section] = masked;
  }
  return out;
}
function registerStackDocumentRoutes(app, deps) {
  const { engine } = deps;
  async function stored(stack) {
    const templateId = stack.templateId;
    return templateId ? engine.deps.store.tx((tx) => tx.templates.get(templateId)) : void 0;
  }
  app.get(
    "/stacks/:stack_name/:stack_id/template",
    { schema: { params: StackParams3, tags: ["stacks"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const definition = await stackDefinition(engine, stack);
      return definition ? shownTemplate(definition) : {};
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/environment",
    { schema: { params: StackParams3, tags: ["stacks"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const record = await stored(stack);
      if (!record) return {};
      const definition = await stackDefinition(engine, stack);
      return shownEnvironment(record.environment, definition, await redactorFor(engine, stack));
    }
  );
  app.get(
    "/stacks/:stack_name/:stack_id/files",
    { schema: { params: StackParams3, tags: ["stacks"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      return (await stored(stack))?.files ?? {};
    }
  );
}

// src/api/routes/health.ts
var STORE_TIMEOUT_MS = 5e3;
function registerHealthRoutes(app, deps) {
  const { store, clock, settings } = deps.engine.deps;
  app.get("/healthz", { schema: { hide: true }, logLevel: "warn" }, async (request, reply) => {
    let timer;
    try {
      const services = await Promise.race([
        store.tx((tx) => tx.services.list()),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer in ${STORE_TIMEOUT_MS} ms`)),
            STORE_TIMEOUT_MS
          );
        })
      ]);
      const now = clock.now();
      const engines = services.filter((s) => engineAlive(s, now, settings.engineDeadAfterMs)).length;
      return { status: "ok", store: "ok", engines };
    } catch (err) {
      request.log.error({ err }, "health check: the store did not answer");
      const status = 503;
      return reply.status(status).send(
        heatErrorBody(
          status,
          "ServiceUnavailable",
          "The store is not answering; the error is in the server log."
        )
      );
    } finally {
      clearTimeout(timer);
    }
  });
}

// src/api/routes/stacks.ts
import { Type as Type10 } from "@sinclair/typebox";
var StackParams4 = Type10.Object({
  project_id: Type10.String(),
  stack_name: Type10.String(),
  stack_id: Type10.String()
});
var NameParams = Type10.Object({ project_id: Type10.String(), stack_name: Type10.String() });
var Strings3 = Type10.Array(Type10.String());
var ListQuery3 = Type10.Object(
  {
    limit: Type10.Optional(Type10.Integer({ minimum: 0 })),
    marker: Type10.Optional(Type10.String()),
    sort_keys: Type10.Optional(Strings3),
    sort_dir: Type10.Optional(Type10.Union([Type10.Literal("asc"), Type10.Literal("desc")])),
    id: Type10.Optional(Strings3),
    name: Type10.Optional(Strings3),
    status: Type10.Optional(Strings3),
    action: Type10.Optional(Strings3),
    tags: Type10.Optional(Type10.String()),
    tags_any: Type10.Optional(Type10.String()),
    not_tags: Type10.Optional(Type10.String()),
    not_tags_any: Type10.Optional(Type10.String()),
    show_deleted: Type10.Optional(Type10.String()),
    show_nested: Type10.Optional(Type10.String()),
    global_tenant: Type10.Optional(Type10.String()),
    with_count: Type10.Optional(Type10.String())
  },
  { additionalProperties: true }
);
var SORT_KEYS2 = {
  stack_name: "name",
  name: "name",
  stack_status: "status",
  status: "status",
  creation_time: "createdAt",
  created_at: "createdAt",
  updated_time: "updatedAt",
  updated_at: "updatedAt"
};
var LOOKUPS = [
  ["", ["GET", "PUT", "PATCH", "DELETE"]],
  ["resources", ["GET"]],
  ["events", ["GET"]],
  ["template", ["GET"]],
  ["environment", ["GET"]],
  ["files", ["GET"]],
  ["outputs", ["GET"]],
  ["actions", ["POST"]],
  ["preview", ["PUT", "PATCH"]],
  ["abandon", ["DELETE"]]
];
function registerStackRoutes(app, deps) {
  const { engine } = deps;
  const withShownReason = async (stack) => stack.status === "FAILED" ? { ...stack, reason: (await redactorFor(engine, stack))(stack.reason) } : stack;
  for (const path of ["/stacks", "/stacks/detail"]) {
    app.get(path, { schema: { querystring: ListQuery3, tags: ["stacks"] } }, async (request) => {
      const q = request.query;
      const flag = (name) => queryBool(q[name], name);
      const globalTenant = flag("global_tenant");
      if (globalTenant && !isAdmin(request.identity)) {
        throw new HttpError(403, "Forbidden", "Listing the stacks of every project needs the admin role");
      }
      const sortKey = q.sort_keys?.[0];
      if (sortKey !== void 0 && !(sortKey in SORT_KEYS2)) {
        throw badRequest(`sort key "${sortKey}" is not one of ${Object.keys(SORT_KEYS2).join(", ")}`);
      }
      const query = {
        ...globalTenant ? {} : { projectId: request.identity.projectId },
        ...flag("show_nested") ? {} : { parentId: null },
        ...flag("show_deleted") ? { includeDeleted: true } : {},
        ...q.id ? { ids: q.id } : {},
        ...q.name ? { names: q.name } : {},
        ...q.status ? { statuses: q.status } : {},
        ...q.action ? { actions: q.action } : {},
        ...q.tags ? { tags: tagList(q.tags) } : {},
        ...q.tags_any ? { tagsAny: tagList(q.tags_any) } : {},
        ...q.not_tags ? { notTags: tagList(q.not_tags) } : {},
        ...q.not_tags_any ? { notTagsAny: tagList(q.not_tags_any) } : {},
        ...sortKey ? { sortKey: SORT_KEYS2[sortKey] } : {},
        ...q.sort_dir ? { sortDir: q.sort_dir } : {},
        ...q.limit !== void 0 ? { limit: q.limit } : {}
      };
      if (q.marker !== void 0) {
        const marker = await engine.deps.store.tx((tx) => tx.stacks.get(q.marker));
        if (!marker || !globalTenant && marker.projectId !== request.identity.projectId) {
          throw badRequest(`marker "${q.marker}" is not a stack of this project`, "InvalidMarker");
        }
        query.marker = q.marker;
      }
      const stacks = await engine.deps.store.tx((tx) => tx.stacks.query(query));
      const base = baseOf(request);
      const body = {
        stacks: await Promise.all(
          stacks.map(async (s) => stackListItem(base, await withShownReason(s), path === "/stacks"))
        )
      };
      if (flag("with_count")) {
        body.count = await engine.deps.store.tx((tx) => tx.stacks.count(query));
      }
      return body;
    });
  }
  app.post("/stacks", { schema: { body: CreateBody, tags: ["stacks"] } }, async (request, reply) => {
    const req = await createRequest(deps, request.identity.projectId, request.body);
    const stack = await createStack(engine.deps, engine.cache, req);
    const base = baseOf(request);
    return reply.status(201).send({ stack: { id: stack.id, links: [{ href: stackPath(base, stack), rel: "self" }] } });
  });
  for (const [sub, methods] of LOOKUPS) {
    app.route({
      method: [...methods],
      url: `/stacks/:stack_name${sub === "" ? "" : `/${sub}`}`,
      schema: { params: NameParams, ...sub === "" ? { tags: ["stacks"] } : { hide: true } },
      handler: async (request, reply) => {
        const { stack_name: name } = request.params;
        const stack = await stackByNameOrId(engine, request, name);
        const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
        const rest = sub === "" ? "" : `/${sub}`;
        return reply.redirect(`${stackPath(baseOf(request), stack)}${rest}${query}`, 302);
      }
    });
  }
  app.get(
    "/stacks/:stack_name/:stack_id",
    { schema: { params: StackParams4, tags: ["stacks"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const definition = await stackDefinition(engine, stack);
      const outputs = definition ? await stackOutputs(engine.deps, engine.cache, stack) : void 0;
      const redact = await redactorFor(engine, stack);
      for (const output of outputs ?? []) {
        if (output.output_error !== void 0) output.output_error = redact(output.output_error);
      }
      const detail = stackDetail(
        baseOf(request),
        { ...stack, reason: redact(stack.reason) },
        definition,
        outputs
      );
      detail.parameters = redactJson(detail.parameters, redact);
      return { stack: detail };
    }
  );
  for (const method of ["PUT", "PATCH"]) {
    app.route({
      method,
      url: "/stacks/:stack_name/:stack_id",
      schema: { params: StackParams4, body: UpdateBody, tags: ["stacks"] },
      handler: async (request, reply) => {
        const { stack_name: name, stack_id: id } = request.params;
        const stack = await stackByIdentity(engine, request, name, id);
        const body = request.body;
        const patch = method === "PATCH" || body.existing === true;
        const req = await updateRequest(engine, stack, body, patch);
        await updateStack(engine.deps, engine.cache, stack.id, req);
        return reply.status(202).send();
      }
    });
  }
  app.delete(
    "/stacks/:stack_name/:stack_id",
    { schema: { params: StackParams4, tags: ["stacks"] } },
    async (request, reply) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      await deleteStack(engine.deps, stack.id);
      return reply.status(204).send();
    }
  );
  app.delete(
    "/stacks/:stack_name/:stack_id/abandon",
    { schema: { params: StackParams4, tags: ["stacks"] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      return abandonStack(engine.deps, stack.id);
    }
  );
}

// src/api/routes/validate.ts
import { Type as Type11 } from "@sinclair/typebox";

// src/api/views/validate.ts
function validateBody(definition, environment, options) {
  const body = validateResult(definition, { ...options, supplied: Object.keys(environment.parameters) });
  const hidden = hiddenParameters(definition, /* @__PURE__ */ new Set());
  const mask = (values) => Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, hidden.has(name) ? MASK : value])
  );
  const env = environmentToJSON(environment, { encryptedParamNames: false });
  env.parameters = mask(environment.parameters);
  env.parameter_defaults = mask(environment.parameterDefaults);
  body.Environment = env;
  return body;
}
function hiddenParameters(definition, into) {
  for (const [name, schema] of definition.template.parameters) if (schema.hidden) into.add(name);
  for (const resource of definition.resources.values()) {
    const impl = resource.implementation;
    if (impl.kind === "template") hiddenParameters(impl.stack, into);
  }
  return into;
}

// src/api/routes/validate.ts
var ValidateQuery = Type11.Object({
  show_nested: Type11.Optional(Type11.String()),
  ignore_errors: Type11.Optional(Type11.String())
});
var IGNORABLE_CODES = /* @__PURE__ */ new Set(["99001"]);
function registerValidateRoutes(app, deps) {
  const { engine } = deps;
  app.post(
    "/validate",
    { schema: { body: TemplateBody, querystring: ValidateQuery, tags: ["templates"] } },
    async (request) => {
      const { show_nested, ignore_errors } = request.query;
      const nested = queryBool(show_nested, "show_nested");
      const unknownCodes = (ignore_errors ?? "").split(",").map((c) => c.trim()).filter((c) => c !== "" && !IGNORABLE_CODES.has(c));
      if (unknownCodes.length > 0)
        throw badRequest(`Invalid codes in ignore_errors: ${unknownCodes.join(", ")}`);
      const limits = engine.deps.settings.limits;
      const input = templateInput(request.body, limits);
      const definition = defineStackFromText(input.url, input.text, {
        files: input.files,
        environment: input.environment,
        strict: false,
        types: engine.deps.plugins.typeCatalog,
        limits,
        projectId: request.identity.projectId
      });
      return validateBody(definition, input.environment, { nested });
    }
  );
}

// src/api/server.ts
function baseOf(request) {
  const { project_id: project } = request.params;
  return { project: `${request.protocol}://${request.host}/v1/${project}` };
}
function signalIdentity(deps, request) {
  const token = authToken(request.headers);
  if (!deps.signer || !token?.startsWith(SIGNAL_TOKEN_PREFIX)) return void 0;
  const target = deps.signer.verify(token);
  if (!target) throw new AuthenticationError("The signal token is not valid");
  return {
    projectId: target.projectId,
    userId: `signal:${target.stackId}/${target.resourceName}`,
    userName: `signal:${target.resourceName}`,
    roles: [STACK_USER_ROLE],
    signalTarget: target
  };
}
function refuseBeyondSignal(request, target) {
  const params = request.params;
  const allowed = request.method === "POST" && request.routeOptions.url?.endsWith("/resources/:resource_name/signal") === true && params.stack_id === target.stackId && params.resource_name === target.resourceName;
  if (!allowed)
    throw new HttpError(403, "Forbidden", "A signal token may only signal the resource it was made for");
}
async function buildServer(deps, options = {}) {
  const app = Fastify({
    ...options.logger ? { loggerInstance: options.logger } : { logger: false },
    bodyLimit: deps.limits.max_json_body_size,
    genReqId: (req) => {
      const given = req.headers["x-openstack-request-id"];
      return typeof given === "string" && /^req-[0-9a-f-]{36}$/.test(given) ? given : `req-${randomUUID()}`;
    },
    ignoreTrailingSlash: true,
    // Signal tokens travel in a path segment (alarm URLs); resource names may be long too.
    maxParamLength: 2048,
    // Errors the framework finds before routing (a malformed URL) answer in Heat's body too.
    frameworkErrors: (err, _request, reply) => {
      const { status, type, message } = classify(err);
      void reply.status(status).send(heatErrorBody(status, type, message));
    },
    ajv: { customOptions: { coerceTypes: "array", removeAdditional: false, allErrors: false } }
  }).withTypeProvider();
  await app.register(swagger, {
    openapi: {
      info: { title: "Hearth orchestration API (Heat v1 compatible)", version: "1.0" },
      components: {
        securitySchemes: { token: { type: "apiKey", in: "header", name: "X-Auth-Token" } }
      },
      security: [{ token: [] }]
    }
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-openstack-request-id", request.id);
  });
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    if (text === "") return done(null, void 0);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new HttpError(400, "HTTPBadRequest", `The body is not valid JSON: ${err.message}`));
    }
  });
  app.setErrorHandler(async (err, request, reply) => {
    const { status, type, message, internal } = classify(err);
    if (internal) request.log.error({ err }, "request failed");
    else request.log.info({ status, type }, message);
    return reply.status(status).send(heatErrorBody(status, type, message));
  });
  app.setNotFoundHandler(async (request, reply) => {
    const status = 404;
    return reply.status(status).send(
      heatErrorBody(status, "HTTPNotFound", `No route for ${request.method} ${request.url.split("?")[0]}`)
    );
  });
  app.get("/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  registerSignalUrlRoute(app, deps);
  registerHealthRoutes(app, deps);
  registerMetrics(app, deps);
  await app.register(
    async (scoped) => {
      scoped.decorateRequest("identity", null);
      scoped.addHook("onRequest", async (request) => {
        const { project_id: project } = request.params;
        const identity = signalIdentity(deps, request) ?? await deps.authenticator.authenticate(request.headers, project);
        if (identity.signalTarget) refuseBeyondSignal(request, identity.signalTarget);
        if (identity.projectId !== project && !isAdmin(identity)) {
          throw new HttpError(403, "Forbidden", `The token does not grant access to project ${project}`);
        }
        request.identity = identity.projectId === project ? identity : { ...identity, projectId: project };
      });
      registerStackRoutes(scoped, deps);
      registerResourceRoutes(scoped, deps);
      registerEventRoutes(scoped, deps);
      registerOutputRoutes(scoped, deps);
      registerStackDocumentRoutes(scoped, deps);
      registerActionRoutes(scoped, deps);
      registerPreviewRoutes(scoped, deps);
      registerValidateRoutes(scoped, deps);
      registerCatalogRoutes(scoped, deps);
    },
    { prefix: "/v1/:project_id" }
  );
  return app;
}
export {
  baseOf,
  buildServer
};
