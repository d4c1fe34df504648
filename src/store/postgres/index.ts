import type { Store } from '../contract.js';
import { WORK_CHANNEL } from '../sql/driver.js';
import { migrated, SqlStore } from '../sql/store.js';
import { PostgresDriver, type PostgresOptions } from './driver.js';
import { ChannelListener } from './listener.js';

export { PostgresDriver, type PostgresOptions } from './driver.js';

export interface OpenPostgresOptions extends PostgresOptions {
  /** Bring the schema up to date on open (default true). */
  migrate?: boolean;
}

/**
 * The SQL store on PostgreSQL, plus what only a server database gives: other processes' new work
 * heard through LISTEN/NOTIFY (the listening connection opens with the first listener).
 */
class PostgresStore extends SqlStore {
  private listener: ChannelListener | undefined;
  private listeners = 0;

  constructor(
    private readonly pgDriver: PostgresDriver,
    private readonly onError?: (error: Error) => void,
  ) {
    super(pgDriver);
  }

  override onWork(listener: () => void): () => void {
    if (!this.listener) {
      this.listener = new ChannelListener(this.pgDriver.url, WORK_CHANNEL, {
        onNotify: () => this.workAvailable(),
        ...(this.onError ? { onError: this.onError } : {}),
      });
      this.listener.start();
    }
    this.listeners++;
    const stop = super.onWork(listener);
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      stop();
      // The last one gone: the connection closes (it would keep a finished process alive).
      if (--this.listeners === 0) {
        void this.listener?.stop();
        this.listener = undefined;
      }
    };
  }

  override async close(): Promise<void> {
    await this.listener?.stop();
    await super.close();
  }
}

/** Opens a PostgreSQL store at `url` (postgres://user:password@host:port/database?options). */
export async function openPostgresStore(url: string, options: OpenPostgresOptions = {}): Promise<Store> {
  return migrated(new PostgresStore(new PostgresDriver(url, options), options.onError), options.migrate);
}
