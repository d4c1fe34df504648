import type { ServiceName } from './errors.js';

/**
 * Which identity made each call to the sandbox's APIs, in a bounded ring buffer (tests check, for
 * example, that a stack's servers were created as its owner through a trust). `GET /admin/calls`.
 */

export interface CallRecord {
  seq: number;
  at: string;
  method: string;
  service: ServiceName;
  /** The URL's path, without the query string. */
  path: string;
  status: number;
  user_id: string | null;
  user_name: string | null;
  project_id: string | null;
  /** The trust the token was scoped with (null: not trust-scoped, or no token). */
  trust_id: string | null;
}

export const CALL_LOG_SIZE = 20_000;

export class CallLog {
  private readonly ring: (CallRecord | undefined)[];
  private next = 1;

  constructor(readonly size = CALL_LOG_SIZE) {
    this.ring = new Array<CallRecord | undefined>(size);
  }

  record(call: Omit<CallRecord, 'seq'>): void {
    const seq = this.next++;
    this.ring[seq % this.size] = { seq, ...call };
  }

  /** The calls after `seq` still held, oldest first. */
  since(seq: number): CallRecord[] {
    const first = Math.max(seq + 1, this.next - this.size, 1);
    const calls: CallRecord[] = [];
    for (let s = first; s < this.next; s++) calls.push(this.ring[s % this.size]!);
    return calls;
  }

  /** The sequence number of the latest call (0: none yet). */
  get last(): number {
    return this.next - 1;
  }
}
