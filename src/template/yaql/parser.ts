import type { Arg, Node } from './ast.js';
import { YaqlError } from './errors.js';
import { type Token, tokenize } from './lexer.js';

/**
 * Binding powers from yaql's operator table (higher binds tighter). `->` is right-associative;
 * `.`, `?.` and `[]` bind tightest of all and are handled as a postfix chain.
 */
const BINARY_POWER: ReadonlyMap<string, number> = new Map([
  ['->', 10],
  ['or', 20],
  ['and', 30],
  ['=', 50],
  ['!=', 50],
  ['<', 50],
  ['>', 50],
  ['<=', 50],
  ['>=', 50],
  ['in', 50],
  ['+', 60],
  ['-', 60],
  ['*', 70],
  ['/', 70],
  ['mod', 70],
  ['=~', 80],
  ['!~', 80],
]);
const RIGHT_ASSOCIATIVE = new Set(['->']);
const NOT_POWER = 40;
const UNARY_SIGN_POWER = 90;

/** Parses an expression, rejecting trees nested deeper than `maxDepth`. */
export function parse(source: string, maxDepth: number): Node {
  return new Parser(source, maxDepth).parseAll();
}

class Parser {
  private readonly tokens: Token[];
  private index = 0;
  private nesting = 0;
  /** Height of every node built so far: left-associative chains grow without parser recursion. */
  private readonly heights = new WeakMap<Node, number>();

  constructor(
    source: string,
    private readonly maxDepth: number,
  ) {
    this.tokens = tokenize(source);
  }

  parseAll(): Node {
    const node = this.expression(0);
    const next = this.peek();
    if (next.kind !== 'eof') throw unexpected(next);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  private isOp(value: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.value === value;
  }

  private expect(value: string): void {
    const token = this.next();
    if (token.kind !== 'op' || token.value !== value) throw unexpected(token, `expected "${value}"`);
  }

  /** Records the node's height and enforces the depth bound. */
  private make(node: Node, ...children: Node[]): Node {
    let height = 1;
    for (const child of children) height = Math.max(height, (this.heights.get(child) ?? 1) + 1);
    if (height > this.maxDepth) {
      throw new YaqlError(`expression is nested too deeply (more than ${this.maxDepth} levels)`, node.pos);
    }
    this.heights.set(node, height);
    return node;
  }

  private expression(minPower: number): Node {
    if (++this.nesting > this.maxDepth) {
      throw new YaqlError(
        `expression is nested too deeply (more than ${this.maxDepth} levels)`,
        this.peek().pos,
      );
    }
    let left = this.prefix();
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'op') break;
      if (token.value === '.' || token.value === '?.') {
        left = this.member(left);
        continue;
      }
      if (token.value === '[') {
        this.next();
        const args = this.args(']', 'index');
        if (args.length === 0) throw new YaqlError('an index needs at least one argument', token.pos);
        left = this.make(
          { kind: 'index', pos: token.pos, object: left, args },
          left,
          ...args.flatMap(argNodes),
        );
        continue;
      }
      const power = BINARY_POWER.get(token.value);
      if (power === undefined || power <= minPower) break;
      this.next();
      const right = this.expression(RIGHT_ASSOCIATIVE.has(token.value) ? power - 1 : power);
      left = this.make({ kind: 'binary', pos: token.pos, op: token.value, left, right }, left, right);
    }
    this.nesting--;
    return left;
  }

  private prefix(): Node {
    const token = this.next();
    switch (token.kind) {
      case 'number':
      case 'string':
      case 'const':
        return this.make({ kind: 'const', pos: token.pos, value: token.value });
      case 'name':
        return this.make({ kind: 'keyword', pos: token.pos, name: token.value });
      case 'var':
        return this.make({ kind: 'var', pos: token.pos, name: token.value === '' ? '1' : token.value });
      case 'call': {
        const args = this.args(')', 'call');
        const node: Node = {
          kind: 'call',
          pos: token.pos,
          name: token.value,
          receiver: null,
          nullSafe: false,
          args,
        };
        return this.make(node, ...args.flatMap(argNodes));
      }
      case 'op':
        return this.prefixOperator(token);
      default:
        throw unexpected(token);
    }
  }

  private prefixOperator(token: Token & { kind: 'op' }): Node {
    switch (token.value) {
      case '(': {
        const inner = this.expression(0);
        this.expect(')');
        return inner;
      }
      case '[': {
        const items = this.args(']', 'list').map((a) => a.value);
        return this.make({ kind: 'list', pos: token.pos, items }, ...items);
      }
      case '{': {
        const entries = this.args('}', 'map').map((a) => ({ key: a.name!, value: a.value }));
        return this.make(
          { kind: 'map', pos: token.pos, entries },
          ...entries.flatMap((e) => [e.key, e.value]),
        );
      }
      case '-':
      case '+':
      case 'not': {
        const operand = this.expression(token.value === 'not' ? NOT_POWER : UNARY_SIGN_POWER);
        return this.make({ kind: 'unary', pos: token.pos, op: token.value, operand }, operand);
      }
      default:
        throw unexpected(token);
    }
  }

  /** `.name`, `.method(args)`, or their null-safe `?.` forms. */
  private member(receiver: Node): Node {
    const dot = this.next();
    const nullSafe = dot.value === '?.';
    const token = this.next();
    if (token.kind === 'name') {
      return this.make(
        { kind: 'attr', pos: token.pos, object: receiver, name: token.value, nullSafe },
        receiver,
      );
    }
    if (token.kind === 'call') {
      const args = this.args(')', 'call');
      const node: Node = { kind: 'call', pos: token.pos, name: token.value, receiver, nullSafe, args };
      return this.make(node, receiver, ...args.flatMap(argNodes));
    }
    throw unexpected(token, `expected a name or a method call after "${dot.value}"`);
  }

  /**
   * A comma-separated argument list up to `closer`. `name => value` pairs are allowed after the
   * positional arguments of calls and indexes, and are required in map literals.
   */
  private args(closer: string, context: 'call' | 'index' | 'list' | 'map'): Arg[] {
    const args: Arg[] = [];
    if (this.isOp(closer)) {
      this.next();
      return args;
    }
    for (;;) {
      const pos = this.peek().pos;
      if (this.isOp(',') && context === 'call' && !args.some((a) => a.name !== null)) {
        // yaql lets a positional argument be skipped, so that a later one can be given: f(a,, c).
        args.push({ pos, name: null, value: this.make({ kind: 'const', pos, value: null }), omitted: true });
        this.next();
        continue;
      }
      const first = this.expression(0);
      if (this.isOp('=>')) {
        const arrow = this.next();
        if (context === 'list') throw new YaqlError('"=>" is not allowed in a list', arrow.pos);
        args.push({ pos, name: first, value: this.expression(0) });
      } else {
        if (context === 'map') throw new YaqlError('a map entry must be written "key => value"', pos);
        if (args.some((a) => a.name !== null)) {
          throw new YaqlError('a positional argument cannot follow a named one', pos);
        }
        args.push({ pos, name: null, value: first });
      }
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      this.expect(closer);
      return args;
    }
  }
}

function argNodes(arg: Arg): Node[] {
  return arg.name === null ? [arg.value] : [arg.name, arg.value];
}

function unexpected(token: Token, hint?: string): YaqlError {
  const what = token.kind === 'eof' ? 'end of expression' : describe(token);
  return new YaqlError(`unexpected ${what}${hint ? ` (${hint})` : ''}`, token.pos);
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'string':
      return `string ${JSON.stringify(token.value)}`;
    case 'call':
      return `call of ${token.value}()`;
    case 'var':
      return `$${token.value}`;
    default:
      return `"${String(token.value)}"`;
  }
}
