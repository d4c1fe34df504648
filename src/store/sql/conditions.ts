import type { SqlValue } from './driver.js';

/**
 * A WHERE clause built term by term (joined with AND), its values bound as `$n` parameters: what
 * the list queries of stacks and events share.
 */
export class Conditions {
  readonly params: SqlValue[] = [];
  private readonly terms: string[] = [];

  /** Binds a value; returns its placeholder. */
  param(value: SqlValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(term: string): void {
    this.terms.push(term);
  }

  /** `column` is one of `values` (none matches nothing); absent, no condition. */
  anyOf(column: string, values: readonly string[] | undefined): void {
    if (values === undefined) return;
    if (values.length === 0) this.add('1 = 0');
    else this.add(`${column} IN (${values.map((v) => this.param(v)).join(', ')})`);
  }

  /** Heat's status filter: `COMPLETE` matches the status, `CREATE_COMPLETE` action and status. */
  statuses(values: readonly string[] | undefined): void {
    if (values === undefined) return;
    const terms = values.map((s) => {
      const split = /^([A-Z]+)_(IN_PROGRESS|COMPLETE|FAILED)$/.exec(s);
      return split
        ? `(action = ${this.param(split[1]!)} AND status = ${this.param(split[2]!)})`
        : `status = ${this.param(s)}`;
    });
    this.add(terms.length === 0 ? '1 = 0' : `(${terms.join(' OR ')})`);
  }

  /**
   * Keyset paging: rows after the marker row in the order (`key`, id), `op` being `>` ascending
   * and `<` descending. `markerKey` and `markerId` are SQL expressions of the marker row's values.
   */
  after(key: string, markerKey: string, markerId: string, op: '<' | '>'): void {
    this.add(`(${key} ${op} ${markerKey} OR (${key} = ${markerKey} AND id ${op} ${markerId}))`);
  }

  /** `WHERE ...`, or '' without conditions. */
  clause(): string {
    return this.terms.length > 0 ? `WHERE ${this.terms.join(' AND ')}` : '';
  }
}
