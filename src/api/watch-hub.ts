import type { Store } from '../store/contract.js';

/** How often the hub looks for new events while anyone watches (one query per watched stack). */
export const WATCH_TICK_MS = 500;

/** What a watcher is told on each tick that found something of its stack. */
export interface WatchTick {
  /** The stack's rows may have changed: new events were recorded, or work ran. */
  readonly changed: boolean;
}

type Wake = (tick: WatchTick) => Promise<void>;

/**
 * The live console's source of change, shared by every watch stream of one API process: while
 * anyone watches, it wakes each stream's reader on a tick (one indexed read of the newest event
 * id per watched stack, whatever the number of streams), and at once when the store says work
 * was enqueued (on PostgreSQL that is LISTEN/NOTIFY, so an engine in another process wakes it
 * too). Browsers never poll: the server does, cheaply, and only while a stream is open.
 */
export class WatchHub {
  private readonly streams = new Map<string, Set<Wake>>();
  private readonly latest = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running = false;
  private again = false;
  private workSeen = false;

  constructor(
    private readonly store: Store,
    private readonly tickMs: number = WATCH_TICK_MS,
  ) {}

  /** Calls `wake` on ticks until the returned function is called. */
  watch(stackId: string, wake: Wake): () => void {
    let set = this.streams.get(stackId);
    if (!set) this.streams.set(stackId, (set = new Set()));
    set.add(wake);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs);
      this.timer.unref();
      this.unsubscribe = this.store.onWork(() => {
        this.workSeen = true;
        this.tick();
      });
    }
    return () => {
      set.delete(wake);
      if (set.size === 0) {
        this.streams.delete(stackId);
        this.latest.delete(stackId);
      }
      if (this.streams.size === 0) this.close();
    };
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** One pass at a time; a wake-up during a pass runs another after it. */
  private tick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pass()
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.tick();
        }
      });
  }

  private async pass(): Promise<void> {
    const work = this.workSeen;
    this.workSeen = false;
    const ids = [...this.streams.keys()];
    if (ids.length === 0) return;
    const newest = await this.store.read(async (tx) => {
      const out: number[] = [];
      for (const id of ids) out.push(await tx.events.latestId(id));
      return out;
    });
    for (const [i, id] of ids.entries()) {
      const changed = work || newest[i] !== this.latest.get(id);
      this.latest.set(id, newest[i]!);
      if (!changed) continue;
      for (const wake of this.streams.get(id) ?? []) await wake({ changed });
    }
  }
}
