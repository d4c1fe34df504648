import { extname } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { type ConfigIssue, issue, type ValueSource } from './errors.js';

/** An option's value as written, before it is checked against the option's type. */
export type RawValue =
  /** `shown`: how messages show a value that was not a string (a YAML number or boolean). */
  | { readonly kind: 'text'; readonly text: string; readonly shown?: string }
  /** A value that no option accepts (a map, a list, null, a fraction); `what` describes it. */
  | { readonly kind: 'invalid'; readonly what: string };

/** One `name: value` of a config file. */
export interface RawEntry {
  readonly name: string;
  readonly value: RawValue;
  /** Where the name is written (for unknown and duplicate options). */
  readonly nameSource: ValueSource;
  /** Where the value is written (for values of the wrong type). */
  readonly valueSource: ValueSource;
}

export interface ParsedFile {
  readonly format: ConfigFormat;
  readonly entries: readonly RawEntry[];
  readonly issues: readonly ConfigIssue[];
}

export type ConfigFormat = 'yaml' | 'ini';

const INI_EXTENSIONS = new Set(['.ini', '.conf', '.cfg']);
const YAML_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * YAML (JSON is YAML) or INI. `.ini`, `.conf` and `.cfg` files are INI, `.yaml`, `.yml` and `.json`
 * files YAML; another name is INI when its first line that is not blank or a comment is a section
 * header or a `name = value` line.
 */
export function detectFormat(file: string, text: string): ConfigFormat {
  const ext = extname(file).toLowerCase();
  if (INI_EXTENSIONS.has(ext)) return 'ini';
  if (YAML_EXTENSIONS.has(ext)) return 'yaml';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    return /^\[[^\]]+\]$/.test(line) || /^[A-Za-z_][\w.-]*\s*=/.test(line) ? 'ini' : 'yaml';
  }
  return 'yaml';
}

export function parseConfigFile(file: string, text: string): ParsedFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = detectFormat(file, body);
  return { format, ...(format === 'ini' ? parseIni(file, body) : parseYamlConfig(file, body)) };
}

/**
 * A YAML or JSON map of option names to scalar values. Values are taken as text (a YAML `5` is
 * "5", `true` is "true") and checked like environment variables, so `yes`, `"5"` and `5` all work.
 */
export function parseYamlConfig(file: string, text: string): { entries: RawEntry[]; issues: ConfigIssue[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false, // duplicates are reported below, with both lines
    prettyErrors: false,
    logLevel: 'error',
  });
  const at = (offset: number | undefined): ValueSource => {
    if (offset === undefined) return { kind: 'file', file };
    const pos = lines.linePos(offset);
    return { kind: 'file', file, line: pos.line, column: pos.col };
  };
  const syntax = doc.errors[0];
  if (syntax) {
    const pos = syntax.linePos?.[0];
    const source: ValueSource = pos
      ? { kind: 'file', file, line: pos.line, column: pos.col }
      : at(syntax.pos[0]);
    return { entries: [], issues: [issue(source, `invalid YAML: ${syntax.message.split('\n')[0]}`)] };
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return { entries: [], issues: [] };
  if (!isMap(root)) {
    return {
      entries: [],
      issues: [issue(at(root.range[0]), 'a config file must be a map of option names to values')],
    };
  }
  const entries: RawEntry[] = [];
  const issues: ConfigIssue[] = [];
  for (const pair of root.items) {
    const key = pair.key as YamlNode | null;
    const nameSource = at(key?.range?.[0]);
    if (!isScalar(key) || key.value === null || typeof key.value === 'object') {
      issues.push(issue(nameSource, 'an option name must be a plain string'));
      continue;
    }
    const name = String(key.value);
    const value = pair.value as YamlNode | null;
    entries.push({
      name,
      value: yamlValue(value),
      nameSource,
      valueSource: value ? at(value.range?.[0]) : nameSource,
    });
  }
  return { entries, issues };
}

function yamlValue(node: YamlNode | null): RawValue {
  if (node === null) return { kind: 'invalid', what: 'no value' };
  if (isMap(node)) return { kind: 'invalid', what: 'a map' };
  if (isSeq(node)) return { kind: 'invalid', what: 'a list' };
  if (!isScalar(node)) return { kind: 'invalid', what: 'an alias' };
  const v = node.value;
  if (v === null || v === undefined) return { kind: 'invalid', what: 'no value' };
  if (typeof v === 'string') return { kind: 'text', text: v };
  if (typeof v === 'boolean') return { kind: 'text', text: String(v), shown: `the boolean ${v}` };
  if (typeof v === 'number') {
    return Number.isSafeInteger(v)
      ? { kind: 'text', text: String(v), shown: `the number ${v}` }
      : { kind: 'invalid', what: `the number ${v}` };
  }
  return { kind: 'invalid', what: `a ${typeof v}` };
}

/**
 * The subset of heat.conf's INI syntax (oslo.config) that a flat option list needs: `#` and `;`
 * comment lines, `[DEFAULT]` (options before any section header count as `[DEFAULT]`), and
 * `name = value` or `name: value` lines. Values are trimmed and lose one pair of matching quotes.
 * As in oslo.config, a `#` after a value is part of the value. Other sections and continuation
 * lines are reported, not skipped.
 */
export function parseIni(file: string, text: string): { entries: RawEntry[]; issues: ConfigIssue[] } {
  const entries: RawEntry[] = [];
  const issues: ConfigIssue[] = [];
  let skipping = false; // inside a section already reported
  const lines = text.split(/\r?\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const lineNo = i + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const indent = raw.length - raw.trimStart().length;
    const at = (column: number): ValueSource => ({ kind: 'file', file, line: lineNo, column });
    if (trimmed.startsWith('[')) {
      const m = /^\[([^\]]*)\]$/.exec(trimmed);
      if (!m) {
        issues.push(issue(at(indent + 1), `malformed section header ${JSON.stringify(trimmed)}`));
        skipping = true;
        continue;
      }
      const section = m[1]!.trim();
      skipping = section !== 'DEFAULT';
      if (skipping) {
        issues.push(
          issue(
            at(indent + 1),
            `section [${section}] is not supported: Hearth reads its options from [DEFAULT] only` +
              (section === 'database' ? ' (Heat’s [database] connection is Hearth’s database option)' : ''),
          ),
        );
      }
      continue;
    }
    if (skipping) continue;
    if (indent > 0) {
      issues.push(issue(at(1), 'continuation lines (indented lines) are not supported'));
      continue;
    }
    const sep = raw.search(/[=:]/);
    if (sep < 0) {
      issues.push(issue(at(1), `expected "name = value", got ${JSON.stringify(trimmed)}`));
      continue;
    }
    const name = raw.slice(0, sep).trim();
    if (name === '') {
      issues.push(issue(at(1), `an option name is missing before "${raw[sep]!}"`));
      continue;
    }
    const afterSep = raw.slice(sep + 1);
    const valueColumn = sep + 2 + (afterSep.length - afterSep.trimStart().length);
    let value = afterSep.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
      value = value.slice(1, -1);
    }
    entries.push({
      name,
      value: { kind: 'text', text: value },
      nameSource: at(1),
      valueSource: at(valueColumn),
    });
  }
  return { entries, issues };
}
