import type { EngineDeps } from '../../src/engine/core/deps.js';
import { Engine } from '../../src/engine/engine.js';
import { createStack } from '../../src/engine/operations/create.js';
import { deleteStack } from '../../src/engine/operations/lifecycle.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { type TemplateInput } from '../../src/engine/core/requests.js';
import { updateStack } from '../../src/engine/operations/update.js';
import { stackOutputs } from '../../src/engine/context/outputs.js';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import { type PhysicalObject, type ResourcePlugin, ResourceInError } from '../../src/resources/contract.js';
import { MemoryReality } from '../../src/resources/reality/memory.js';
import type { ResourceRecord, StackRecord } from '../../src/store/contract.js';
import { emptyEnvironment } from '../../src/template/environment/index.js';
import { DEFAULT_LIMITS } from '../../src/template/limits.js';
import type { Json } from '../../src/util/json.js';
import { openTestStore } from '../support/stores.js';

export interface OperationOptions {
  parameters?: Record<string, Json>;
  rollback?: boolean;
  /** Nested templates and get_file contents, by path relative to the template. */
  files?: Record<string, string>;
  /** The template's URL (default file:///work/t.yaml). */
  url?: string;
}

/** A clock the test moves by hand. */
export class FakeClock {
  constructor(public t = 1_700_000_000_000) {}
  now(): number {
    return this.t;
  }
}

/** Reality that remembers every object it ever held, so tests can see creates, deletes and ids. */
export class RecordingReality extends MemoryReality {
  readonly created: PhysicalObject[] = [];
  private failing = 0;
  private refusing = 0;

  /**
   * The next `count` objects created go to status ERROR, and their create reports it (a cloud
   * whose resources fail to come up: Heat's ResourceInError, which the engine retries).
   */
  failCreates(count: number): void {
    this.failing = count;
  }

  /** The next `count` deletes of an existing object are refused for now (a conflict, retried too). */
  failDeletes(count: number): void {
    this.refusing = count;
  }

  override async delete(type: string, id: string): Promise<boolean> {
    if (this.refusing > 0 && (await this.get(type, id))) {
      this.refusing--;
      throw new ResourceInError(`${type} ${id} cannot be deleted now (conflict)`);
    }
    return super.delete(type, id);
  }

  override async put(object: PhysicalObject): Promise<void> {
    const existing = await this.get(object.type, object.id);
    if (existing) return super.put(object);
    const failed = this.failing > 0;
    if (failed) this.failing--;
    const stored = failed ? { ...object, status: 'ERROR' } : object;
    this.created.push(stored);
    await super.put(stored);
    if (failed)
      throw new ResourceInError(`Went to status ERROR due to "Unknown" (${object.type} ${object.id})`);
  }
}

/** Engine settings a test may change from the harness's. */
export interface HarnessOptions {
  /** Resource types beyond the built-in ones (test-only types). */
  plugins?: readonly ResourcePlugin[];
  actionRetryLimit?: number;
  stackActionTimeout?: number;
  /** The OpenStack cloud the engine gives plugins (absent: none is configured). */
  openstack?: EngineDeps['openstack'];
  /** Gives up a deleted root stack's credentials (its trust). */
  releaseCredentials?: EngineDeps['releaseCredentials'];
  /** The limiter the heartbeat sets this engine's share of the cloud rate limit in. */
  cloudRate?: EngineDeps['cloudRate'];
  cloudRateLimit?: number;
  cloudRateBurst?: number;
  /** New stacks run under the legacy engine (convergence_engine false). */
  legacy?: boolean;
  /** `stack adopt` allowed (enable_stack_adopt; off by default, as Heat). */
  enableStackAdopt?: boolean;
  /** Credentials for signalling resources from outside (absent: resources get none). */
  signalCredentials?: EngineDeps['signalCredentials'];
  /** Fetches the templates nested-stack types name by URL (absent: over the network). */
  fetchTemplate?: EngineDeps['fetchTemplate'];
  /** The keypairs of AWS::IAM::AccessKey resources (absent: they get none). */
  stackUserKeypair?: EngineDeps['stackUserKeypair'];
  /** Receives what the engine logs (absent: HEARTH_TEST_LOG=1 prints it). */
  log?: (message: string) => void;
}

/**
 * The deterministic, step-driven harness: one in-process engine on a new store of the test backend (support/stores.ts), a fake
 * clock, and work processed one round at a time (a round runs every unit that is due), so a
 * scenario can stop between any two steps and look at the state.
 */
export class Harness {
  readonly clock = new FakeClock();
  readonly reality = new RecordingReality();
  engine!: Engine;
  deps!: EngineDeps;

  static async create(options: HarnessOptions = {}): Promise<Harness> {
    const h = new Harness();
    const store = await openTestStore();
    h.deps = {
      store,
      plugins: pluginCatalog([...builtinPlugins(), ...(options.plugins ?? [])]),
      reality: h.reality,
      clock: h.clock,
      engineId: 'engine-1',
      ...(options.openstack ? { openstack: options.openstack } : {}),
      ...(options.releaseCredentials ? { releaseCredentials: options.releaseCredentials } : {}),
      ...(options.cloudRate ? { cloudRate: options.cloudRate } : {}),
      ...(options.signalCredentials ? { signalCredentials: options.signalCredentials } : {}),
      ...(options.fetchTemplate ? { fetchTemplate: options.fetchTemplate } : {}),
      ...(options.stackUserKeypair ? { stackUserKeypair: options.stackUserKeypair } : {}),
      random: seeded(42),
      settings: {
        workLeaseMs: 60_000,
        engineDeadAfterMs: 10_000,
        actionRetryLimit: options.actionRetryLimit ?? 0,
        stackActionTimeout: options.stackActionTimeout ?? 3600,
        lockRetryMs: 50,
        limits: DEFAULT_LIMITS,
        ...(options.legacy ? { convergenceEngine: false } : {}),
        ...(options.enableStackAdopt ? { enableStackAdopt: true } : {}),
        ...(options.cloudRateLimit !== undefined ? { cloudRateLimit: options.cloudRateLimit } : {}),
        ...(options.cloudRateBurst !== undefined ? { cloudRateBurst: options.cloudRateBurst } : {}),
      },
    };
    // HEARTH_TEST_LOG=1 prints what the engine logs (failed units of work) while debugging a test.
    h.engine = new Engine(
      h.deps,
      options.log ?? (process.env.HEARTH_TEST_LOG ? (m) => process.stderr.write(`${m}\n`) : undefined),
    );
    await h.engine.heartbeat(true);
    return h;
  }

  /**
   * A template as the client sends it, from file:///work/t.yaml; `files` maps names relative to
   * that directory (e.g. `nested.yaml`) to their text, keyed by URL as the loader keys them.
   */
  input(
    text: string,
    parameters: Record<string, Json> = {},
    files: Record<string, string> = {},
    url = 'file:///work/t.yaml',
  ): TemplateInput {
    const byUrl: Record<string, string> = {};
    for (const [name, content] of Object.entries(files)) byUrl[new URL(name, 'file:///work/').href] = content;
    return {
      url,
      text,
      files: byUrl,
      environment: { ...emptyEnvironment(), parameters },
    };
  }

  async create(name: string, text: string, options: OperationOptions = {}) {
    return createStack(this.deps, this.engine.cache, {
      name,
      projectId: 'p',
      template: this.input(text, options.parameters, options.files, options.url),
      disableRollback: !options.rollback,
    });
  }

  async update(name: string, text: string, options: OperationOptions = {}) {
    const stack = await findStack(this.deps, 'p', name);
    return updateStack(this.deps, this.engine.cache, stack.id, {
      template: this.input(text, options.parameters, options.files, options.url),
      ...(options.rollback !== undefined ? { disableRollback: !options.rollback } : {}),
    });
  }

  async delete(name: string) {
    const stack = await findStack(this.deps, 'p', name);
    return deleteStack(this.deps, stack.id);
  }

  /** Runs every unit of work due now; if none is due, jumps the clock to the next one. Returns units run. */
  async round(): Promise<number> {
    const ran = await this.engine.worker.runDue(10_000);
    if (ran > 0) return ran;
    // A legacy walk holds its unit until it ends (its lease is not renewed here): it ends first.
    if (this.engine.worker.walking() > 0) {
      await this.engine.worker.walksEnded();
      return 1;
    }
    const next = await this.deps.store.nextWorkTime();
    if (next === undefined) return 0;
    this.clock.t = Math.max(this.clock.t, next);
    return this.engine.worker.runDue(10_000);
  }

  /** Runs `n` rounds. */
  async rounds(n: number): Promise<void> {
    for (let i = 0; i < n; i++) await this.round();
  }

  /** Runs rounds until no work is left. */
  async settle(maxRounds = 10_000): Promise<void> {
    for (let i = 0; i < maxRounds; i++) {
      if ((await this.round()) === 0 && (await this.deps.store.nextWorkTime()) === undefined) return;
    }
    throw new Error('the engine did not settle');
  }

  async stack(name: string): Promise<StackRecord> {
    return this.deps.store.tx(async (tx) =>
      (await tx.stacks.list({ projectId: 'p', includeDeleted: true })).find((s) => s.name === name)!,
    );
  }

  async status(name: string): Promise<string> {
    const s = await this.stack(name);
    return `${s.action}_${s.status}`;
  }

  async rows(name: string): Promise<ResourceRecord[]> {
    const s = await this.stack(name);
    return this.deps.store.tx((tx) => tx.resources.listActive(s.id));
  }

  async outputs(name: string): Promise<Record<string, Json | undefined>> {
    const s = await this.stack(name);
    const out: Record<string, Json | undefined> = {};
    for (const o of await stackOutputs(this.deps, this.engine.cache, s)) out[o.output_key] = o.output_value;
    return out;
  }

  /** Live physical objects of TestResource, by their value. */
  async live(): Promise<PhysicalObject[]> {
    return this.reality.list();
  }
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
