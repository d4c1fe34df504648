/**
 * Variables visible to an expression: `$` (stored as "1"), the positional `$1`, `$2`... of a lambda,
 * and names bound by let(). A lambda or let() evaluates in a child scope, so inner bindings shadow
 * outer ones and outer ones (such as a let-bound `$root`) stay visible.
 */
export class Scope {
  constructor(
    private readonly parent: Scope | null,
    private readonly vars: ReadonlyMap<string, unknown>,
  ) {}

  /** The variable's value; an unbound variable is null, as in yaql. */
  get(name: string): unknown {
    const own = this.vars.get(name);
    if (own !== undefined) return own;
    return this.parent === null ? null : this.parent.get(name);
  }

  /**
   * A child scope binding positional arguments to $1, $2... (so `$` is the first one); a trailing
   * NamedArgs also binds $name variables (a regex match's named groups).
   */
  withArgs(args: readonly unknown[]): Scope {
    if (args.length === 0) return this;
    const last = args[args.length - 1];
    const named = last instanceof NamedArgs ? last : null;
    const positional = named ? args.slice(0, -1) : args;
    const vars = new Map<string, unknown>(positional.map((value, i) => [String(i + 1), value]));
    if (named) for (const [name, value] of named.vars) if (!vars.has(name)) vars.set(name, value);
    return new Scope(this, vars);
  }

  child(vars: ReadonlyMap<string, unknown>): Scope {
    return new Scope(this, vars);
  }
}

/** Variables by name that a library function passes to a lambda after its positional arguments. */
export class NamedArgs {
  constructor(readonly vars: ReadonlyMap<string, unknown>) {}
}
