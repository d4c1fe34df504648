/**
 * The parsed form of a yaql expression. `pos` is the 0-based offset in the expression of the part
 * an error about this node should point at (an operator, a function name, a key).
 */
export type Node =
  | { kind: 'const'; pos: number; value: null | boolean | number | string }
  /** A bare name such as `a` in `dict(a => 1)`: yaql evaluates it to the string "a". */
  | { kind: 'keyword'; pos: number; name: string }
  /** `$` (stored as "1", as yaql does), `$1`, `$name`. */
  | { kind: 'var'; pos: number; name: string }
  | { kind: 'list'; pos: number; items: Node[] }
  | { kind: 'map'; pos: number; entries: { key: Node; value: Node }[] }
  /** `object.name` or `object?.name`. */
  | { kind: 'attr'; pos: number; object: Node; name: string; nullSafe: boolean }
  /** `object[args]`. */
  | { kind: 'index'; pos: number; object: Node; args: Arg[] }
  /** `name(args)`, or `receiver.name(args)` which passes the receiver as the first argument. */
  | { kind: 'call'; pos: number; name: string; receiver: Node | null; nullSafe: boolean; args: Arg[] }
  | { kind: 'unary'; pos: number; op: string; operand: Node }
  | { kind: 'binary'; pos: number; op: string; left: Node; right: Node };

/** One argument; `name` is set for `name => value`; `omitted` for a skipped one, as in `f(a,, c)`. */
export interface Arg {
  pos: number;
  name: Node | null;
  value: Node;
  omitted?: boolean;
}
