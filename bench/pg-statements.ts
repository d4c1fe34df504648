// BENCH_STATEMENTS=1: counts the PostgreSQL statements this process sends (every `pg` client's
// query: the engine's pool, claims, polls) and the time until each is answered, by statement text,
// so that a run shows its round trips per unit of work and where the waiting goes.
import { performance } from 'node:perf_hooks';
import pg from 'pg';

interface Tally {
  count: number;
  ms: number;
}

const tallies = new Map<string, Tally>();

function record(sql: string, ms: number): void {
  // One entry per statement shape: multi-row statements differ only in their number of rows.
  const key = sql
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '$')
    .replace(/\((\$(::\w+)?(, )?)+\)(, \((\$(::\w+)?(, )?)+\))*/g, '(…)');
  const tally = tallies.get(key) ?? { count: 0, ms: 0 };
  tally.count++;
  tally.ms += ms;
  tallies.set(key, tally);
}

/** Starts counting (idempotent). */
export function countStatements(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown; counted?: true };
  if (proto.counted) return;
  proto.counted = true;
  const query = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    const sql = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    if (sql === undefined) return query.apply(this, args);
    const start = performance.now();
    const done = () => record(sql, performance.now() - start);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        done();
        return (callback as (...r: unknown[]) => unknown)(...results);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<unknown>;
    void result.then(done, done);
    return result;
  };
}

/** The counts since the last call (then starts again from zero). */
export function takeStatements(): { count: number; ms: number; top: [string, Tally][] } {
  const all = [...tallies.entries()];
  tallies.clear();
  const count = all.reduce((sum, [, t]) => sum + t.count, 0);
  const ms = all.reduce((sum, [, t]) => sum + t.ms, 0);
  return { count, ms, top: all.sort((a, b) => b[1].ms - a[1].ms) };
}
