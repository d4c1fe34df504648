import { driftJSON } from '../../views/drift.js';
import type { HeatDrift } from '../../client/types.js';
import { abandonStack } from '../../engine/operations/abandon.js';
import { adoptStack } from '../../engine/operations/adopt.js';
import { parseAdoptData } from '../../engine/context/adopt-document.js';
import { detectDrift, storedDrift } from '../../engine/reality/drift.js';
import type { Engine } from '../../engine/engine.js';
import {
  cancelStack,
  checkStack,
  deleteStack,
  markUnhealthy,
  suspendOrResume,
} from '../../engine/operations/lifecycle.js';
import { createStack } from '../../engine/operations/create.js';
import { findStack } from '../../engine/operations/queries.js';
import { updateStack } from '../../engine/operations/update.js';
import { stackOutputs } from '../../engine/context/outputs.js';
import { previewStackCreate, previewStackUpdate } from '../../engine/operations/preview.js';
import { planStackUpdate } from '../../engine/operations/update-plan.js';
import { signalError, signalResource, signalSettled } from '../../engine/operations/signal.js';
import type { StackRecord } from '../../store/contract.js';
import type { Hook } from '../../template/environment/index.js';
import type { JsonObject } from '../../util/json.js';
import type {
  AdoptStack,
  Backend,
  NewStack,
  StackChange,
  StackRef,
  StackVisit,
  WaitDisplay,
} from '../backend.js';
import type { Config } from '../../config/index.js';
import { cliConfig, type GlobalOptions, localProject, openEngine } from '../embedded.js';
import { waitAndReport } from '../progress.js';
import { driftInfo } from './drift-info.js';
import { interruptedWait, reportCarryOn } from './embedded-carry-on.js';
import { clearHooks, nestedResources, pendingHooks, resourceDetail } from './embedded-resources.js';
import { eventInfo, previewChange, previewResource, stackInfo } from './embedded-views.js';
import { embeddedSoftware } from './embedded-software.js';

type Print = (s: string) => void;

/** The engine in this process, on the SQLite file of `--db` (the default mode). */
export class EmbeddedBackend implements Backend {
  private constructor(
    private readonly engine: Engine,
    private readonly print: Print,
    private readonly config: Config,
    private readonly opts: GlobalOptions,
  ) {}

  static async open(opts: GlobalOptions, print: Print): Promise<EmbeddedBackend> {
    const config = cliConfig(opts);
    return new EmbeddedBackend(await openEngine(config, opts), print, config, opts);
  }

  async close(): Promise<void> {
    await this.engine.stop();
    await this.engine.deps.store.close();
  }

  private get deps() {
    return this.engine.deps;
  }

  private record(stack: StackRef): Promise<StackRecord> {
    return findStack(this.deps, localProject(), stack.id);
  }

  /** The stack an operation started, or after running it to its end when asked. */
  private async settle(started: StackRecord, wait: WaitDisplay | undefined) {
    if (!wait) await this.carryOn(started);
    const final = wait ? await this.wait(started, wait) : started;
    return stackInfo(final ?? started);
  }

  /** Work was queued and this command returns: something must run it (embedded-carry-on.ts). */
  private carryOn(stack: StackRef): Promise<void> {
    return reportCarryOn(this.engine, this.config, this.opts, stack.name);
  }

  /** Runs the stack's operation to its end; Ctrl-C leaves it to an engine that carries on. */
  private async wait(stack: StackRef, display: WaitDisplay) {
    const stop = new AbortController();
    let interrupted: Promise<never> | undefined;
    const onInterrupt = () => {
      stop.abort();
      interrupted = interruptedWait(this.engine, this.config, this.opts, stack);
    };
    process.once('SIGINT', onInterrupt);
    try {
      const final = await waitAndReport(this.engine, stack.id, this.print, display, stop.signal);
      // Interrupted: the stack has not settled, and the command ends there (exit 130), not here.
      if (interrupted) await interrupted;
      return final;
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  }

  async listStacks(nested: boolean) {
    const filter = { projectId: localProject(), ...(nested ? {} : { parentId: null }) };
    return (await this.deps.store.tx((tx) => tx.stacks.list(filter))).map(stackInfo);
  }

  async findStack(nameOrId: string) {
    return stackInfo(await findStack(this.deps, localProject(), nameOrId));
  }

  async createStack(request: NewStack, wait?: WaitDisplay) {
    const created = await createStack(this.deps, this.engine.cache, {
      ...request,
      projectId: localProject(),
    });
    return this.settle(created, wait);
  }

  async adoptStack(request: AdoptStack, wait?: WaitDisplay) {
    const { document, ...rest } = request;
    const adopted = await adoptStack(this.deps, this.engine.cache, {
      ...rest,
      document: parseAdoptData(document, this.deps.settings.limits),
      projectId: localProject(),
    });
    return this.settle(adopted, wait);
  }

  async updateStack(stack: StackRef, change: StackChange, wait?: WaitDisplay) {
    return this.settle(await updateStack(this.deps, this.engine.cache, stack.id, change), wait);
  }

  async deleteStack(stack: StackRef, wait?: WaitDisplay) {
    await deleteStack(this.deps, stack.id);
    if (wait) await this.wait(stack, wait);
    else await this.carryOn(stack);
  }

  async visitStack(stack: StackRef, visit: StackVisit, wait?: WaitDisplay) {
    const started =
      visit === 'check'
        ? await checkStack(this.deps, this.engine.cache, stack.id)
        : await suspendOrResume(this.deps, stack.id, visit === 'suspend' ? 'SUSPEND' : 'RESUME');
    return this.settle(started, wait);
  }

  async cancelStack(stack: StackRef, rollback: boolean, wait?: WaitDisplay) {
    await cancelStack(this.deps, stack.id, { rollback });
    if (!wait) await this.carryOn(stack);
    const final = wait ? await this.wait(stack, wait) : await this.record(stack);
    return final && stackInfo(final);
  }

  abandonStack(stack: StackRef): Promise<JsonObject> {
    return abandonStack(this.deps, stack.id);
  }

  async waitForStack(stack: StackRef, display: WaitDisplay) {
    const final = await this.wait(stack, display);
    return final && stackInfo(final);
  }

  async previewCreate(request: NewStack) {
    const { resources } = await previewStackCreate(this.deps, this.engine.cache, {
      ...request,
      projectId: localProject(),
    });
    return resources.map(previewResource);
  }

  async previewUpdate(stack: StackRef, change: StackChange, nested: boolean) {
    return (await previewStackUpdate(this.deps, this.engine.cache, stack.id, change, nested)).map(
      previewChange,
    );
  }

  planUpdate(stack: StackRef, change: StackChange, nested: boolean) {
    return planStackUpdate(this.deps, this.engine.cache, stack.id, change, nested);
  }

  async outputs(stack: StackRef) {
    return stackOutputs(this.deps, this.engine.cache, await this.record(stack));
  }

  async output(stack: StackRef, key: string) {
    const one = (await this.outputs(stack)).find((o) => o.output_key === key);
    if (!one) throw new Error(`output "${key}" not found in stack "${stack.name}"`);
    return one;
  }

  async resources(stack: StackRef, nestedDepth: number) {
    const record = await this.record(stack);
    return this.deps.store.tx((tx) => nestedResources(tx, record, nestedDepth));
  }

  async resource(stack: StackRef, name: string) {
    return resourceDetail(this.engine, await this.record(stack), name);
  }

  async markUnhealthy(stack: StackRef, resource: string, reason: string) {
    await markUnhealthy(this.deps, stack.id, resource, reason);
  }

  async signal(stack: StackRef, resource: string, data: JsonObject | null) {
    const signalId = await signalResource(this.deps, stack.id, resource, data);
    // Queued, so it survives this process; run the engine until it has been handled, to tell how.
    await this.engine.runUntil(() => signalSettled(this.deps, signalId));
    const error = await signalError(this.deps, stack.id, resource, signalId);
    if (error) throw new Error(error);
    // What the signal set going (the resource's operation, a scaling update) goes on after it.
    if ((await this.deps.store.nextWorkTime()) !== undefined) await this.carryOn(stack);
  }

  async events(stack: StackRef) {
    return (await this.deps.store.tx((tx) => tx.events.list(stack.id))).map(eventInfo);
  }

  async template(stack: StackRef) {
    const { templateId } = await this.record(stack);
    const record = templateId ? await this.deps.store.tx((tx) => tx.templates.get(templateId)) : undefined;
    return record?.template ?? '';
  }

  async pendingHooks(stack: StackRef) {
    const record = await this.record(stack);
    return this.deps.store.tx((tx) => pendingHooks(tx, record));
  }

  async clearHooks(stack: StackRef, path: string, hooks: Hook[]) {
    await clearHooks(this.deps, await this.record(stack), path, hooks);
    await this.carryOn(stack);
  }

  async detectDrift(stack: StackRef) {
    const record = await this.record(stack);
    // Heartbeating, this process counts among the engines sharing the cloud rate limit.
    await this.engine.whileBeating(() => detectDrift(this.deps, record.id));
    return this.drift(record, true);
  }

  async showDrift(stack: StackRef) {
    return this.drift(await this.record(stack), false);
  }

  /** The stored results as the API renders them (hidden parameters' values masked too). */
  private async drift(record: StackRecord, onlyDrifted: boolean) {
    const drift = await storedDrift(this.deps, record.id, { onlyDrifted });
    return driftInfo((await driftJSON(this.engine, record, drift)) as unknown as HeatDrift);
  }

  private get software() {
    return embeddedSoftware(this.deps.store, localProject(), () => this.deps.clock.now());
  }

  listSoftwareConfigs() {
    return this.software.listSoftwareConfigs();
  }

  showSoftwareConfig(id: string) {
    return this.software.showSoftwareConfig(id);
  }

  createSoftwareConfig(body: JsonObject) {
    return this.software.createSoftwareConfig(body);
  }

  deleteSoftwareConfig(id: string) {
    return this.software.deleteSoftwareConfig(id);
  }

  listSoftwareDeployments(serverId?: string) {
    return this.software.listSoftwareDeployments(serverId);
  }

  showSoftwareDeployment(id: string) {
    return this.software.showSoftwareDeployment(id);
  }

  deleteSoftwareDeployment(id: string) {
    return this.software.deleteSoftwareDeployment(id);
  }

  softwareMetadata(serverId: string) {
    return this.software.softwareMetadata(serverId);
  }
}
