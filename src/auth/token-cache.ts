/**
 * Answers about tokens kept until a deadline each, keyed by a hash of the token, at most `capacity`
 * of them (the oldest go first: a flood of made-up tokens cannot grow it without bound). A lookup
 * already in flight for a token is shared by every request that asks for it meanwhile.
 */
export class TokenCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(
    private readonly now: () => number,
    private readonly capacity = 10_000,
  ) {}

  /**
   * The cached answer for `key`, else `load`'s; `keepUntil` says until when an answer may be reused
   * (not at all when not after now). A failing load is not cached.
   */
  async get(key: string, load: () => Promise<T>, keepUntil: (value: T, now: number) => number): Promise<T> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      if (cached.until > this.now()) return cached.value;
      this.entries.delete(key);
    }
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const loading = load().then((value) => {
      const now = this.now();
      const until = keepUntil(value, now);
      if (until > now) this.remember(key, value, until);
      return value;
    });
    this.inFlight.set(key, loading);
    try {
      return await loading;
    } finally {
      this.inFlight.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(key: string, value: T, until: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
