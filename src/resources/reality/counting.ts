import type { PhysicalObject, Reality } from '../contract.js';

/** One call that reaches the reality, as hooks see it. */
export type RealityOperation =
  | { kind: 'findByKey'; type: string; key: string }
  | { kind: 'get'; type: string; id: string }
  | { kind: 'put'; type: string; id: string; key: string }
  | { kind: 'delete'; type: string; id: string };

export interface CountingHooks {
  /** Runs before the call reaches the inner reality; a throw stops it (a crash before the call). */
  before?(op: RealityOperation): void | Promise<void>;
  /** Runs after the call took effect; a throw loses its result (a crash after the call). */
  after?(op: RealityOperation): void | Promise<void>;
}

/** Calls per type. */
export interface TypeCounts {
  /** Puts of an id not live before. */
  creates: number;
  /** Puts of a live id. */
  updates: number;
  /** Deletes that removed an object. */
  deletes: number;
  /** Deletes of an object that was not there (success for an idempotent delete, but worth knowing). */
  deleteMisses: number;
  /** Creates that gave an idempotency key a second live object. */
  duplicateCreates: number;
}

/** Two or more live objects sharing a type and an idempotency key: a create that was not idempotent. */
export interface Duplicate {
  type: string;
  key: string;
  ids: string[];
}

/** A live object, as the counting wrapper saw it created. */
export interface LiveObject {
  type: string;
  id: string;
  key: string;
}

/** The live objects of one type: their keys by id, and how many live objects hold each key. */
interface LiveTable {
  byId: Map<string, string>;
  keyCount: Map<string, number>;
}

function uncount(table: LiveTable, key: string): void {
  const n = (table.keyCount.get(key) ?? 1) - 1;
  if (n > 0) table.keyCount.set(key, n);
  else table.keyCount.delete(key);
}

const ZERO: TypeCounts = { creates: 0, updates: 0, deletes: 0, deleteMisses: 0, duplicateCreates: 0 };

/**
 * Wraps a Reality and counts, per type, the objects created and deleted through it, and reports
 * duplicates (two live objects with one idempotency key) and leaks (live objects nobody expects).
 * It knows the objects that went through it: wrap a reality before anything is created in it.
 * Hooks run around every call, so crash tests can fail a call before or after it takes effect.
 */
export class CountingReality implements Reality {
  private readonly counts = new Map<string, TypeCounts>();
  /** By type: every object created through this wrapper and not deleted. */
  private readonly live = new Map<string, LiveTable>();

  constructor(
    readonly inner: Reality,
    private readonly hooks: CountingHooks = {},
  ) {}

  async findByKey(type: string, key: string): Promise<PhysicalObject | undefined> {
    return this.around({ kind: 'findByKey', type, key }, () => this.inner.findByKey(type, key));
  }

  async get(type: string, id: string): Promise<PhysicalObject | undefined> {
    return this.around({ kind: 'get', type, id }, () => this.inner.get(type, id));
  }

  async put(object: PhysicalObject): Promise<void> {
    const { type, id, key } = object;
    await this.around({ kind: 'put', type, id, key }, async () => {
      await this.inner.put(object);
      let table = this.live.get(type);
      if (table === undefined) this.live.set(type, (table = { byId: new Map(), keyCount: new Map() }));
      const counts = this.countsOf(type);
      const previousKey = table.byId.get(id);
      if (previousKey === undefined) counts.creates++;
      else counts.updates++;
      if (previousKey !== key) {
        if (previousKey !== undefined) uncount(table, previousKey);
        const n = (table.keyCount.get(key) ?? 0) + 1;
        table.keyCount.set(key, n);
        if (n > 1) counts.duplicateCreates++;
        table.byId.set(id, key);
      }
    });
  }

  async delete(type: string, id: string): Promise<boolean> {
    return this.around({ kind: 'delete', type, id }, async () => {
      const removed = await this.inner.delete(type, id);
      const counts = this.countsOf(type);
      if (removed) counts.deletes++;
      else counts.deleteMisses++;
      const table = this.live.get(type);
      const key = table?.byId.get(id);
      if (table !== undefined && key !== undefined) {
        table.byId.delete(id);
        uncount(table, key);
      }
      return removed;
    });
  }

  /** The counts of one type, or summed over every type. */
  stats(type?: string): TypeCounts {
    if (type !== undefined) return { ...(this.counts.get(type) ?? ZERO) };
    const total = { ...ZERO };
    for (const c of this.counts.values()) {
      for (const k of Object.keys(total) as (keyof TypeCounts)[]) total[k] += c[k];
    }
    return total;
  }

  /** The counts of every type that was touched, by type. */
  statsByType(): Record<string, TypeCounts> {
    const out: Record<string, TypeCounts> = {};
    for (const [type, c] of [...this.counts].sort(([a], [b]) => a.localeCompare(b))) out[type] = { ...c };
    return out;
  }

  creates(type?: string): number {
    return this.stats(type).creates;
  }

  deletes(type?: string): number {
    return this.stats(type).deletes;
  }

  /** Live objects (of one type, when given). */
  liveObjects(type?: string): LiveObject[] {
    const out: LiveObject[] = [];
    for (const [t, table] of this.live) {
      if (type !== undefined && t !== type) continue;
      for (const [id, key] of table.byId) out.push({ type: t, id, key });
    }
    return out;
  }

  /** Every idempotency key that has more than one live object of its type. */
  duplicates(): Duplicate[] {
    const out: Duplicate[] = [];
    for (const [type, table] of this.live) {
      const byKey = new Map<string, string[]>();
      for (const [id, key] of table.byId) {
        if (table.keyCount.get(key)! < 2) continue;
        const ids = byKey.get(key);
        if (ids === undefined) byKey.set(key, [id]);
        else ids.push(id);
      }
      for (const [key, ids] of byKey) if (ids.length > 1) out.push({ type, key, ids });
    }
    return out;
  }

  /** Live objects whose ids are not among `expected` (e.g. the physical ids the store knows). */
  leaks(expected: Iterable<string> = []): LiveObject[] {
    const known = new Set(expected);
    return this.liveObjects().filter((o) => !known.has(o.id));
  }

  /** One line per problem (duplicates, then leaks), empty when there is none. */
  problems(expected: Iterable<string> = []): string[] {
    return [
      ...this.duplicates().map((d) => `duplicate: ${d.type} key ${d.key} has ${d.ids.join(', ')}`),
      ...this.leaks(expected).map((o) => `leak: ${o.type} ${o.id} (key ${o.key})`),
    ];
  }

  /** Forgets the counts (the live objects stay known). */
  resetCounts(): void {
    this.counts.clear();
  }

  private countsOf(type: string): TypeCounts {
    let c = this.counts.get(type);
    if (c === undefined) this.counts.set(type, (c = { ...ZERO }));
    return c;
  }

  private async around<T>(op: RealityOperation, call: () => Promise<T>): Promise<T> {
    await this.hooks.before?.(op);
    const result = await call();
    await this.hooks.after?.(op);
    return result;
  }
}
