/** Where an option's value came from. */
export type ValueSource =
  | { readonly kind: 'default' }
  | { readonly kind: 'file'; readonly file: string; readonly line?: number; readonly column?: number }
  | { readonly kind: 'env'; readonly variable: string }
  | { readonly kind: 'override' };

/** `hearth.yaml:3:5`, `environment variable HEARTH_LOG_LEVEL`, `command-line override`, `default`. */
export function describeSource(source: ValueSource): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'file':
      if (source.line === undefined) return source.file;
      return source.column === undefined
        ? `${source.file}:${source.line}`
        : `${source.file}:${source.line}:${source.column}`;
    case 'env':
      return `environment variable ${source.variable}`;
    case 'override':
      return 'command-line override';
  }
}

/** One thing wrong with the configuration. */
export interface ConfigIssue {
  /** The option concerned, when there is one (not for a syntax error or an unreadable file). */
  readonly option: string | undefined;
  readonly source: ValueSource;
  /** What the option accepts, for a value of the wrong type or out of range. */
  readonly expected: string | undefined;
  /** The problem, without the place. */
  readonly detail: string;
  /** `<place>: <detail>`. */
  readonly message: string;
}

export function issue(source: ValueSource, detail: string, option?: string, expected?: string): ConfigIssue {
  return { option, source, expected, detail, message: `${describeSource(source)}: ${detail}` };
}

/**
 * An invalid configuration. Every problem found is listed (in the file, then the environment,
 * then the overrides), each naming its option, where the value came from and what is expected.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const first = issues[0];
    super(
      issues.length === 1 && first
        ? `invalid configuration: ${first.message}`
        : `invalid configuration (${issues.length} problems):\n${issues.map((i) => `  ${i.message}`).join('\n')}`,
    );
    this.issues = issues;
  }
}

export function isConfigError(err: unknown): err is ConfigError {
  return err instanceof ConfigError;
}
