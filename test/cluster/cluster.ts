/**
 * Several real `hearth engine` processes on one PostgreSQL database, and a look at that database
 * from the test process: the cluster tests' harness. Stack operations are started with the CLI
 * without --wait, so only the engines do the work; the tests kill, stop and replace engines (or
 * the database) and read the outcome through the store and the fake cloud's table
 * (reality_objects, which PostgresReality keeps in the same database).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOptionName } from '../../src/config/options.js';
import type { PhysicalObject } from '../../src/resources/contract.js';
import { PostgresReality } from '../../src/resources/reality/postgres.js';
import type { StackProgressCounts, StackRecord, Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { sleep } from '../crash/crasher.js';
import { Child, cli, type Exit, type ObservedStack } from '../crash/harness.js';
import type { BigTemplate } from '../crash/template.js';

const OWN_HOST = fileURLToPath(new URL('./own-host.ts', import.meta.url));
/** The project of stacks made without a server. */
const PROJECT = 'local';

/** The engines' heartbeat and lease (short, so that a dead engine is noticed soon). */
export const HEARTBEAT_MS = 300;
export const LEASE_MS = 1500;
/**
 * How long after its last heartbeat an engine is presumed dead: HEARTH_ENGINE_DEAD_AFTER_MS where
 * the configuration has that option, otherwise what the CLI derives from the heartbeat.
 */
export const DEAD_AFTER_MS = isOptionName('engine_dead_after_ms') ? 1500 : Math.max(3000, 3 * HEARTBEAT_MS);

/**
 * The engines' settings: short leases and heartbeats (as the crash tests'), and debug logs, so that takeovers and
 * failed units show in a failure's report.
 */
export function engineEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HEARTH_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS),
    HEARTH_WORK_LEASE_MS: String(LEASE_MS),
    HEARTH_LOG_LEVEL: 'debug',
    ...(isOptionName('engine_dead_after_ms') ? { HEARTH_ENGINE_DEAD_AFTER_MS: String(DEAD_AFTER_MS) } : {}),
    ...extra,
  };
}

/**
 * The stacks the fault tests traverse: 60 chains of 15 links and 100 fan-in resources, 1,000 in
 * all; one in 20 waits 0.2 s after a create or update (a wait is a row in progress and a poll
 * to come, where a kill may land); 10 replaced by each update.
 */
export const THOUSAND = { chains: 60, length: 15, fanIn: 100, waitEvery: 20, waitSecs: 0.2, replaced: 10 };

/** One engine process of a fleet, on a host of its own (see own-host.ts). */
export interface FleetEngine {
  host: string;
  child: Child;
  /** Why it is no longer running, when the test ended it. */
  ended?: string;
}

/**
 * Engine processes on one database, each on a host of its own; the test kills, stops and
 * replaces them. Remembers what happened to each, for a failure's report.
 */
export class Fleet {
  readonly engines: FleetEngine[] = [];
  /** When each SIGKILL was sent. */
  readonly kills: number[] = [];
  private readonly history: string[] = [];
  private serial = 0;
  private readonly t0 = Date.now();

  constructor(
    readonly dir: string,
    readonly url: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts an engine and waits until it says it has started (its store open, its heartbeat on). */
  async start(): Promise<FleetEngine> {
    const host = `engine-${++this.serial}`;
    const env = { ...this.env, CLUSTER_TEST_HOST: host };
    const child = new Child(['engine'], this.dir, this.url, env, [OWN_HOST]);
    const engine: FleetEngine = { host, child };
    this.engines.push(engine);
    const deadline = Date.now() + 60_000;
    while (!/engine \S+ started/.test(child.output) && child.running && Date.now() < deadline)
      await sleep(20);
    this.healthy();
    assert.ok(Date.now() < deadline, this.explain(`${host} did not start within 60 s`));
    this.note(`${host} started (pid ${child.process.pid})`);
    return engine;
  }

  /** The engines still running. */
  get running(): FleetEngine[] {
    return this.engines.filter((e) => e.child.running);
  }

  /** Fails if an engine exited without being told to (a crash). */
  healthy(): void {
    const crashed = this.engines.find((e) => !e.child.running && e.ended === undefined);
    if (!crashed) return;
    crashed.ended = 'exited by itself';
    assert.fail(this.explain(`${crashed.host} exited by itself`));
  }

  /** SIGKILLs `engine` and waits until it is gone. */
  async kill(engine: FleetEngine, why: string): Promise<void> {
    engine.ended = `killed ${why}`;
    this.kills.push(Date.now());
    engine.child.kill();
    const exit = await engine.child.exited;
    this.note(`${engine.host} killed ${why} (ran ${exit.ms} ms)`);
  }

  /** SIGTERMs `engine` and waits for it to exit (SIGKILL after `limitMs`); returns how long it took. */
  async terminate(engine: FleetEngine, limitMs: number): Promise<{ exit: Exit; ms: number }> {
    const asked = Date.now();
    engine.ended = 'stopped by SIGTERM';
    engine.child.process.kill('SIGTERM');
    const timer = setTimeout(() => engine.child.kill(), limitMs);
    const exit = await engine.child.exited;
    clearTimeout(timer);
    const ms = Date.now() - asked;
    this.note(`${engine.host} stopped by SIGTERM: exited ${exit.code ?? exit.signal} after ${ms} ms`);
    return { exit, ms };
  }

  /** Kills whatever still runs (clean-up, also after a failure). */
  async stopAll(): Promise<void> {
    await Promise.all(this.running.map((e) => this.kill(e, 'at the end')));
  }

  note(line: string): void {
    this.history.push(`${((Date.now() - this.t0) / 1000).toFixed(1)} s: ${line}`);
  }

  /** `what`, the fleet's history and the engines' logs (summed up), for a failure message. */
  explain(what: string): string {
    const logs = this.engines.map((e) => {
      const state = e.child.running ? 'running' : (e.ended ?? 'exited by itself');
      return `--- ${e.host} (${state}) ---\n${summary(e.child.output)}`;
    });
    return [what, `engines:\n  ${this.history.join('\n  ')}`, ...logs].join('\n');
  }
}

/**
 * An engine's log without the line per unit taken over from it (counted instead, they would
 * crowd out the rest): its last 40 other lines.
 */
function summary(log: string): string {
  const lines = log.split('\n').filter((line) => line !== '');
  const takenOver = lines.filter((line) => /^unit of work \d+ .* was taken over/.test(line)).length;
  const rest = lines.filter((line) => !/^unit of work \d+ .* was taken over/.test(line));
  const shown = rest.slice(-40).map((line) => line.slice(0, 400));
  const skipped = rest.length - shown.length;
  return [
    ...(skipped > 0 ? [`(${skipped} earlier lines)`] : []),
    ...shown,
    ...(takenOver > 0 ? [`(${takenOver} units it ran were taken over by other engines)`] : []),
  ].join('\n');
}

/**
 * The test's own view of the database: the store (as the CLI opens it) and the fake cloud's table.
 * Every read retries while the database is unreachable (a restart), for up to `patienceMs`.
 */
export class ClusterProbe {
  private readonly reality: PostgresReality;

  private constructor(
    private readonly store: Store,
    url: string,
    private readonly patienceMs: number,
    /** Asked on every poll while waiting (fails the wait if the cluster is broken). */
    private readonly onPoll: () => void,
  ) {
    this.reality = new PostgresReality(url);
  }

  /** Opens the store (creating the schema before any engine does) and the reality table. */
  static async open(url: string, onPoll: () => void = () => {}, patienceMs = 30_000): Promise<ClusterProbe> {
    const probe = new ClusterProbe(await openStore(url), url, patienceMs, onPoll);
    await probe.reality.list();
    return probe;
  }

  private async retry<T>(fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.patienceMs;
    for (;;) {
      try {
        return await fn();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(200);
      }
    }
  }

  stack(name: string): Promise<StackRecord | undefined> {
    return this.retry(() => this.store.tx((tx) => tx.stacks.findByName(PROJECT, name)));
  }

  /** Every physical object of the fake cloud. */
  objects(): Promise<PhysicalObject[]> {
    return this.retry(() => this.reality.list());
  }

  /**
   * What checkObserved needs: the stack, its live rows (with the value each was converged with)
   * and the objects named after it (a physical name starts with the stack's name and a dash).
   */
  async observe(name: string): Promise<ObservedStack> {
    const stack = await this.stack(name);
    assert.ok(stack, `stack ${name} not found`);
    const rows = await this.retry(() => this.store.tx((tx) => tx.resources.listActive(stack.id)));
    const objects = (await this.objects()).filter((o) => o.id.startsWith(`${name}-`));
    return {
      status: `${stack.action}_${stack.status}`,
      reason: stack.reason,
      resources: rows.map((r) => ({
        name: r.name,
        physicalId: r.physicalId,
        status: `${r.action}_${r.status}`,
        value: r.properties?.value,
      })),
      objects,
      locked: rows.filter((r) => r.engineId !== null).map((r) => ({ name: r.name, engineId: r.engineId })),
    };
  }

  /**
   * Waits until the stack's operation has left IN_PROGRESS, failing once `deadline()` has passed
   * (asked on every poll: a kill moves it); `tick` runs on each poll with the current traversal's
   * progress.
   */
  async settle(
    name: string,
    deadline: () => number,
    tick: (progress: StackProgressCounts) => Promise<void> = async () => {},
  ): Promise<StackRecord> {
    for (;;) {
      this.onPoll();
      const stack = await this.stack(name);
      assert.ok(stack, `stack ${name} not found`);
      if (stack.status !== 'IN_PROGRESS') return stack;
      const late = Date.now() - deadline();
      assert.ok(late < 0, `stack ${name} still ${stack.action}_IN_PROGRESS ${late} ms after its deadline`);
      const progress = await this.retry(() => this.store.tx((tx) => tx.stacks.progress(stack.id)));
      if (progress) await tick(progress);
      await sleep(50);
    }
  }

  /** Waits until the stack is gone (deleted), failing after `deadline`. */
  async gone(name: string, deadline: number): Promise<void> {
    for (;;) {
      this.onPoll();
      const stack = await this.stack(name);
      if (!stack) return;
      assert.notEqual(stack.status, 'FAILED', `stack ${name}: ${stack.action}_FAILED: ${stack.reason}`);
      assert.ok(Date.now() < deadline, `stack ${name} still ${stack.action}_${stack.status} at its deadline`);
      await sleep(100);
    }
  }

  async close(): Promise<void> {
    await this.reality.close();
    await this.store.close();
  }
}

/**
 * One test's cluster: a work directory with the templates, the probe and the fleet on `url`.
 * `close` kills the engines and removes the directory (the state is in the database).
 */
export class Cluster {
  private constructor(
    readonly url: string,
    readonly dir: string,
    readonly probe: ClusterProbe,
    readonly fleet: Fleet,
  ) {}

  static async open(url: string, env: Record<string, string> = engineEnv()): Promise<Cluster> {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-cluster-'));
    try {
      const fleet = new Fleet(dir, url, env);
      return new Cluster(url, dir, await ClusterProbe.open(url, () => fleet.healthy()), fleet);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Starts `count` engines at once. */
  async startEngines(count: number): Promise<FleetEngine[]> {
    return Promise.all(Array.from({ length: count }, () => this.fleet.start()));
  }

  /** Writes the stack's template (`<stack>.yaml`). */
  writeTemplate(stack: string, template: BigTemplate): void {
    writeFileSync(join(this.dir, `${stack}.yaml`), template.text);
  }

  /** Starts creating the stack from its template (no --wait: the engines do the work). */
  create(stack: string): Promise<string> {
    return cli(this.dir, this.url, ['stack', 'create', stack, '-t', `${stack}.yaml`]);
  }

  /** Starts updating the stack to its template with `gen`. */
  update(stack: string, gen: string): Promise<string> {
    return cli(this.dir, this.url, [
      'stack',
      'update',
      stack,
      '-t',
      `${stack}.yaml`,
      '--parameter',
      `gen=${gen}`,
    ]);
  }

  async close(): Promise<void> {
    await this.fleet.stopAll();
    await this.probe.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
