import type { PhysicalObject, Reality } from '../contract.js';

/** A copy, so that neither the caller nor the store can change the other's object. */
function copy(object: PhysicalObject): PhysicalObject {
  return structuredClone(object);
}

/** The objects of one type: by id (in insertion order), and the ids holding each idempotency key. */
interface TypeTable {
  byId: Map<string, PhysicalObject>;
  byKey: Map<string, Set<string>>;
}

/**
 * Physical objects kept in memory: the Reality of tests and of the embedded default. Objects are
 * copied in and out; every lookup is by index, so 100,000 objects cost no more per call than ten.
 * Nothing stops two objects from sharing an idempotency key: keeping a retried create from making
 * a second one is the plugin's job (CountingReality reports it when it fails).
 */
export class MemoryReality implements Reality {
  private readonly tables = new Map<string, TypeTable>();

  async findByKey(type: string, key: string): Promise<PhysicalObject | undefined> {
    const table = this.tables.get(type);
    const ids = table?.byKey.get(key);
    if (table === undefined || ids === undefined) return undefined;
    // The first one made, when (wrongly) there are several.
    for (const id of ids) return copy(table.byId.get(id)!);
    return undefined;
  }

  async get(type: string, id: string): Promise<PhysicalObject | undefined> {
    const object = this.tables.get(type)?.byId.get(id);
    return object === undefined ? undefined : copy(object);
  }

  /** Creates the object, or replaces the one of the same type and id. */
  async put(object: PhysicalObject): Promise<void> {
    let table = this.tables.get(object.type);
    if (table === undefined) this.tables.set(object.type, (table = { byId: new Map(), byKey: new Map() }));
    const previous = table.byId.get(object.id);
    if (previous !== undefined) unindex(table, previous);
    table.byId.set(object.id, copy(object));
    let ids = table.byKey.get(object.key);
    if (ids === undefined) table.byKey.set(object.key, (ids = new Set()));
    ids.add(object.id);
  }

  /** True when there was such an object. */
  async delete(type: string, id: string): Promise<boolean> {
    const table = this.tables.get(type);
    const object = table?.byId.get(id);
    if (table === undefined || object === undefined) return false;
    table.byId.delete(id);
    unindex(table, object);
    if (table.byId.size === 0) this.tables.delete(type);
    return true;
  }

  /** Every object (of one type, when given), for tests and inspection. */
  list(type?: string): PhysicalObject[] {
    const tables = type === undefined ? [...this.tables.values()] : [this.tables.get(type)];
    return tables.flatMap((t) => (t === undefined ? [] : [...t.byId.values()].map(copy)));
  }

  /** How many objects there are. */
  get size(): number {
    let n = 0;
    for (const t of this.tables.values()) n += t.byId.size;
    return n;
  }

  clear(): void {
    this.tables.clear();
  }
}

function unindex(table: TypeTable, object: PhysicalObject): void {
  const ids = table.byKey.get(object.key);
  ids?.delete(object.id);
  if (ids?.size === 0) table.byKey.delete(object.key);
}
