/**
 * Drives the real `hearth` CLI in child processes against one embedded SQLite state file, killing
 * them with SIGKILL at chosen moments, and checks the converged result against the template and
 * against the physical objects TestResource keeps in `<db>.reality`.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { BigTemplate } from './template.js';
import { TEST_RESOURCE } from './template.js';
import { hearthNodeArgs } from '../support/hearth-command.js';

/** Short leases and heartbeats, so a restarted engine takes over a killed one's work quickly. */
export const CHILD_ENV: Record<string, string> = {
  HEARTH_WORK_LEASE_MS: '1500',
  HEARTH_HEARTBEAT_INTERVAL_MS: '300',
};

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A running `hearth` child process. */
export class Child {
  readonly process: ChildProcess;
  readonly exited: Promise<Exit>;
  private stdout = '';
  private stderr = '';
  private done = false;

  constructor(
    readonly args: string[],
    dir: string,
    db: string,
    extraEnv: Record<string, string> = {},
    /** Modules preloaded into the child (test-only instrumentation). */
    preload: readonly string[] = [],
  ) {
    // Only our HEARTH_* settings: the configuration loader rejects unknown ones, and HEARTH_DB,
    // HEARTH_CONFIG or HEARTH_URL from the caller's shell must not redirect the children.
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of Object.keys(env))
      if (name.startsWith('HEARTH_') || name === 'NODE_TEST_CONTEXT') delete env[name];
    Object.assign(env, CHILD_ENV, extraEnv);
    const started = Date.now();
    this.process = spawn(process.execPath, [...hearthNodeArgs(preload), '--db', db, ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Keep the tails only (a --wait run prints a line per resource transition; 4 MB is plenty).
    this.process.stdout!.on('data', (chunk: Buffer) => (this.stdout = tail(this.stdout + chunk.toString())));
    this.process.stderr!.on('data', (chunk: Buffer) => (this.stderr = tail(this.stderr + chunk.toString())));
    this.exited = new Promise((res) =>
      this.process.on('close', (code, signal) => {
        this.done = true;
        res({ code, signal, stdout: this.stdout, stderr: this.stderr, ms: Date.now() - started });
      }),
    );
  }

  get running(): boolean {
    return !this.done;
  }

  /** What it has printed so far (the tails): stdout, then stderr. */
  get output(): string {
    return this.stdout + this.stderr;
  }

  kill(): void {
    if (this.running) this.process.kill('SIGKILL');
  }
}

function tail(text: string): string {
  return text.length > 4_000_000 ? text.slice(-4_000_000) : text;
}

/**
 * A read-only look at the state file, only to time kills (progress) and to explain a failure. The
 * assertions themselves go through the CLI, except "no lock left held", which the CLI does not show.
 */
export class StateProbe {
  private db: Database.Database | undefined;

  constructor(private readonly path: string) {}

  private open(): Database.Database | undefined {
    if (this.db) return this.db;
    if (!existsSync(this.path)) return undefined;
    try {
      this.db = new Database(this.path, { readonly: true, fileMustExist: true, timeout: 5000 });
    } catch {
      return undefined; // still being created by a child: try again later
    }
    return this.db;
  }

  /**
   * Runs a query; before the first child has created the schema, an empty answer. Any other error
   * (a renamed column, say) fails the test rather than make a check pass on nothing.
   */
  private all<T>(sql: string, ...params: unknown[]): T[] {
    const db = this.open();
    if (!db) return [];
    try {
      return db.prepare(sql).all(...params) as T[];
    } catch (err) {
      if (/no such table/.test((err as Error).message)) return [];
      throw err;
    }
  }

  /** How many events were recorded: a measure of progress that keeps growing across restarts. */
  events(): number {
    return this.all<{ n: number }>('SELECT COUNT(*) AS n FROM events')[0]?.n ?? 0;
  }

  /** The stack's `ACTION_STATUS` and current traversal; undefined while it does not exist. */
  stack(name: string): { status: string | undefined; traversal: string | undefined } {
    const [row] = this.all<{ action: string; status: string; traversal_id: string }>(
      'SELECT action, status, traversal_id FROM stacks WHERE name = ?',
      name,
    );
    return { status: row ? `${row.action}_${row.status}` : undefined, traversal: row?.traversal_id };
  }

  /** The queued graph units (kind check): node, and the inputs each carries (JSON) or null. */
  queuedUnits(): { node: string; inputs: string | null }[] {
    return this.all("SELECT node, inputs FROM work WHERE kind = 'check' ORDER BY id");
  }

  /** Names of the resources created so far (rows CREATE_COMPLETE). */
  completeNames(): string[] {
    return this.all<{ name: string }>(
      "SELECT name FROM resources WHERE action = 'CREATE' AND status = 'COMPLETE'",
    ).map((r) => r.name);
  }

  /** Resource rows still holding a lock (engine_id set). */
  lockedRows(): { id: number; name: string; action: string; status: string; engine_id: string }[] {
    return this.all('SELECT id, name, action, status, engine_id FROM resources WHERE engine_id IS NOT NULL');
  }

  /** Resource rows whose operation is in progress, with the unit holding them and its progress. */
  inProgress(): {
    id: number;
    uuid: string;
    name: string;
    action: string;
    engine_id: string | null;
    progress: string | null;
  }[] {
    return this.all(
      "SELECT id, uuid, name, action, engine_id, progress FROM resources WHERE status = 'IN_PROGRESS' ORDER BY id",
    );
  }

  /** A summary of what is left in flight, for failure messages (never failing itself). */
  diagnostics(): string {
    const safe = (sql: string) => {
      try {
        return this.all(sql);
      } catch (err) {
        return (err as Error).message;
      }
    };
    const stacks = safe('SELECT name, action, status, reason, traversal_id FROM stacks');
    const busy = safe(
      `SELECT id, uuid, name, action, status, reason, physical_id, replaces, replaced_by, engine_id
       FROM resources WHERE status <> 'COMPLETE' OR engine_id IS NOT NULL OR replaced_by IS NOT NULL
       ORDER BY id LIMIT 40`,
    );
    const work = safe('SELECT * FROM work ORDER BY id LIMIT 40');
    const services = safe('SELECT * FROM services');
    return JSON.stringify({ stacks, busy, work, services }, null, 1);
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }
}

/** A physical object as SqliteReality stores it. */
export interface PhysicalObject {
  id: string;
  key: string;
  type: string;
  properties: Record<string, unknown>;
  status: string;
}

export function realityObjects(db: string): PhysicalObject[] {
  const path = `${db}.reality`;
  if (!existsSync(path)) return [];
  const reality = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = reality.prepare('SELECT type, id, key, body FROM reality_objects ORDER BY rowid').all() as {
      type: string;
      id: string;
      key: string;
      body: string;
    }[];
    return rows.map((r) => {
      const body = JSON.parse(r.body) as PhysicalObject;
      assert.equal(body.id, r.id, `reality row ${r.id}: body id ${body.id}`);
      assert.equal(body.key, r.key, `reality row ${r.id}: body key ${body.key}`);
      return body;
    });
  } finally {
    reality.close();
  }
}

interface ResourceView {
  resource_name: string;
  physical_resource_id: string;
  resource_type: string;
  resource_status: string;
}

/** Runs a CLI command to completion (no kill), failing on a non-zero exit. */
export async function cli(dir: string, db: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const child = new Child(args, dir, db);
  const timer = setTimeout(() => child.kill(), timeoutMs);
  const exit = await child.exited;
  clearTimeout(timer);
  assert.equal(
    exit.code,
    0,
    `hearth ${args.join(' ')} exited ${exit.code ?? exit.signal} after ${exit.ms} ms\n${exit.stderr}`,
  );
  return exit.stdout;
}

/** What a converged stack is checked on, however it was read (the CLI, or the store itself). */
export interface ObservedStack {
  /** `ACTION_STATUS`. */
  status: string;
  reason: string;
  /** Output values by key; not checked when absent. */
  outputs?: Map<string, unknown>;
  resources: {
    name: string;
    physicalId: string | null;
    /** `ACTION_STATUS`. */
    status: string;
    /** The `value` property the row was last converged with; not checked when absent. */
    value?: unknown;
  }[];
  /** Every physical object of the fake cloud. */
  objects: PhysicalObject[];
  /** Resource rows still holding a lock. */
  locked: unknown[];
}

/**
 * Everything a converged stack must satisfy: COMPLETE with the template's resources, every one
 * COMPLETE; one live physical object per resource carrying the template's value; no two objects
 * with the same idempotency key (a duplicate); no object no resource points at (a leak); no lock
 * left held. Returns the physical id of each resource.
 */
export function checkObserved(
  observed: ObservedStack,
  template: BigTemplate,
  gen: string,
  action: 'CREATE' | 'UPDATE',
): Map<string, string> {
  const expected = template.expected(gen);
  assert.equal(observed.status, `${action}_COMPLETE`, observed.reason);
  if (observed.outputs) {
    for (const [key, name] of template.outputs)
      assert.equal(observed.outputs.get(key), expected.get(name), `output ${key}`);
  }

  const rows = observed.resources;
  assert.deepEqual(
    rows.map((r) => r.name).sort(),
    [...template.names].sort(),
    'exactly one resource row per template resource',
  );
  const incomplete = rows.filter((r) => !/^(CREATE|UPDATE)_COMPLETE$/.test(r.status));
  assert.deepEqual(incomplete, [], 'every resource is CREATE_COMPLETE or UPDATE_COMPLETE');
  const stale = rows.filter((r) => 'value' in r && r.value !== expected.get(r.name));
  assert.deepEqual(stale, [], 'resources whose recorded value is not the template one');
  const physical = new Map(rows.map((r) => [r.name, r.physicalId ?? '']));
  const owner = new Map(rows.map((r) => [r.physicalId, r.name]));
  assert.equal(owner.size, rows.length, 'no two resources share a physical id');

  const { objects } = observed;
  const byKey = new Map<string, PhysicalObject[]>();
  for (const o of objects) byKey.set(`${o.type} ${o.key}`, [...(byKey.get(`${o.type} ${o.key}`) ?? []), o]);
  const duplicates = [...byKey.values()].filter((list) => list.length > 1);
  assert.deepEqual(duplicates, [], 'duplicates: live objects sharing an idempotency key');
  const leaks = objects.filter((o) => !owner.has(o.id));
  assert.deepEqual(leaks, [], 'leaks: live objects no resource points at');
  const ids = new Set(objects.map((o) => o.id));
  const missing = rows.filter((r) => r.physicalId === null || !ids.has(r.physicalId));
  assert.deepEqual(missing, [], 'resources whose physical object is gone');
  const wrong = objects
    .filter((o) => o.type !== TEST_RESOURCE || o.properties.value !== expected.get(owner.get(o.id)!))
    .map((o) => ({ resource: owner.get(o.id), id: o.id, type: o.type, value: o.properties.value }));
  assert.deepEqual(wrong, [], 'objects whose value is not the template one');
  assert.equal(objects.length, template.names.length);
  assert.deepEqual(observed.locked, [], 'no resource lock left held');
  return physical;
}

/** Updated in place keeps the physical object; `update_replace_value` makes a new one. */
export function checkReplacements(
  template: BigTemplate,
  before: Map<string, string>,
  after: Map<string, string>,
): void {
  for (const name of template.names) {
    if (template.replaced.has(name)) assert.notEqual(after.get(name), before.get(name), `${name} replaced`);
    else assert.equal(after.get(name), before.get(name), `${name} updated in place`);
  }
}

/** checkObserved on what the CLI shows of the stack and the state file holds. */
export async function checkConverged(
  dir: string,
  db: string,
  stackName: string,
  template: BigTemplate,
  gen: string,
  action: 'CREATE' | 'UPDATE',
): Promise<Map<string, string>> {
  const shown = JSON.parse(await cli(dir, db, ['stack', 'show', stackName, '-f', 'json'])) as {
    stack_status: string;
    stack_status_reason: string;
    outputs: { output_key: string; output_value: unknown }[];
  };
  const rows = JSON.parse(
    await cli(dir, db, ['stack', 'resource', 'list', stackName, '-f', 'json']),
  ) as ResourceView[];
  const probe = new StateProbe(db);
  try {
    return checkObserved(
      {
        status: shown.stack_status,
        reason: shown.stack_status_reason,
        outputs: new Map(shown.outputs.map((o) => [o.output_key, o.output_value])),
        resources: rows.map((r) => ({
          name: r.resource_name,
          physicalId: r.physical_resource_id,
          status: r.resource_status,
        })),
        objects: realityObjects(db),
        locked: probe.lockedRows(),
      },
      template,
      gen,
      action,
    );
  } finally {
    probe.close();
  }
}

/** A deleted stack: not found any more, and not one physical object left behind (a leak). */
export async function checkDeleted(dir: string, db: string, stackName: string): Promise<void> {
  assert.equal(await cli(dir, db, ['stack', 'list', '-f', 'value']), '', 'no stack listed');
  const shown = new Child(['stack', 'show', stackName], dir, db);
  const exit = await shown.exited;
  assert.equal(exit.code, 1, `stack show after the delete: ${exit.stdout}${exit.stderr}`);
  assert.match(exit.stderr, /not found/);
  assert.deepEqual(realityObjects(db), [], 'leaks: physical objects left by the delete');
  const probe = new StateProbe(db);
  try {
    assert.deepEqual(probe.lockedRows(), [], 'no resource lock left held');
  } finally {
    probe.close();
  }
}

export const stateFile = (dir: string) => join(dir, 'state.db');
