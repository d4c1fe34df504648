import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type RateClock, RateLimits, TokenBucket } from '../../src/openstack/rate-limit.js';

/** A clock stepped by hand: timers fire, in order, only as `advance` passes their time. */
class FakeRateClock implements RateClock {
  ms = 1_000_000;
  private timers: { at: number; fn: () => void }[] = [];

  now = (): number => this.ms;

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.ms + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  async advance(ms: number): Promise<void> {
    const end = this.ms + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.ms = Math.max(this.ms, due.at);
      due.fn();
      await settle();
    }
    this.ms = end;
    await settle();
  }
}

/** Lets resolved promises run their callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Takes a token now; returns a log that records when (fake ms) each take was granted. */
function taker(clock: FakeRateClock, take: (signal?: AbortSignal) => Promise<void>) {
  const granted: { name: string; at: number }[] = [];
  const start = (name: string, signal?: AbortSignal) =>
    take(signal).then(
      () => void granted.push({ name, at: clock.ms }),
      (error: unknown) => void granted.push({ name: `${name}:${(error as Error).message}`, at: clock.ms }),
    );
  return { granted, start };
}

describe('token bucket', () => {
  it('lets a burst through at once, then one request per 1/rate', async () => {
    const clock = new FakeRateClock();
    const bucket = new TokenBucket(10, 3, clock);
    const t0 = clock.ms;
    const { granted, start } = taker(clock, (s) => bucket.take(s));
    for (const name of ['a', 'b', 'c', 'd', 'e']) void start(name);
    await settle();
    assert.deepEqual(
      granted.map((g) => g.name),
      ['a', 'b', 'c'],
    );
    await clock.advance(99);
    assert.equal(granted.length, 3, 'no token before 100 ms at 10/s');
    await clock.advance(1);
    assert.deepEqual(granted.at(-1), { name: 'd', at: t0 + 100 });
    await clock.advance(100);
    assert.deepEqual(granted.at(-1), { name: 'e', at: t0 + 200 });
    assert.equal(bucket.waiting, 0);
    assert.equal(clock.pendingTimers, 0, 'an empty queue leaves no timer behind');
  });

  it('refills while idle, but never beyond the burst', async () => {
    const clock = new FakeRateClock();
    const bucket = new TokenBucket(10, 2, clock);
    await bucket.take();
    await bucket.take();
    await clock.advance(10_000); // 100 tokens' worth of time
    const { granted, start } = taker(clock, (s) => bucket.take(s));
    for (const name of ['a', 'b', 'c']) void start(name);
    await settle();
    assert.deepEqual(
      granted.map((g) => g.name),
      ['a', 'b'],
    );
    await clock.advance(50);
    // Half a token earned: still waiting.
    assert.equal(granted.length, 2);
    await clock.advance(50);
    assert.equal(granted.length, 3);
  });

  it('serves waiters in the order they asked, a late caller behind them even when a token is due', async () => {
    const clock = new FakeRateClock();
    const bucket = new TokenBucket(4, 1, clock);
    const { granted, start } = taker(clock, (s) => bucket.take(s));
    for (const name of ['first', 'w1', 'w2', 'w3']) void start(name);
    await settle();
    // The event loop is late: a token is due before the timer that hands it out has run. The
    // caller arriving now must not take it from w1.
    clock.ms += 260;
    void start('late');
    await clock.advance(0);
    await clock.advance(750);
    assert.deepEqual(
      granted.map((g) => [g.name, g.at - 1_000_000]),
      [
        ['first', 0],
        ['w1', 260],
        ['w2', 510],
        ['w3', 760],
        ['late', 1010],
      ],
    );
  });

  it('drops a waiter whose request is cancelled; the ones behind move up', async () => {
    const clock = new FakeRateClock();
    const bucket = new TokenBucket(10, 1, clock);
    await bucket.take();
    const cancel = new AbortController();
    const { granted, start } = taker(clock, (s) => bucket.take(s));
    void start('a', cancel.signal);
    void start('b');
    cancel.abort(new Error('cancelled'));
    await settle();
    assert.deepEqual(
      granted.map((g) => g.name),
      ['a:cancelled'],
    );
    await clock.advance(100);
    assert.deepEqual(
      granted.map((g) => g.name),
      ['a:cancelled', 'b'],
    );
  });

  it('applies a new share at once to those already waiting: slower, faster, or unlimited', async () => {
    const clock = new FakeRateClock();
    const bucket = new TokenBucket(10, 1, clock);
    const t0 = clock.ms;
    await bucket.take();
    const { granted, start } = taker(clock, (s) => bucket.take(s));
    for (const name of ['a', 'b', 'c', 'd', 'e']) void start(name);
    await clock.advance(50);
    // Another engine came: half the rate. The half token earned so far is kept.
    bucket.setRate(5, 1);
    await clock.advance(99);
    assert.equal(granted.length, 0, 'at 5/s the first token comes 150 ms in');
    await clock.advance(1);
    assert.deepEqual(granted.at(-1), { name: 'a', at: t0 + 150 });
    // It left: the rate doubles for the next one.
    bucket.setRate(20, 1);
    await clock.advance(50);
    assert.deepEqual(granted.at(-1), { name: 'b', at: t0 + 200 });
    // The limit is lifted: everyone waiting goes at once.
    bucket.setRate(0, 0);
    await settle();
    assert.deepEqual(
      granted.map((g) => g.name),
      ['a', 'b', 'c', 'd', 'e'],
    );
    assert.equal(clock.pendingTimers, 0);
  });
});

describe('rate limits per endpoint', () => {
  it('keeps one bucket per endpoint: a busy endpoint does not hold up another', async () => {
    const clock = new FakeRateClock();
    const limits = new RateLimits({ perSecond: 2, burst: 1, clock });
    const compute = 'https://cloud.example/compute/v2.1';
    const network = 'https://cloud.example/network/v2.0';
    const granted: { name: string }[] = [];
    const via = (endpoint: string, name: string) =>
      limits.take(endpoint).then(() => void granted.push({ name }));
    void via(compute, 'c1');
    void via(compute, 'c2');
    void via(network, 'n1');
    await settle();
    assert.deepEqual(
      granted.map((g) => g.name),
      ['c1', 'n1'],
    );
    await clock.advance(500);
    assert.deepEqual(
      granted.map((g) => g.name),
      ['c1', 'n1', 'c2'],
    );
  });

  it('is unlimited at 0, and setShare reaches buckets made before and after', async () => {
    const clock = new FakeRateClock();
    const limits = new RateLimits({ clock });
    for (let i = 0; i < 100; i++) await limits.take('https://a.example');
    assert.deepEqual(limits.share, { perSecond: 0, burst: 1 });

    limits.setShare(1, 1);
    await limits.take('https://a.example');
    await limits.take('https://b.example');
    let second = false;
    void limits.take('https://b.example').then(() => (second = true));
    await clock.advance(999);
    assert.equal(second, false);
    await clock.advance(1);
    assert.equal(second, true);
  });
});
