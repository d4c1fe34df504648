import { stringify } from 'yaml';
import { HeatClient } from '../../client/heat-client.js';
import { templateFields } from '../../client/template-body.js';
import type { HeatStackBody, StackId } from '../../client/types.js';
import type { ObservePolicy } from '../../store/contract.js';
import { environmentToJSON, type Hook } from '../../template/environment/index.js';
import type { JsonObject } from '../../util/json.js';
import type {
  AdoptStack,
  Backend,
  NewStack,
  StackChange,
  StackInfo,
  StackRef,
  StackVisit,
  WaitDisplay,
} from '../backend.js';
import { driftInfo } from './drift-info.js';
import { remoteClearHooks, remotePendingHooks } from './remote-hooks.js';
import {
  eventInfo,
  previewChanges,
  previewResources,
  resourceDetail,
  resourceInfo,
  stackInfo,
  stackSummary,
} from './remote-views.js';
import { type EventMark, eventMark, type PollOptions, pollStack } from './remote-wait.js';

type Print = (s: string) => void;

/** `http://host:port/v1/<project_id>`, checked before anything is sent. */
export function checkApiUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const endpoint =
    parsed !== undefined &&
    /^https?:$/.test(parsed.protocol) &&
    /^\/v1\/[^/]+\/?$/.test(parsed.pathname) &&
    !parsed.search &&
    !parsed.hash;
  if (!endpoint) {
    throw new Error(
      `--url must be the API's project endpoint, http(s)://host:port/v1/<project_id>; got "${url}"`,
    );
  }
  return url.replace(/\/+$/, '');
}

function createBody(request: NewStack): HeatStackBody {
  return {
    stack_name: request.name,
    ...templateFields(request.template),
    timeout_mins: request.timeoutMins,
    disable_rollback: request.disableRollback,
    ...(request.tags.length > 0 ? { tags: request.tags.join(',') } : {}),
    ...observeFields(request.observe),
  };
}

/** PUT with a new template, or PATCH (Heat's `existing`) when parameters change the stored one. */
function changeBody(change: StackChange): { patch: boolean; body: HeatStackBody } {
  return {
    patch: change.parameters !== undefined,
    body: {
      ...(change.template ? templateFields(change.template) : {}),
      ...(change.parameters ? { parameters: change.parameters } : {}),
      ...(change.disableRollback !== undefined ? { disable_rollback: change.disableRollback } : {}),
      ...(change.timeoutMins !== undefined ? { timeout_mins: change.timeoutMins } : {}),
      ...(change.converge ? { converge: true } : {}),
      ...observeFields(change.observe),
    },
  };
}

/** Hearth's observation fields of a create or update body (absent: nothing sent). */
function observeFields(
  observe: ObservePolicy | null | undefined,
): Pick<HeatStackBody, 'observe_interval' | 'heal'> {
  if (observe === undefined) return {};
  if (observe === null) return { observe_interval: 0 };
  return { observe_interval: observe.intervalMs / 1000, heal: observe.heal };
}

/** A Hearth (or Heat) server behind its REST API (`--url`). */
export class RemoteBackend implements Backend {
  private constructor(
    private readonly client: HeatClient,
    private readonly print: Print,
  ) {}

  static open(url: string, token: string | undefined, print: Print): RemoteBackend {
    return new RemoteBackend(new HeatClient({ url: checkApiUrl(url), ...(token ? { token } : {}) }), print);
  }

  async close(): Promise<void> {}

  private id(stack: StackRef): StackId {
    return { name: stack.name, id: stack.id };
  }

  private async show(stack: StackId): Promise<StackInfo> {
    return stackInfo(await this.client.showStack(stack));
  }

  /** Runs an operation; with a display, waits for its end from the events it makes on. */
  private async operate(
    stack: StackId,
    start: () => Promise<unknown>,
    wait: WaitDisplay | undefined,
    options: PollOptions = {},
  ): Promise<StackInfo | undefined> {
    if (!wait) {
      await start();
      return this.show(stack);
    }
    const mark = await eventMark(this.client, stack);
    await start();
    return this.poll(stack, mark, wait, options);
  }

  private async poll(stack: StackId, mark: EventMark, wait: WaitDisplay, options: PollOptions = {}) {
    // Ctrl-C stops only the watching: the server's engines carry on (issue 29 item 2).
    const onInterrupt = () => {
      process.stderr.write(
        `\nInterrupted: the server carries on with stack ${stack.name}; watch with: hearth stack event list ${stack.name} --follow (same --url)\n`,
      );
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    try {
      const interval = wait.pollMs !== undefined ? { intervalMs: wait.pollMs } : {};
      const final = await pollStack(this.client, stack, mark, this.print, wait, { ...interval, ...options });
      return final && stackInfo(final);
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  }

  async listStacks(nested: boolean) {
    // The embedded order: oldest first.
    const query = {
      sort_keys: ['created_at'],
      sort_dir: 'asc' as const,
      ...(nested ? { show_nested: true } : {}),
    };
    return (await this.client.listStacks(query)).map(stackSummary);
  }

  async findStack(nameOrId: string) {
    return this.show(await this.client.lookupStack(nameOrId));
  }

  async createStack(request: NewStack, wait?: WaitDisplay) {
    const created = await this.client.createStack(createBody(request));
    return this.settleNew({ name: request.name, id: created.id }, wait);
  }

  /** A new stack as its operation started it, or at its end. */
  private async settleNew(stack: StackId, wait: WaitDisplay | undefined) {
    if (!wait) return this.show(stack);
    // Every event of a new stack is the create's.
    const { available } = await eventMark(this.client, stack);
    return this.poll(stack, { marker: undefined, available }, wait);
  }

  async adoptStack(request: AdoptStack, wait?: WaitDisplay) {
    // As openstackclient sends it; the server takes the document's own files too.
    const created = await this.client.createStack({
      stack_name: request.name,
      adopt_stack_data: request.document,
      files: request.files,
      environment: environmentToJSON(request.environment, { encryptedParamNames: false }),
      timeout_mins: request.timeoutMins,
      disable_rollback: request.disableRollback,
    });
    return this.settleNew({ name: request.name, id: created.id }, wait);
  }

  async updateStack(stack: StackRef, change: StackChange, wait?: WaitDisplay) {
    const { patch, body } = changeBody(change);
    const id = this.id(stack);
    return this.operate(
      id,
      () => (patch ? this.client.patchStack(id, body) : this.client.updateStack(id, body)),
      wait,
    );
  }

  async deleteStack(stack: StackRef, wait?: WaitDisplay) {
    const id = this.id(stack);
    if (!wait) return this.client.deleteStack(id);
    const mark = await eventMark(this.client, id);
    await this.client.deleteStack(id);
    await this.poll(id, mark, wait);
  }

  async visitStack(stack: StackRef, visit: StackVisit, wait?: WaitDisplay) {
    const id = this.id(stack);
    return this.operate(id, () => this.client.stackAction(id, visit), wait);
  }

  async cancelStack(stack: StackRef, rollback: boolean, wait?: WaitDisplay) {
    const id = this.id(stack);
    const action = rollback ? 'cancel_update' : 'cancel_without_rollback';
    return this.operate(id, () => this.client.stackAction(id, action), wait, { rollback });
  }

  abandonStack(stack: StackRef): Promise<JsonObject> {
    return this.client.abandonStack(this.id(stack));
  }

  async waitForStack(stack: StackRef, display: WaitDisplay) {
    const id = this.id(stack);
    return this.poll(id, await eventMark(this.client, id), display);
  }

  async previewCreate(request: NewStack) {
    return previewResources((await this.client.previewCreate(createBody(request))).resources);
  }

  async previewUpdate(stack: StackRef, change: StackChange, nested: boolean) {
    const { patch, body } = changeBody(change);
    return previewChanges(
      await this.client.previewUpdate(this.id(stack), body, { patch, showNested: nested }),
    );
  }

  planUpdate(stack: StackRef, change: StackChange, nested: boolean) {
    const { patch, body } = changeBody(change);
    return this.client.planUpdate(this.id(stack), body, { patch, showNested: nested });
  }

  async outputs(stack: StackRef, values: boolean) {
    const id = this.id(stack);
    // The stack's own view carries every output with its value: one request for all.
    if (values) return (await this.client.showStack(id)).outputs ?? [];
    return this.client.listOutputs(id);
  }

  output(stack: StackRef, key: string) {
    return this.client.showOutput(this.id(stack), key);
  }

  async resources(stack: StackRef, nestedDepth: number) {
    const query = nestedDepth > 0 ? { nested_depth: nestedDepth } : {};
    return (await this.client.listResources(this.id(stack), query)).map((r) => resourceInfo(r, stack.name));
  }

  async resource(stack: StackRef, name: string) {
    return resourceDetail(await this.client.showResource(this.id(stack), name), stack.name);
  }

  markUnhealthy(stack: StackRef, resource: string, reason: string) {
    return this.client.markUnhealthy(this.id(stack), resource, true, reason);
  }

  signal(stack: StackRef, resource: string, data: JsonObject | null) {
    return this.client.signalResource(this.id(stack), resource, data);
  }

  async events(stack: StackRef) {
    return (await this.client.listEvents(this.id(stack), { sort_dir: 'asc' })).map(eventInfo);
  }

  /** Heat answers with the template parsed (JSON): printed as YAML. */
  async template(stack: StackRef) {
    const template: unknown = await this.client.getTemplate(this.id(stack));
    return typeof template === 'string' ? template : stringify(template, { lineWidth: 0 });
  }

  pendingHooks(stack: StackRef) {
    return remotePendingHooks(this.client, this.id(stack));
  }

  clearHooks(stack: StackRef, path: string, hooks: Hook[]) {
    return remoteClearHooks(this.client, this.id(stack), path, hooks);
  }

  async detectDrift(stack: StackRef) {
    return driftInfo(await this.client.detectDrift(this.id(stack)));
  }

  async showDrift(stack: StackRef) {
    return driftInfo(await this.client.showDrift(this.id(stack)));
  }

  listSoftwareConfigs() {
    return this.client.listSoftwareConfigs();
  }

  showSoftwareConfig(id: string) {
    return this.client.showSoftwareConfig(id);
  }

  createSoftwareConfig(body: JsonObject) {
    return this.client.createSoftwareConfig(body);
  }

  deleteSoftwareConfig(id: string) {
    return this.client.deleteSoftwareConfig(id);
  }

  listSoftwareDeployments(serverId?: string) {
    return this.client.listSoftwareDeployments(serverId);
  }

  showSoftwareDeployment(id: string) {
    return this.client.showSoftwareDeployment(id);
  }

  deleteSoftwareDeployment(id: string) {
    return this.client.deleteSoftwareDeployment(id);
  }

  softwareMetadata(serverId: string) {
    return this.client.softwareMetadata(serverId);
  }
}
