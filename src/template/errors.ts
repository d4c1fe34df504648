/** A position in a source document: 1-based line and column. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** A path inside a template or environment, e.g. ['resources', 'web', 'properties', 'networks', 0]. */
export type DocPath = readonly (string | number)[];

/** What went wrong, so callers (CLI exit codes, API error types) can tell errors apart. */
export type TemplateErrorKind =
  | 'syntax' // not valid YAML/JSON, or not a mapping
  | 'limit' // a configured size/depth/count limit was exceeded
  | 'version' // missing or unknown heat_template_version, or a function the version lacks
  | 'schema' // a section, key or value of the wrong shape
  | 'function' // an intrinsic function used wrongly
  | 'reference' // a parameter, resource, condition, attribute or file that does not exist
  | 'parameter' // a parameter value that fails its type or constraints, or is missing
  | 'environment' // a malformed environment
  | 'unknown_type' // a resource type that no plugin, alias or template implements
  | 'property' // resource properties that fail the type's schema
  | 'cycle' // circular dependency between resources
  | 'nested'; // a nested template failed; the cause is attached

/**
 * Every user-facing error of the template language. It names the file, the line and column, and
 * the path inside the document, so that a user finds the mistake without guessing.
 */
export class TemplateError extends Error {
  override readonly name = 'TemplateError';
  readonly kind: TemplateErrorKind;
  /** The bare message, without location prefix. */
  readonly detail: string;
  path: DocPath;
  file: string | undefined;
  position: SourcePosition | undefined;
  /**
   * Heat's own wording of this error (from the current path), which clients and scripts match on:
   * the message starts with it, and the place and any hint follow in parentheses.
   */
  readonly heat: ((path: DocPath) => string) | undefined;
  readonly hint: string | undefined;

  constructor(
    kind: TemplateErrorKind,
    detail: string,
    path: DocPath = [],
    opts: {
      file?: string;
      position?: SourcePosition;
      cause?: unknown;
      heat?: (path: DocPath) => string;
      hint?: string;
    } = {},
  ) {
    super(detail, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.detail = detail;
    this.path = path;
    this.file = opts.file;
    this.position = opts.position;
    this.heat = opts.heat;
    this.hint = opts.hint;
    this.message = this.render();
  }

  /** Fills in where this error happened, unless a more precise place is already known. */
  locate(file: string | undefined, position: SourcePosition | undefined): this {
    if (this.file === undefined) this.file = file;
    if (this.position === undefined) this.position = position;
    this.message = this.render();
    return this;
  }

  /** Prefixes the path with the place the document was found at (e.g. a nested stack's resource). */
  under(prefix: DocPath): this {
    this.path = [...prefix, ...this.path];
    this.message = this.render();
    return this;
  }

  private render(): string {
    const where: string[] = [];
    if (this.file !== undefined) {
      where.push(this.position ? `${this.file}:${this.position.line}:${this.position.column}` : this.file);
    } else if (this.position) {
      where.push(`line ${this.position.line}, column ${this.position.column}`);
    }
    const path = formatPath(this.path);
    if (path) where.push(path);
    if (this.heat) {
      const after = [where.join(': '), this.hint].filter(Boolean).join('; ');
      return after ? `${this.heat(this.path)} (${after})` : this.heat(this.path);
    }
    return where.length ? `${where.join(': ')}: ${this.detail}` : this.detail;
  }
}

/** `resources.web.properties.networks[0].port` */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z0-9_:\-/%]+$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

export function isTemplateError(err: unknown): err is TemplateError {
  return err instanceof TemplateError;
}

/** Heat's EntityNotFound text for a resource type no plugin, alias or template implements. */
export function unknownResourceType(type: string, path: DocPath, hint?: string): TemplateError {
  const text = `The Resource Type (${type}) could not be found.`;
  return new TemplateError('unknown_type', hint ? `${text} (${hint})` : text, path, {
    heat: () => text,
    hint,
  });
}
