import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An async mutex: better-sqlite3 runs statements synchronously, but a transaction spans awaits,
 * so without it another task's statements would run inside an open transaction.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  /** The token of the section running now, to recognise re-entry from inside it. */
  private holder: object | null = null;

  /** Whether the caller runs inside this mutex's current section (waiting would deadlock). */
  isHeldByCaller(): boolean {
    return this.holder !== null && insideSection.getStore() === this.holder;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.holder !== null && insideSection.getStore() === this.holder) {
      // Waiting for ourselves would never end.
      return Promise.reject(new Error('a store transaction is already open in this call chain (nested tx)'));
    }
    const section = async () => {
      const token = {};
      this.holder = token;
      try {
        return await insideSection.run(token, fn);
      } finally {
        this.holder = null;
      }
    };
    const result = this.tail.then(section, section);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

const insideSection = new AsyncLocalStorage<object>();

/**
 * One mutex per database file in this process: two stores on one file must queue in memory,
 * not in SQLite's busy handler — it sleeps synchronously, blocking the event loop that the
 * other store needs in order to commit.
 */
const byFile = new Map<string, { mutex: Mutex; users: number }>();

export function mutexForFile(path: string | null): { mutex: Mutex; release: () => void } {
  if (path === null) return { mutex: new Mutex(), release: () => {} };
  let entry = byFile.get(path);
  if (!entry) byFile.set(path, (entry = { mutex: new Mutex(), users: 0 }));
  entry.users++;
  const shared = entry;
  let released = false;
  return {
    mutex: shared.mutex,
    release: () => {
      if (released) return;
      released = true;
      if (--shared.users === 0) byFile.delete(path);
    },
  };
}
