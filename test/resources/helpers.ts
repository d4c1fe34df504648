// A fake engine for driving one resource plugin directly: it keeps what the engine would persist
// for the resource row (physical id, data, stored properties, progress), a fake clock that only
// moves when told, a seeded random source, and a Reality (in memory unless one is given).
import assert from 'node:assert/strict';
import type { Cloud } from '../../src/openstack/index.js';
import type { CatalogPlugin } from '../../src/resources/plugin-extras.js';
import {
  type ActionResult,
  type PeerResource,
  type PluginContext,
  type PollResult,
  type Reality,
  ResourceFailure,
  type ResourcePlugin,
  type SignalCredentials,
  SoftwareConfig,
  UpdateReplace,
} from '../../src/resources/contract.js';
import { MemoryReality } from '../../src/resources/reality/memory.js';
import { MemorySoftwareStore } from '../support/software-memory.js';
import type { Value } from '../../src/template/functions/types.js';
import { diffProperties, validateProperties } from '../../src/template/properties/index.js';
import type { Json, JsonObject } from '../../src/util/json.js';

/** A clock that moves only when told to. */
export class FakeClock {
  constructor(public ms = Date.UTC(2025, 0, 1)) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** A seeded source of numbers in [0, 1) (mulberry32), so random plugins are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FakeOptions {
  name?: string;
  stackName?: string;
  key?: string;
  reality?: Reality;
  clock?: FakeClock;
  random?: () => number;
  /** Software tables shared with other fakes (a deployment and its config). */
  software?: MemorySoftwareStore;
}

/** What running an action to its end took. */
export interface Run {
  /** Completion checks made. */
  polls: number;
  /** Fake time spent waiting (ms). */
  waitedMs: number;
  /** Every pollAfterMs asked for, in order. */
  pollAfter: number[];
}

/** The outcome of an update as the engine would decide it. */
export type UpdateOutcome = { replace: 'schema'; properties: string[] } | { replace: 'plugin' } | Run;

/** One resource row driven through a plugin, as the engine would. */
export class FakeResource {
  readonly name: string;
  readonly stackName: string;
  readonly key: string;
  readonly reality: Reality;
  readonly clock: FakeClock;
  readonly random: () => number;
  physicalId: string | null = null;
  data: JsonObject = {};
  storedProperties: Record<string, Value> | null = null;
  progress: Json | undefined = undefined;
  /** Other resources of the stack, by name or reference id, as readResource finds them. */
  readonly peers = new Map<string, PeerResource>();
  /** The software configs `ctx().softwareConfig` finds, by id. */
  readonly configs = new Map<string, SoftwareConfig>();
  /** The software config service's tables (`ctx().software`; `softwareConfig` reads them too). */
  readonly softwareStore: MemorySoftwareStore;
  /** What `ctx().signalCredentials()` gives (none unless a test sets it). */
  signal: SignalCredentials | undefined = undefined;
  /** The cloud `ctx().openstack()` gives (none unless a test sets it: then it throws, as the engine does). */
  cloud: Cloud | undefined = undefined;
  /** The properties of an action in progress, stored once it completes. */
  private pending: Record<string, Value> | undefined;

  constructor(
    readonly plugin: ResourcePlugin,
    options: FakeOptions = {},
  ) {
    this.name = options.name ?? 'res';
    this.stackName = options.stackName ?? 'stack';
    this.key = options.key ?? `key-${this.name}`;
    this.reality = options.reality ?? new MemoryReality();
    this.clock = options.clock ?? new FakeClock();
    this.random = options.random ?? seededRandom(1);
    this.softwareStore = options.software ?? new MemorySoftwareStore();
  }

  /** The context of the next plugin call: a snapshot of the row. */
  ctx(): PluginContext {
    return {
      resourceName: this.name,
      resourceType: this.plugin.type,
      stackId: 'stack-id',
      stackName: this.stackName,
      idempotencyKey: this.key,
      physicalId: this.physicalId,
      data: { ...this.data },
      storedProperties: this.storedProperties,
      reality: this.reality,
      softwareConfig: async (id) => {
        const stored = await this.softwareStore.service('project').getConfig(id);
        return this.configs.get(id) ?? (stored && { id, group: stored.group, config: stored.config });
      },
      software: this.softwareStore.service('project', this.clock.now),
      now: this.clock.now,
      random: this.random,
      readResource: async (ref) => this.peers.get(ref),
      signalCredentials: () => this.signal,
      openstack: () => {
        if (!this.cloud) throw new ResourceFailure('no OpenStack cloud is configured');
        return this.cloud;
      },
    };
  }

  /** Validated and converted properties with defaults, as the engine passes them (strict). */
  props(raw: Record<string, Value> = {}): Record<string, Value> {
    if ((this.plugin as CatalogPlugin).anyProperties) return {};
    return validateProperties(this.plugin.properties, raw, ['properties'], { strict: true });
  }

  /** Persists what an action or a check returned, as the engine does. */
  apply(result: ActionResult | PollResult): void {
    if (result.physicalId !== undefined) this.physicalId = result.physicalId;
    if (result.data !== undefined) this.data = { ...this.data, ...result.data };
  }

  /** Starts a create, without polling; the properties are stored once it completes. */
  async startCreate(raw: Record<string, Value> = {}): Promise<ActionResult> {
    const props = this.props(raw);
    const result = await this.plugin.create(this.ctx(), props);
    this.apply(result);
    this.progress = result.progress;
    if (result.progress === undefined) this.storedProperties = props;
    else this.pending = props;
    return result;
  }

  /** Creates and polls until done (the clock moves by each pollAfterMs). */
  async create(raw: Record<string, Value> = {}, maxPolls = 1000): Promise<Run> {
    const result = await this.startCreate(raw);
    return this.finish('create', result, maxPolls);
  }

  /** Decides and runs an update as the engine would: replace, or update in place and poll. */
  async update(raw: Record<string, Value>, maxPolls = 1000): Promise<UpdateOutcome> {
    const previous = this.storedProperties ?? {};
    const props = this.props(raw);
    const diff = diffProperties(this.plugin.properties, previous, props);
    if (diff.requiresReplacement.length > 0)
      return { replace: 'schema', properties: diff.requiresReplacement };
    let result: ActionResult;
    try {
      result = this.plugin.update ? await this.plugin.update(this.ctx(), props, previous, diff.changed) : {};
    } catch (err) {
      if (err instanceof UpdateReplace) return { replace: 'plugin' };
      throw err;
    }
    this.apply(result);
    this.progress = result.progress;
    if (result.progress === undefined) this.storedProperties = props;
    else this.pending = props;
    return this.finish('update', result, maxPolls);
  }

  async delete(maxPolls = 1000): Promise<Run> {
    const result = await this.plugin.delete(this.ctx());
    this.apply(result);
    this.progress = result.progress;
    return this.finish('delete', result, maxPolls);
  }

  /** One completion check of the action in progress. */
  async poll(action: 'create' | 'update' | 'delete'): Promise<PollResult> {
    assert.notEqual(this.progress, undefined, 'nothing in progress');
    const check =
      action === 'create'
        ? this.plugin.checkCreateComplete
        : action === 'update'
          ? this.plugin.checkUpdateComplete
          : this.plugin.checkDeleteComplete;
    assert.ok(check, `${this.plugin.type} returned progress but has no check for ${action}`);
    const result = await check.call(this.plugin, this.ctx(), this.progress!);
    this.apply(result);
    if (result.done) {
      this.progress = undefined;
      if (action !== 'delete') this.storedProperties = this.pending ?? this.storedProperties;
    } else if (result.progress !== undefined) {
      this.progress = result.progress;
    }
    return result;
  }

  async attribute(name: string): Promise<Value> {
    return this.plugin.attribute(this.ctx(), name, this.storedProperties ?? {});
  }

  referenceId(): string | null {
    return this.plugin.referenceId ? this.plugin.referenceId(this.ctx()) : this.physicalId;
  }

  private async finish(action: 'create' | 'update' | 'delete', first: ActionResult, maxPolls: number) {
    const run: Run = { polls: 0, waitedMs: 0, pollAfter: [] };
    let after = first.pollAfterMs;
    while (this.progress !== undefined) {
      assert.ok(run.polls < maxPolls, `still waiting after ${maxPolls} polls`);
      const ms = after ?? 1000;
      run.pollAfter.push(ms);
      this.clock.advance(ms);
      run.waitedMs += ms;
      run.polls++;
      const result = await this.poll(action);
      after = result.done ? undefined : result.pollAfterMs;
    }
    return run;
  }
}

/** The error `run` rejects with (fails when it resolves). */
export async function rejection(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof Error);
    return err;
  }
  assert.fail('expected a rejection');
}
