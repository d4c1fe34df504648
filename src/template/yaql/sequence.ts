import type { Budget } from './budget.js';
import { lazy } from './values.js';

/**
 * A lazily produced, possibly endless sequence: what yaql's generators (sequence(), cycle(),
 * repeat() without a count, range()) and the query functions applied to them return. Every item
 * pulled costs a budget step, so an endless sequence that something tries to hold whole ends with
 * the steps error instead of hanging or filling memory. Iterating again starts again from the
 * beginning (a Python iterator would be used up; nothing a template writes depends on that).
 */
export class Sequence implements Iterable<unknown> {
  constructor(
    private readonly produce: () => Iterator<unknown>,
    private readonly budget: Budget,
  ) {}

  static of(items: () => Iterable<unknown>, budget: Budget): Sequence {
    return new Sequence(() => items()[Symbol.iterator](), budget);
  }

  *[Symbol.iterator](): Iterator<unknown> {
    const inner = this.produce();
    for (;;) {
      this.budget.spend();
      const next = inner.next();
      if (next.done) return;
      yield next.value;
    }
  }
}

/**
 * The value with a top-level Sequence read into a list (marked lazy, so list() splices it as yaql
 * does with iterators). Functions get their arguments through this, except the ones that stream.
 */
export function materialize(value: unknown): unknown {
  return value instanceof Sequence ? lazy([...value]) : value;
}
