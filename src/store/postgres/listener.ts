import pg from 'pg';

export interface ListenerOptions {
  /** Called for each notification, and after each reconnection (notifications may have been missed). */
  onNotify: () => void;
  onError?: (error: Error) => void;
  /** Longest wait between two reconnection attempts (ms). */
  maxBackoffMs?: number;
}

/**
 * A connection that LISTENs on one channel, reconnecting with exponential backoff when the
 * database goes away. Notifications are hints: missing some while disconnected only costs the
 * engine's slower poll, and a reconnection counts as one.
 */
export class ChannelListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private backoffMs = 50;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly options: ListenerOptions,
  ) {}

  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    client.on('notification', () => this.options.onNotify());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.backoffMs = 50;
      this.options.onNotify();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    if (error) this.options.onError?.(error);
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.options.maxBackoffMs ?? 5000, this.backoffMs * 2);
    this.timer = setTimeout(() => void this.connect(), wait);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => undefined);
    }
  }
}
