/**
 * Per-endpoint rate limits for the calls Hearth makes to a cloud: one token bucket per service
 * endpoint (its base URL, e.g. a region's compute endpoint). A request waits for a token, without
 * blocking the event loop, and waiting requests get theirs in the order they asked. The rate is
 * this process's share of the deployment's limit: the engine sets it (`setShare`) as engines come
 * and go, so the openstack layer never needs to know about engines.
 */

/** Time for the buckets: the real one, or a fake stepped by hand in tests. */
export interface RateClock {
  now(): number;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const SYSTEM_RATE_CLOCK: RateClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const timer = setTimeout(fn, ms);
    // A pending wait must not keep a finished command alive; its caller's promise does that.
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** What the engine pushes into the limiter: its share of the deployment's limit. */
export interface CloudRateShare {
  /**
   * Requests per second allowed to each endpoint (0: unlimited) and the most that may be sent at
   * once after a quiet spell (at least 1 is used).
   */
  setShare(perSecond: number, burst: number): void;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** Tokens shy of a whole one by less than this count as whole (floating point refills). */
const EPSILON = 1e-9;

/** One endpoint's bucket: `perSecond` tokens a second, holding at most `burst`. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private readonly queue: Waiter[] = [];
  private cancelTimer: (() => void) | undefined;

  constructor(
    private perSecond: number,
    private burst: number,
    private readonly clock: RateClock = SYSTEM_RATE_CLOCK,
  ) {
    this.burst = Math.max(1, burst);
    this.tokens = this.burst;
    this.updatedAt = clock.now();
  }

  /** Requests waiting for a token. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Resolves when a token is this caller's; rejects with the signal's reason if it aborts first. */
  take(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.perSecond <= 0) return Promise.resolve();
    this.refill();
    if (this.queue.length === 0 && this.tokens >= 1 - EPSILON) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
      this.schedule();
    });
  }

  /** A new rate and burst; what was earned at the old rate is kept (up to the new burst). */
  setRate(perSecond: number, burst: number): void {
    this.refill();
    this.perSecond = perSecond;
    this.burst = Math.max(1, burst);
    this.tokens = Math.min(this.tokens, this.burst);
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.release();
  }

  private refill(): void {
    const now = this.clock.now();
    if (this.perSecond > 0) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) * this.perSecond) / 1000);
    }
    this.updatedAt = now;
  }

  /** Hands tokens to the waiters at the head of the queue, then waits for the next token. */
  private release(): void {
    this.refill();
    while (this.queue.length > 0 && (this.perSecond <= 0 || this.tokens >= 1 - EPSILON)) {
      if (this.perSecond > 0) this.tokens -= 1;
      const waiter = this.queue.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.resolve();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.cancelTimer || this.queue.length === 0 || this.perSecond <= 0) return;
    const ms = Math.max(0, Math.ceil(((1 - this.tokens) * 1000) / this.perSecond));
    this.cancelTimer = this.clock.setTimer(() => {
      this.cancelTimer = undefined;
      this.release();
    }, ms);
  }
}

export interface RateLimitOptions {
  /** Requests per second to each endpoint; 0 (the default) is unlimited. */
  perSecond?: number;
  /** The most requests sent at once after a quiet spell (default: one second's worth). */
  burst?: number;
  clock?: RateClock;
}

/** The buckets of every endpoint a process calls, all at the same rate. */
export class RateLimits implements CloudRateShare {
  private readonly buckets = new Map<string, TokenBucket>();
  private perSecond: number;
  private burst: number;
  private readonly clock: RateClock;

  constructor(options: RateLimitOptions = {}) {
    this.perSecond = options.perSecond ?? 0;
    this.burst = options.burst ?? this.perSecond;
    this.clock = options.clock ?? SYSTEM_RATE_CLOCK;
  }

  /** The current rate per endpoint (0: unlimited) and burst. */
  get share(): { perSecond: number; burst: number } {
    return { perSecond: this.perSecond, burst: Math.max(1, this.burst) };
  }

  setShare(perSecond: number, burst: number): void {
    if (perSecond === this.perSecond && burst === this.burst) return;
    this.perSecond = perSecond;
    this.burst = burst;
    for (const bucket of this.buckets.values()) bucket.setRate(perSecond, burst);
  }

  /** Waits for a token of `endpoint`'s bucket (at once when unlimited). */
  take(endpoint: string, signal?: AbortSignal): Promise<void> {
    if (this.perSecond <= 0 && !this.buckets.has(endpoint)) {
      return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    }
    let bucket = this.buckets.get(endpoint);
    if (!bucket) {
      bucket = new TokenBucket(this.perSecond, this.burst, this.clock);
      this.buckets.set(endpoint, bucket);
    }
    return bucket.take(signal);
  }
}
