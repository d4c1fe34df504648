import type { DocPath } from '../errors.js';

/**
 * A value not known yet: a parameter without a value during non-strict validation, or a resource's
 * id or attribute before the resource exists. Functions given an unknown where they need a value
 * return UNKNOWN, so validation checks everything that *is* known and never guesses.
 */
export class Unknown {
  static readonly instance = new Unknown();
  private constructor() {}
  toJSON(): string {
    return '<unknown>';
  }
}
export const UNKNOWN = Unknown.instance;

/**
 * What `if` without a false branch yields (2021-04-16+): the enclosing map key or list item is
 * dropped, as Heat's Ellipsis result does.
 */
export class Omitted {
  static readonly instance = new Omitted();
  private constructor() {}
}
export const OMITTED = Omitted.instance;

/** A resolved value: JSON, possibly with unknown parts. */
export type Value = null | boolean | number | string | Unknown | Omitted | Value[] | { [key: string]: Value };

/** A parsed template snippet: literal data in which intrinsic function calls have been recognised. */
export type Node = null | boolean | number | string | FnCall | Node[] | { [key: string]: Node };

/**
 * Where a node stands, as a chain of links to its parent: paths are materialised only when asked
 * for (errors), so parsing a large template does not copy a path array per node.
 */
export class PathLink {
  constructor(
    readonly up: PathLink | DocPath,
    readonly key: string | number,
  ) {}

  toPath(): DocPath {
    let depth = 1;
    let link = this.up;
    for (; link instanceof PathLink; link = link.up) depth++;
    // Sized exactly: no slack kept by a path that stays in an error or a record.
    const path = new Array<string | number>(link.length + depth);
    for (let i = 0; i < link.length; i++) path[i] = link[i]!;
    path[path.length - 1] = this.key;
    let at = this.up;
    for (let i = path.length - 2; at instanceof PathLink; at = at.up, i--) path[i] = at.key;
    return path;
  }
}

/** One intrinsic function call, e.g. `{get_attr: [web, first_address]}` at `resources.x.properties.ip`. */
export class FnCall {
  private readonly where: PathLink | DocPath;

  constructor(
    readonly def: FunctionDef,
    /** The parsed arguments (they may contain further calls). */
    readonly args: Node,
    where: PathLink | DocPath,
  ) {
    this.where = where;
  }

  get name(): string {
    return this.def.name;
  }

  /**
   * Where the call stands in its document, for error messages. Made anew at each read, not kept:
   * a million calls' paths would weigh ~200 MiB, and most are never shown.
   */
  get path(): DocPath {
    return this.where instanceof PathLink ? this.where.toPath() : this.where;
  }
}

/** Where a function may be used. */
export type FunctionScope = 'value' | 'condition';

/**
 * One intrinsic function as one template version defines it. Versions that change a function's
 * behaviour (e.g. `list_join` taking several lists from 2015-10-15) use different definitions
 * under the same name.
 */
export interface FunctionDef {
  readonly name: string;
  /** One line, shown by `hearth template functions` and the template_versions API. */
  readonly description: string;
  /**
   * Parses the raw arguments when some of them are in another scope (the first argument of `if`
   * is a condition); by default all arguments are parsed in the caller's scope.
   */
  parseArgs?(raw: unknown, path: DocPath, parse: ArgParsers): Node;
  /**
   * Checks the shape of the arguments that does not depend on values (argument count, types of
   * literal arguments). Called once when the template is parsed. Throws TemplateError('function').
   */
  check?(call: FnCall): void;
  /** Computes the value. Must return UNKNOWN (not throw) when an input it needs is unknown. */
  resolve(call: FnCall, ctx: ResolveContext): Value;
  /** For get_resource/get_attr: the resource the call refers to, for the dependency graph. */
  referencedResource?(call: FnCall): string | undefined;
  /**
   * For conditional functions (`if`): the argument nodes that are live given how conditions
   * evaluate; `undefined` from `evalCondition` means not known, so every branch is live.
   */
  liveBranches?(call: FnCall, evalCondition: (node: Node) => boolean | undefined): Node[];
}

/** Parsers for argument nodes in value scope and in condition scope. */
export interface ArgParsers {
  value(raw: unknown, path: DocPath): Node;
  condition(raw: unknown, path: DocPath): Node;
}

/** What a function may ask of the stack it is resolved in. Supplied by the template model or the engine. */
export interface ResolveContext {
  /** Resolves a node (recursively evaluating calls inside it). */
  resolve(node: Node): Value;
  /** The value of a declared parameter (or pseudo parameter); throws for an undeclared one. */
  param(name: string, path: DocPath): Value;
  /** Whether `name` is a declared parameter or pseudo parameter (CFN `Ref` resolves either kind). */
  isParameter(name: string): boolean;
  /** The reference id of a resource (`get_resource`); UNKNOWN before it exists. */
  resourceRef(name: string, path: DocPath): Value;
  /** An attribute of a resource, or all attributes when `attr` is undefined; UNKNOWN before it exists. */
  resourceAttr(name: string, attr: string | undefined, path: DocPath): Value;
  /** The content of a file from the files map, by a path relative to the current template. */
  file(name: string, path: DocPath): string;
  /** The value of a named condition, or of an inline condition expression. */
  condition(node: Node, path: DocPath): boolean | Unknown;
  /** The parent resource's section, for `resource_facade` in a nested template. */
  facade(section: 'metadata' | 'deletion_policy' | 'update_policy', path: DocPath): Value;
  /** Evaluates a yaql expression against `data`. */
  yaql(expression: string, data: Value, path: DocPath): Value;
  /** Availability zones for CFN `Fn::GetAZs`; absent where no cloud is known (then UNKNOWN). */
  availabilityZones?(): Value;
}

export function isUnknown(value: unknown): value is Unknown {
  return value === UNKNOWN;
}

/** True when the value, or anything inside it, is unknown. */
export function containsUnknown(value: Value): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === 'object' && !(value instanceof Omitted)) {
    return Object.values(value).some(containsUnknown);
  }
  return false;
}
