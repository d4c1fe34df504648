/**
 * Several real `hearth engine` processes on one PostgreSQL database, and a look at that database
 * from the test process: the cluster tests' harness. Stack operations are started with the CLI
 * without --wait, so only the engines do the work; the tests kill, stop and replace engines (or
 * the database) and read the outcome through the store and the fake cloud's table
 * (reality_objects, which PostgresReality keeps in the same database).
 *
 * No wait here has a deadline tied to the machine's speed: a wait fails when the cluster makes no
 * progress for STALL_MS (progress.ts; CLUSTER_STALL_MS), and the few steps without a measure of
 * progress (an engine starting, a CLI call) have ceilings minutes long. CLUSTER_INJECT plants a
 * duplicate or a leak mid-run to show the checks fail (inject.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { isOptionName } from '../../src/config/options.js';
import type { PhysicalObject } from '../../src/resources/contract.js';
import { PostgresReality } from '../../src/resources/reality/postgres.js';
import type { StackProgressCounts, StackRecord, Store } from '../../src/store/contract.js';
import { openStore } from '../../src/store/index.js';
import { sleep } from '../crash/crasher.js';
import { Child, cli, type Exit, type ObservedStack } from '../crash/harness.js';
import type { BigTemplate } from '../crash/template.js';
import { assertNotStuck, type Settled } from './checks.js';
import { inject, requestedInjection } from './inject.js';
import { ProgressWatch, STALL_MS } from './progress.js';

/**
 * Preloaded through NODE_OPTIONS, not as a Child preload: the engines then run the CLI bundle
 * (HEARTH_TEST_CLI), which starts with a fraction of tsx's CPU, a large part of a loaded run.
 */
const OWN_HOST = `--import=${new URL('./own-host.mjs', import.meta.url).href}`;
/** The project of stacks made without a server. */
const PROJECT = 'local';
/**
 * Ceilings for the steps with no progress to watch: an engine starting (seconds, even on a busy
 * machine; a broken one never starts) and a CLI call (the same).
 */
const START_MS = 300_000;
const CLI_MS = 300_000;

/**
 * The engines' heartbeat and lease: short enough that a killed engine's work is taken over within
 * a trial, long enough that a live engine starved of CPU (heartbeats seconds late on a loaded
 * machine) is not taken for dead. With 1.5 s, engines on a machine at load 38 kept releasing each
 * other's work and the traversal made no progress.
 */
export const HEARTBEAT_MS = 1000;
export const LEASE_MS = 10_000;
/**
 * How long after its last heartbeat an engine is presumed dead: HEARTH_ENGINE_DEAD_AFTER_MS where
 * the configuration has that option, otherwise what the CLI derives from the heartbeat.
 */
export const DEAD_AFTER_MS = isOptionName('engine_dead_after_ms') ? 10_000 : Math.max(3000, 3 * HEARTBEAT_MS);

/**
 * The engines' settings: the leases and heartbeats above, and debug logs, so that takeovers and
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

/** One engine process of a fleet, on a host of its own (see own-host.mjs). */
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
    const options = [process.env.NODE_OPTIONS, OWN_HOST].filter(Boolean).join(' ');
    const env = { ...this.env, CLUSTER_TEST_HOST: host, NODE_OPTIONS: options };
    const child = new Child(['engine'], this.dir, this.url, env);
    const engine: FleetEngine = { host, child };
    this.engines.push(engine);
    const deadline = Date.now() + START_MS;
    while (!/engine \S+ started/.test(child.output) && child.running && Date.now() < deadline)
      await sleep(20);
    this.healthy();
    assert.ok(Date.now() < deadline, this.explain(`${host} did not start within ${START_MS / 1000} s`));
    // Without its own host an engine takes a killed one's work at once: the test would weaken.
    // (A replacement the test killed while it was starting never says it started.)
    if (engine.ended === undefined)
      assert.match(
        child.output,
        new RegExp(`engine ${host}:\\d+:\\S+ started`),
        this.explain(`${host}: own-host.mjs not loaded`),
      );
    this.note(`${host} started (pid ${child.process.pid})`);
    return engine;
  }

  /** The engines still running. */
  get running(): FleetEngine[] {
    return this.engines.filter((e) => e.child.running);
  }

  /** The hosts of the engines still running (an engine id starts with its host). */
  get aliveHosts(): Set<string> {
    return new Set(this.running.map((e) => e.host));
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
 * The test's own view of the database: the store (as the CLI opens it), the fake cloud's table and
 * the work queue. Every read retries while the database is unreachable (a restart), for up to
 * `patienceMs`.
 */
export class ClusterProbe {
  private readonly reality: PostgresReality;
  /** For what the store's interface does not show: the whole work queue. */
  private readonly sql: pg.Pool;
  private readonly injection = requestedInjection();
  private injected = false;

  private constructor(
    private readonly store: Store,
    url: string,
    private readonly patienceMs: number,
    /** Asked on every poll while waiting (fails the wait if the cluster is broken). */
    private readonly onPoll: () => void,
    /** Told what the probe did to the cluster (an injection), for a failure's report. */
    private readonly note: (line: string) => void,
  ) {
    this.reality = new PostgresReality(url);
    this.sql = new pg.Pool({ connectionString: url, max: 1, allowExitOnIdle: true });
    this.sql.on('error', () => undefined); // a restart drops idle connections
  }

  /** Opens the store (creating the schema before any engine does) and the reality table. */
  static async open(
    url: string,
    onPoll: () => void = () => {},
    note: (line: string) => void = () => {},
    patienceMs = STALL_MS,
  ): Promise<ClusterProbe> {
    const probe = new ClusterProbe(await openStore(url), url, patienceMs, onPoll, note);
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

  /** What stuckProblems needs: every row of the stack (replaced ones too) and its queued work. */
  async settled(name: string): Promise<Settled> {
    const stack = await this.stack(name);
    assert.ok(stack, `stack ${name} not found`);
    const rows = await this.retry(() => this.store.tx((tx) => tx.resources.listAll(stack.id)));
    const work = await this.retry(() =>
      this.sql.query<{ id: number; node: string; claimed_by: string | null }>(
        'SELECT id, node, claimed_by FROM work WHERE stack_id = $1 ORDER BY id',
        [stack.id],
      ),
    );
    return {
      rows: rows.map((r) => ({
        id: r.id,
        name: r.name,
        action: r.action,
        status: r.status,
        engineId: r.engineId,
      })),
      work: work.rows.map((w) => ({ id: Number(w.id), node: w.node, claimedBy: w.claimed_by })),
    };
  }

  /**
   * Waits until the stack's operation has left IN_PROGRESS, failing once no node of its traversal
   * has finished for STALL_MS; `tick` runs on each poll with the current traversal's progress (the
   * time it takes, a kill or an outage the test causes, does not count as the cluster's).
   */
  async settle(
    name: string,
    tick: (progress: StackProgressCounts) => Promise<void> = async () => {},
  ): Promise<StackRecord> {
    const watch = new ProgressWatch();
    let seen = 'no progress read yet';
    for (;;) {
      this.onPoll();
      const stack = await this.stack(name);
      assert.ok(stack, `stack ${name} not found`);
      if (stack.status !== 'IN_PROGRESS') return stack;
      assert.ok(
        !watch.stalled(),
        `stack ${name} still ${stack.action}_IN_PROGRESS with no progress for ${watch.idleMs()} ms (${seen})`,
      );
      const progress = await this.retry(() => this.store.tx((tx) => tx.stacks.progress(stack.id)));
      if (progress) {
        watch.observe(progress.done);
        seen = `${progress.done}/${progress.total} nodes done, ${progress.inProgress} in progress`;
        const ticking = Date.now();
        await this.maybeInject(name, progress);
        await tick(progress);
        watch.pause(Date.now() - ticking);
      }
      await sleep(50);
    }
  }

  /** CLUSTER_INJECT's fault, once per test process, halfway through a traversal. */
  private async maybeInject(name: string, { done, total }: StackProgressCounts): Promise<void> {
    if (!this.injection || this.injected || total === 0 || done < total / 2) return;
    this.injected = true;
    this.note(await this.retry(() => inject(this.reality, name, this.injection!)));
  }

  /**
   * Waits until every stack of `names` is gone (deleted), failing when one has FAILED or when no
   * stack went and no physical object was deleted for STALL_MS.
   */
  async gone(names: readonly string[]): Promise<void> {
    const watch = new ProgressWatch();
    const before = (await this.objects()).length;
    for (;;) {
      this.onPoll();
      const left: string[] = [];
      for (const name of names) {
        const stack = await this.stack(name);
        if (!stack) continue;
        assert.notEqual(stack.status, 'FAILED', `stack ${name}: ${stack.action}_FAILED: ${stack.reason}`);
        left.push(`${name} ${stack.action}_${stack.status}`);
      }
      if (left.length === 0) return;
      const deleted = before - (await this.objects()).length;
      watch.observe((names.length - left.length) * 1e6 + deleted);
      assert.ok(!watch.stalled(), `no delete progress for ${watch.idleMs()} ms; left: ${left.join(', ')}`);
      await sleep(100);
    }
  }

  async close(): Promise<void> {
    await this.sql.end();
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
      const probe = await ClusterProbe.open(
        url,
        () => fleet.healthy(),
        (line) => fleet.note(line),
      );
      return new Cluster(url, dir, probe, fleet);
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
    return cli(this.dir, this.url, ['stack', 'create', stack, '-t', `${stack}.yaml`], CLI_MS);
  }

  /** Starts updating the stack to its template with `gen`. */
  update(stack: string, gen: string): Promise<string> {
    return cli(
      this.dir,
      this.url,
      ['stack', 'update', stack, '-t', `${stack}.yaml`, '--parameter', `gen=${gen}`],
      CLI_MS,
    );
  }

  /** Starts deleting the stacks. */
  delete(stacks: readonly string[]): Promise<string> {
    return cli(this.dir, this.url, ['stack', 'delete', ...stacks, '--yes'], CLI_MS);
  }

  /**
   * Fails if the settled stack left anything stuck: a row in progress or locked, work claimed by
   * an engine that is gone.
   */
  async assertNotStuck(stack: string): Promise<void> {
    assertNotStuck(await this.probe.settled(stack), this.fleet.aliveHosts);
  }

  async close(): Promise<void> {
    await this.fleet.stopAll();
    await this.probe.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
