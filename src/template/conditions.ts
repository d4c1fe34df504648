import { isTemplateError, TemplateError } from './errors.js';
import { walkCalls } from './functions/resolve.js';
import {
  FnCall,
  isUnknown,
  type Node,
  type ResolveContext,
  UNKNOWN,
  type Unknown,
} from './functions/types.js';

/**
 * Evaluates the `conditions` section lazily, caching each named condition and reporting a
 * condition that refers to itself through others.
 */
export class ConditionEvaluator {
  private readonly values = new Map<string, boolean | Unknown>();
  private readonly evaluating = new Set<string>();
  /** Errors of conditions that failed, reported again wherever they are used. */
  private readonly failures = new Map<string, TemplateError>();

  constructor(
    private readonly definitions: ReadonlyMap<string, Node>,
    /** The context condition functions are resolved in (get_param works, resources do not). */
    private readonly context: () => ResolveContext,
  ) {}

  /** The value of an operand: a condition name, a boolean, or an inline condition function. */
  evaluate(node: Node, path: readonly (string | number)[]): boolean | Unknown {
    if (typeof node === 'boolean') return node;
    if (typeof node === 'string') return this.named(node, path);
    if (node instanceof FnCall) {
      const value = this.context().resolve(node);
      if (isUnknown(value)) return UNKNOWN;
      if (typeof value !== 'boolean') {
        throw new TemplateError(
          'function',
          `a condition must evaluate to true or false, got ${JSON.stringify(value)}`,
          node.path,
        );
      }
      return value;
    }
    throw definitionError(path);
  }

  /** The value of a named condition from the conditions section. */
  named(name: string, path: readonly (string | number)[]): boolean | Unknown {
    const cached = this.values.get(name);
    if (cached !== undefined) return cached;
    const failed = this.failures.get(name);
    if (failed) throw failed;
    const definition = this.definitions.get(name);
    if (definition === undefined) {
      throw new TemplateError(
        'reference',
        `condition "${name}" is not defined in the conditions section`,
        path,
      );
    }
    if (this.evaluating.has(name)) {
      throw new TemplateError(
        'cycle',
        `condition "${name}" refers to itself: ${[...this.evaluating, name].join(' -> ')}`,
        ['conditions', name],
      );
    }
    this.evaluating.add(name);
    try {
      const value = this.evaluate(definition, ['conditions', name]);
      this.values.set(name, value);
      return value;
    } catch (err) {
      if (isTemplateError(err)) this.failures.set(name, err);
      throw err;
    } finally {
      this.evaluating.delete(name);
    }
  }

  /**
   * Evaluates every named condition, those a condition refers to first: a long chain of
   * conditions then never recurses deeply. As in Heat, a condition is resolved only where it is
   * used: one whose evaluation fails (a get_param of an undeclared parameter) is left out of the
   * result, and its error is reported where a resource, an output or an `if` uses it. A
   * definition of the wrong kind is reported at once (Heat's Conditions.validate).
   */
  all(): Map<string, boolean | Unknown> {
    for (const [name, definition] of this.definitions) {
      const valid =
        typeof definition === 'boolean' || typeof definition === 'string' || definition instanceof FnCall;
      if (!valid) throw definitionError(['conditions', name]);
    }
    for (const name of this.dependencyOrder()) {
      try {
        this.named(name, ['conditions', name]);
      } catch (err) {
        if (!isTemplateError(err)) throw err;
      }
    }
    return new Map(this.values);
  }

  /** Named conditions in post-order of their references to each other (iterative DFS). */
  private dependencyOrder(): string[] {
    const order: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    for (const root of this.definitions.keys()) {
      if (state.has(root)) continue;
      const stack: [string, string[]][] = [[root, this.referencedNames(root)]];
      state.set(root, 'open');
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const next = top[1].pop();
        if (next === undefined) {
          stack.pop();
          state.set(top[0], 'done');
          order.push(top[0]);
        } else if (!state.has(next) && this.definitions.has(next)) {
          state.set(next, 'open');
          stack.push([next, this.referencedNames(next)]);
        }
      }
    }
    return order;
  }

  /** Names of other conditions a condition's definition refers to. */
  private referencedNames(name: string): string[] {
    const definition = this.definitions.get(name);
    const out: string[] = typeof definition === 'string' ? [definition] : [];
    if (definition === undefined) return out;
    walkCalls(definition, (call) => {
      const operands = call.name === 'not' ? [call.args] : Array.isArray(call.args) ? call.args : [];
      if (['and', 'or', 'not', 'Fn::And', 'Fn::Or', 'Fn::Not'].includes(call.name)) {
        for (const operand of operands) if (typeof operand === 'string') out.push(operand);
      }
      return true;
    });
    return out;
  }
}

function definitionError(path: readonly (string | number)[]): TemplateError {
  return new TemplateError(
    'schema',
    'a condition must be a condition name, a boolean or a condition function',
    path,
  );
}

/** Known boolean or undefined (for graph pruning, where unknown keeps every branch). */
export function knownBoolean(value: boolean | Unknown): boolean | undefined {
  return isUnknown(value) ? undefined : value;
}
