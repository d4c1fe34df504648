/* How an option of the table in options.ts is described: its type, bounds, default and Heat counterpart. */

/** Where Heat has the same setting; `name` is as written in heat.conf. */
export interface HeatEquivalent {
  /** e.g. `action_retry_limit`, or `[database] connection` for an option outside `[DEFAULT]`. */
  readonly name: string;
  /** Heat's default, as heat.conf documents it (absent when Heat has none). */
  readonly default?: string;
  /** How Hearth differs, if it does. */
  readonly note?: string;
}

interface SpecBase {
  /** One-line meaning, for docs and `--help`-style listings. */
  readonly help: string;
  /** The option's Heat counterpart, or null for Hearth's own options. */
  readonly heat: HeatEquivalent | null;
}

export interface IntSpec extends SpecBase {
  readonly type: 'int';
  /** A number, or a function for defaults that depend on the host (num_engine_workers). */
  readonly default: number | (() => number);
  /** How the docs show a computed default. */
  readonly defaultText?: string;
  readonly min?: number;
  readonly max?: number;
  /** Unit shown after values in docs and messages, e.g. `bytes`, `seconds`, `ms`. */
  readonly unit?: string;
}

export interface BoolSpec extends SpecBase {
  readonly type: 'bool';
  readonly default: boolean;
}

export interface StringSpec extends SpecBase {
  readonly type: 'string';
  /** An empty default means "not set": the file and variables cannot set an empty value. */
  readonly default: string;
  /** A credential: messages never show its value. */
  readonly secret?: true;
}

export interface EnumSpec<T extends string> extends SpecBase {
  readonly type: 'enum';
  readonly choices: readonly T[];
  readonly default: T;
}

/** The spec an option of value type T must have: the table below is checked against `Config`. */
export type OptionSpec<T> = [T] extends [boolean]
  ? BoolSpec
  : [T] extends [number]
    ? IntSpec
    : [T] extends [string]
      ? string extends T
        ? StringSpec
        : EnumSpec<T>
      : never;

export type AnyOptionSpec = IntSpec | BoolSpec | StringSpec | EnumSpec<string>;

/** A spec's default as the docs show it. */
export function defaultText(spec: AnyOptionSpec): string {
  if (spec.type === 'int' && spec.defaultText !== undefined) return spec.defaultText;
  const value = typeof spec.default === 'function' ? spec.default() : spec.default;
  return String(value);
}

/** What an option accepts, in words: `an integer >= 0`, `one of trace, debug, ...`. */
export function expectedText(spec: AnyOptionSpec): string {
  switch (spec.type) {
    case 'int': {
      const { min, max } = spec;
      if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
      if (min !== undefined) return `an integer >= ${min}`;
      if (max !== undefined) return `an integer <= ${max}`;
      return 'an integer';
    }
    case 'bool':
      return 'a boolean (true/false, yes/no, on/off, 1/0)';
    case 'string':
      return 'a non-empty string';
    case 'enum':
      return `one of ${spec.choices.join(', ')}`;
  }
}
