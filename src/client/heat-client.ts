import type { JsonObject } from '../util/json.js';
import { HeatApiError, HeatConnectionError, responseError } from './errors.js';
import type {
  EventQuery,
  HeatDrift,
  HeatEvent,
  HeatOutput,
  HeatResource,
  HeatResourceChanges,
  HearthPlan,
  HeatResourceTypeSchema,
  HeatStack,
  HeatStackBody,
  HeatStackPreview,
  HeatStackSummary,
  HeatTemplateFunction,
  HeatTemplateVersion,
  HeatValidation,
  Query,
  ResourceListQuery,
  ResourceTypeQuery,
  StackId,
  StackListQuery,
} from './types.js';

export interface HeatClientOptions {
  /** The project's endpoint: `http://host:port/v1/<project_id>`. */
  url: string;
  /** Sent as X-Auth-Token; never printed, logged or put in an error. */
  token?: string;
  fetch?: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The keys of `POST .../actions`. */
export type StackAction = 'check' | 'cancel_update' | 'cancel_without_rollback' | 'suspend' | 'resume';

const enc = encodeURIComponent;

/** `?a=1&b=x&b=y`: lists as repeated keys, as Heat's API reads them. */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The stack a `.../stacks/{name}/{id}` URL (a lookup's Location) names. */
export function stackIdFromUrl(url: string): StackId {
  const path = new URL(url, 'http://x').pathname.split('/');
  const at = path.lastIndexOf('stacks');
  const name = path[at + 1];
  const id = path[at + 2];
  if (at < 0 || !name || !id) throw new Error(`the server redirected to ${url}, which names no stack`);
  return { name: decodeURIComponent(name), id: decodeURIComponent(id) };
}

/**
 * A client of Heat's orchestration API v1 (what Hearth serves), one method per route. A failed
 * request throws HeatApiError with the message of Heat's error body.
 */
export class HeatClient {
  readonly url: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: HeatClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  async #send(method: Method, path: string, body?: unknown, redirect: 'follow' | 'manual' = 'follow') {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#token !== undefined) headers['x-auth-token'] = this.#token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.#fetch(`${this.url}${path}`, {
        method,
        headers,
        redirect,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new HeatConnectionError(`cannot reach the API at ${new URL(this.url).origin}: ${cause}`);
    }
  }

  /** Sends a request and returns its JSON body (undefined when there is none). */
  async request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const response = await this.#send(method, path, body);
    const text = await response.text();
    if (!response.ok) throw responseError(response.status, response.statusText, text);
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      // Not a Heat API at that address (a web page, a proxy's answer).
      const where = `${this.url}${path}`;
      throw new HeatApiError(
        response.status,
        'Error',
        `${method} ${where} answered with no JSON: not the API?`,
      );
    }
  }

  #stack(stack: StackId): string {
    return `/stacks/${enc(stack.name)}/${enc(stack.id)}`;
  }

  #resource(stack: StackId, resource: string): string {
    return `${this.#stack(stack)}/resources/${enc(resource)}`;
  }

  // Stacks

  async listStacks(query: StackListQuery = {}): Promise<HeatStackSummary[]> {
    return (await this.request<{ stacks: HeatStackSummary[] }>('GET', `/stacks${queryString({ ...query })}`))
      .stacks;
  }

  /** Creates a stack; the answer names it (`{id, links}`). */
  async createStack(body: HeatStackBody): Promise<{ id: string; links: { href: string; rel: string }[] }> {
    return (await this.request<{ stack: { id: string; links: [] } }>('POST', '/stacks', body)).stack;
  }

  /** `GET /stacks/{name or id}`: Heat answers 302 to the stack's URL, which names it fully. */
  async lookupStack(nameOrId: string): Promise<StackId> {
    const response = await this.#send('GET', `/stacks/${enc(nameOrId)}`, undefined, 'manual');
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      return stackIdFromUrl(location);
    }
    const text = await response.text();
    if (!response.ok) throw responseError(response.status, response.statusText, text);
    // A server that answers the lookup with the stack itself.
    const stack = (JSON.parse(text) as { stack: HeatStack }).stack;
    return { name: stack.stack_name, id: stack.id };
  }

  async showStack(stack: StackId, options: { resolveOutputs?: boolean } = {}): Promise<HeatStack> {
    // Outputs are resolved from every resource: a caller that only wants the status says so.
    const query = options.resolveOutputs === false ? '?resolve_outputs=false' : '';
    return (await this.request<{ stack: HeatStack }>('GET', `${this.#stack(stack)}${query}`)).stack;
  }

  /** PUT: the stack becomes what the body describes (a new template). */
  async updateStack(stack: StackId, body: HeatStackBody): Promise<void> {
    await this.request('PUT', this.#stack(stack), body);
  }

  /** PATCH (Heat's `existing`): the stored template and environment with the body's changes on top. */
  async patchStack(stack: StackId, body: HeatStackBody): Promise<void> {
    await this.request('PATCH', this.#stack(stack), body);
  }

  async deleteStack(stack: StackId): Promise<void> {
    await this.request('DELETE', this.#stack(stack));
  }

  /** Removes the stack, leaving its resources; returns Heat's abandon document. */
  async abandonStack(stack: StackId): Promise<JsonObject> {
    return this.request<JsonObject>('DELETE', `${this.#stack(stack)}/abandon`);
  }

  /** `POST .../actions` with `{"<action>": null}`. */
  async stackAction(stack: StackId, action: StackAction): Promise<void> {
    await this.request('POST', `${this.#stack(stack)}/actions`, { [action]: null });
  }

  /** Runs drift detection to its end: the summary and the resources that are not IN_SYNC. */
  async detectDrift(stack: StackId): Promise<HeatDrift> {
    return (await this.request<{ drift: HeatDrift }>('POST', `${this.#stack(stack)}/drift`)).drift;
  }

  /** The last drift detection's results, every resource's. */
  async showDrift(stack: StackId): Promise<HeatDrift> {
    return (await this.request<{ drift: HeatDrift }>('GET', `${this.#stack(stack)}/drift`)).drift;
  }

  // Software configs and deployments

  async listSoftwareConfigs(): Promise<JsonObject[]> {
    return (await this.request<{ software_configs: JsonObject[] }>('GET', '/software_configs'))
      .software_configs;
  }

  async showSoftwareConfig(id: string): Promise<JsonObject> {
    const path = `/software_configs/${enc(id)}`;
    return (await this.request<{ software_config: JsonObject }>('GET', path)).software_config;
  }

  async createSoftwareConfig(body: JsonObject): Promise<JsonObject> {
    return (await this.request<{ software_config: JsonObject }>('POST', '/software_configs', body))
      .software_config;
  }

  async deleteSoftwareConfig(id: string): Promise<void> {
    await this.request('DELETE', `/software_configs/${enc(id)}`);
  }

  async listSoftwareDeployments(serverId?: string): Promise<JsonObject[]> {
    const path = `/software_deployments${queryString({ server_id: serverId })}`;
    return (await this.request<{ software_deployments: JsonObject[] }>('GET', path)).software_deployments;
  }

  async showSoftwareDeployment(id: string): Promise<JsonObject> {
    const path = `/software_deployments/${enc(id)}`;
    return (await this.request<{ software_deployment: JsonObject }>('GET', path)).software_deployment;
  }

  async deleteSoftwareDeployment(id: string): Promise<void> {
    await this.request('DELETE', `/software_deployments/${enc(id)}`);
  }

  async softwareMetadata(serverId: string): Promise<JsonObject[]> {
    const path = `/software_deployments/metadata/${enc(serverId)}`;
    return (await this.request<{ metadata: JsonObject[] }>('GET', path)).metadata;
  }

  async previewCreate(body: HeatStackBody): Promise<HeatStackPreview> {
    return (await this.request<{ stack: HeatStackPreview }>('POST', '/stacks/preview', body)).stack;
  }

  /** What an update would do to each resource; `patch` previews a PATCH (`existing`) update. */
  async previewUpdate(
    stack: StackId,
    body: HeatStackBody,
    options: { patch?: boolean; showNested?: boolean } = {},
  ): Promise<HeatResourceChanges> {
    const query = queryString({ show_nested: options.showNested || undefined });
    const path = `${this.#stack(stack)}/preview${query}`;
    const answer = await this.request<{ resource_changes: HeatResourceChanges }>(
      options.patch ? 'PATCH' : 'PUT',
      path,
      body,
    );
    return answer.resource_changes;
  }

  /** Hearth's own: the update preview with property-level diffs (`hearth stack plan`). */
  async planUpdate(
    stack: StackId,
    body: HeatStackBody,
    options: { patch?: boolean; showNested?: boolean } = {},
  ): Promise<HearthPlan> {
    const query = queryString({ show_nested: options.showNested || undefined });
    const path = `${this.#stack(stack)}/plan${query}`;
    return (await this.request<{ plan: HearthPlan }>(options.patch ? 'PATCH' : 'PUT', path, body)).plan;
  }

  async getTemplate(stack: StackId): Promise<JsonObject> {
    return this.request<JsonObject>('GET', `${this.#stack(stack)}/template`);
  }

  async getEnvironment(stack: StackId): Promise<JsonObject> {
    return this.request<JsonObject>('GET', `${this.#stack(stack)}/environment`);
  }

  async getFiles(stack: StackId): Promise<Record<string, string>> {
    return this.request<Record<string, string>>('GET', `${this.#stack(stack)}/files`);
  }

  // Outputs

  async listOutputs(stack: StackId): Promise<HeatOutput[]> {
    return (await this.request<{ outputs: HeatOutput[] }>('GET', `${this.#stack(stack)}/outputs`)).outputs;
  }

  async showOutput(stack: StackId, key: string): Promise<HeatOutput> {
    const path = `${this.#stack(stack)}/outputs/${enc(key)}`;
    return (await this.request<{ output: HeatOutput }>('GET', path)).output;
  }

  // Resources

  async listResources(stack: StackId, query: ResourceListQuery = {}): Promise<HeatResource[]> {
    const path = `${this.#stack(stack)}/resources${queryString({ ...query })}`;
    return (await this.request<{ resources: HeatResource[] }>('GET', path)).resources;
  }

  async showResource(stack: StackId, resource: string): Promise<HeatResource> {
    return (await this.request<{ resource: HeatResource }>('GET', this.#resource(stack, resource))).resource;
  }

  async resourceMetadata(stack: StackId, resource: string): Promise<JsonObject> {
    const path = `${this.#resource(stack, resource)}/metadata`;
    return (await this.request<{ metadata: JsonObject }>('GET', path)).metadata;
  }

  /** Sends a signal; `data` (when not null) is the JSON body the resource's handler gets. */
  async signalResource(stack: StackId, resource: string, data: JsonObject | null): Promise<void> {
    await this.request('POST', `${this.#resource(stack, resource)}/signal`, data ?? undefined);
  }

  /** `PATCH .../resources/{name}`: mark (or unmark) a resource unhealthy, with a reason. */
  async markUnhealthy(stack: StackId, resource: string, unhealthy: boolean, reason: string): Promise<void> {
    await this.request('PATCH', this.#resource(stack, resource), {
      mark_unhealthy: unhealthy,
      resource_status_reason: reason,
    });
  }

  // Events

  async listEvents(stack: StackId, query: EventQuery = {}): Promise<HeatEvent[]> {
    const path = `${this.#stack(stack)}/events${queryString({ ...query })}`;
    return (await this.request<{ events: HeatEvent[] }>('GET', path)).events;
  }

  async listResourceEvents(stack: StackId, resource: string, query: EventQuery = {}): Promise<HeatEvent[]> {
    const path = `${this.#resource(stack, resource)}/events${queryString({ ...query })}`;
    return (await this.request<{ events: HeatEvent[] }>('GET', path)).events;
  }

  async showEvent(stack: StackId, resource: string, eventId: string): Promise<HeatEvent> {
    const path = `${this.#resource(stack, resource)}/events/${enc(eventId)}`;
    return (await this.request<{ event: HeatEvent }>('GET', path)).event;
  }

  // Templates and types

  async validate(
    body: HeatStackBody,
    options: { showNested?: boolean; ignoreErrors?: string } = {},
  ): Promise<HeatValidation> {
    const query = queryString({
      show_nested: options.showNested || undefined,
      ignore_errors: options.ignoreErrors,
    });
    return this.request<HeatValidation>('POST', `/validate${query}`, body);
  }

  async listResourceTypes(query: ResourceTypeQuery = {}): Promise<(string | JsonObject)[]> {
    const path = `/resource_types${queryString({ ...query })}`;
    return (await this.request<{ resource_types: (string | JsonObject)[] }>('GET', path)).resource_types;
  }

  async showResourceType(type: string): Promise<HeatResourceTypeSchema> {
    return this.request<HeatResourceTypeSchema>('GET', `/resource_types/${enc(type)}`);
  }

  /** A template that implements the type (`hot` or `cfn`). */
  async resourceTypeTemplate(type: string, templateType: 'hot' | 'cfn' = 'cfn'): Promise<JsonObject> {
    const path = `/resource_types/${enc(type)}/template${queryString({ template_type: templateType })}`;
    return this.request<JsonObject>('GET', path);
  }

  async listTemplateVersions(): Promise<HeatTemplateVersion[]> {
    const answer = await this.request<{ template_versions: HeatTemplateVersion[] }>(
      'GET',
      '/template_versions',
    );
    return answer.template_versions;
  }

  async listTemplateFunctions(
    version: string,
    options: { withConditionFunctions?: boolean } = {},
  ): Promise<HeatTemplateFunction[]> {
    const query = queryString({ with_condition_func: options.withConditionFunctions || undefined });
    const path = `/template_versions/${enc(version)}/functions${query}`;
    return (await this.request<{ template_functions: HeatTemplateFunction[] }>('GET', path))
      .template_functions;
  }
}
