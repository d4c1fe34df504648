import type { FastifyReply, FastifyRequest } from 'fastify';
import { heatErrorBody } from './errors.js';

/** Projects whose buckets are kept; past it, full buckets (as good as new) go first, then the least recent. */
const MAX_TRACKED_PROJECTS = 10_000;

interface Bucket {
  tokens: number;
  /** When `tokens` was last worked out, in ms of `now`. */
  at: number;
}

/**
 * A token bucket per project: `ratePerSecond` tokens a second, at most `burst` in hand. Memory is
 * bounded: a bucket that has refilled is the same as none, so it is dropped when the table is full.
 */
export class ProjectRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxTracked = MAX_TRACKED_PROJECTS,
  ) {}

  /** Takes a token for `project`: 0 when it had one, else the seconds until it will. */
  take(project: string): number {
    const now = this.now();
    const bucket = this.buckets.get(project) ?? { tokens: this.burst, at: now };
    this.refill(bucket, now);
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(project);
    this.buckets.set(project, bucket);
    if (this.buckets.size > this.maxTracked) this.shrink(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return (1 - bucket.tokens) / this.ratePerSecond;
  }

  /** Projects with a bucket (tests check that it stays bounded). */
  get tracked(): number {
    return this.buckets.size;
  }

  private refill(bucket: Bucket, now: number): void {
    const elapsed = Math.max(0, now - bucket.at) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsed * this.ratePerSecond);
    bucket.at = now;
  }

  private shrink(now: number): void {
    for (const [project, bucket] of this.buckets) {
      this.refill(bucket, now);
      if (bucket.tokens >= this.burst) this.buckets.delete(project);
    }
    // Every bucket in use: the least recently used lose theirs (and start again full).
    for (const project of this.buckets.keys()) {
      if (this.buckets.size <= this.maxTracked) break;
      this.buckets.delete(project);
    }
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An onRequest hook, run after authentication (so only a project's own callers spend its tokens),
 * answering a write beyond the project's rate with 429, Retry-After and Heat's error body.
 * Signals sent with a resource's signal token are not counted: a server or alarm that cannot
 * signal would fail its stack, and those tokens can do nothing else.
 */
export function writeRateLimitHook(limiter: ProjectRateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!WRITES.has(request.method) || request.identity.signalTarget) return undefined;
    const project = request.identity.projectId;
    const wait = limiter.take(project);
    if (wait === 0) return undefined;
    const seconds = Math.max(1, Math.ceil(wait));
    const message =
      `Too many write requests for project ${project}: the limit is ${limiter.ratePerSecond} a second ` +
      `(bursts of ${limiter.burst}). Retry after ${seconds} s.`;
    request.log.info({ status: 429, project }, 'write rate limit');
    return reply
      .status(429)
      .header('retry-after', String(seconds))
      .send(heatErrorBody(429, 'HTTPTooManyRequests', message));
  };
}
