import yaml from 'js-yaml';

// The type declarations omit `types`, which the package exports at run time.
const types = (
  yaml as unknown as {
    types: Record<
      'null' | 'int' | 'float' | 'merge',
      yaml.Type & { resolve(d: string): boolean; construct(d: string): unknown }
    >;
  }
).types;

import type { Json } from '../util/json.js';

// PyYAML's YAML 1.1 booleans, which Heat's loader uses: yes/no/on/off as well as true/false.
const BOOL_WORDS = new Map<string, boolean>();
for (const [words, value] of [
  ['yes Yes YES true True TRUE on On ON', true],
  ['no No NO false False FALSE off Off OFF', false],
] as const) {
  for (const word of words.split(' ')) BOOL_WORDS.set(word, value);
}

const bool11 = new yaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && BOOL_WORDS.has(data),
  construct: (data: string) => BOOL_WORDS.get(data),
  predicate: (obj: unknown) => typeof obj === 'boolean',
  represent: (obj: object) => String(obj),
});

/** Whether `data` may be a number: every integer and float form starts with a sign, a digit or a dot. */
function numberLike(data: string | null): data is string {
  if (data === null || data.length === 0) return false;
  const c = data.charCodeAt(0);
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e; // 0-9 + - .
}

const OCTAL_11 = /^[-+]?0[0-7_]+$/;
const DECIMAL_11 = /^[-+]?[1-9][0-9_]*$/;
const SEXAGESIMAL = /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/;

// YAML 1.1 integers that YAML 1.2 dropped: `0777` is octal, `1_000` has separators and `1:30` is
// base 60, as in PyYAML.
const int11 = new yaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  // Every plain scalar is offered to each type in turn: most (names, words) fail the first test.
  resolve: (data: string | null) =>
    numberLike(data) &&
    (OCTAL_11.test(data) || DECIMAL_11.test(data) || SEXAGESIMAL.test(data) || types.int.resolve(data)),
  construct: (data: string) => {
    const sign = data.startsWith('-') ? -1 : 1;
    const body = data.replace(/^[-+]/, '').replaceAll('_', '');
    if (OCTAL_11.test(data) && body.length > 1) return sign * Number.parseInt(body, 8);
    if (DECIMAL_11.test(data)) return sign * Number(body);
    if (SEXAGESIMAL.test(data))
      return sign * body.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
    return types.int.construct(data);
  },
  predicate: (obj: unknown) => typeof obj === 'number' && Number.isInteger(obj),
  represent: (obj: object) => String(obj),
});

/**
 * Heat's YAML: no timestamp type (`2018-08-31` stays a string), YAML 1.1 booleans and integers,
 * merge keys; no binary/set/omap types, whose values have no JSON form.
 */
const float = new yaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) => numberLike(data) && types.float.resolve(data),
  construct: (data: string) => types.float.construct(data),
});

const HEAT_SCHEMA = yaml.FAILSAFE_SCHEMA.extend({
  implicit: [types.null, bool11, int11, float, types.merge],
});

function loadWithJsYaml(text: string, maxDepth: number): Json {
  // js-yaml counts up to two of its levels for one of the document's (a block sequence entry,
  // a flow collection's item, the scalar at the end): twice the limit, and a little, is surely
  // deeper; the exact limit is checked on the result. (Its typings predate the option.)
  const options: yaml.LoadOptions & { maxDepth: number } = {
    schema: HEAT_SCHEMA,
    json: true,
    maxDepth: 2 * maxDepth + 2,
  };
  return (yaml.load(text, options) ?? null) as Json;
}

export class FastYamlError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
    readonly column: number | undefined,
  ) {
    super(message);
  }
}

/** The document nests deeper than the limit: known from the fast parser, so the slow one never runs. */
export class FastYamlDepthError extends FastYamlError {}

/**
 * Parses YAML quickly (js-yaml is several times faster than the `yaml` package, which Hearth keeps
 * for positions). Returns undefined when the document uses anchors/aliases: those take the slower
 * path, whose alias limits stop "billion laughs" documents. Such a document is still read here
 * first, for its depth (js-yaml shares aliased nodes, so that costs no expansion): the slow parser
 * takes seconds over a document nested many thousands deep, and must never see one.
 */
export function loadYamlFast(text: string, maxDepth: number): Json | undefined {
  const anchored = text.includes('&') && /(^|[\s[{,:-])&[^\s,[\]{}]+/.test(text);
  try {
    const value = loadWithJsYaml(text, maxDepth);
    return anchored ? undefined : value;
  } catch (err) {
    if (err instanceof yaml.YAMLException) {
      const mark = err.mark as { line?: number; column?: number } | undefined;
      const line = mark?.line === undefined ? undefined : mark.line + 1;
      const column = mark?.column === undefined ? undefined : mark.column + 1;
      const reason = err.reason ?? err.message;
      if (reason.startsWith('nesting exceeded maxDepth')) throw new FastYamlDepthError(reason, line, column);
      if (anchored) return undefined;
      throw new FastYamlError(reason, line, column);
    }
    throw err;
  }
}

/** How many nodes a lenient read may expand a document's text into, per character. */
const EXPANSION_PER_CHARACTER = 16;

/**
 * A document with aliases that the `yaml` package refuses but js-yaml reads (as PyYAML, Heat's
 * parser, does: a quoted scalar continued on unindented lines, say): js-yaml's value, aliases
 * expanded, when the expansion stays within `maxNodes`; undefined otherwise or on any error.
 */
export function loadYamlLenient(text: string, maxDepth: number, maxNodes: number): Json | undefined {
  try {
    const value = loadWithJsYaml(text, maxDepth);
    // Aliases are shared objects: copied (unshared) only once the copy is known to be small, in
    // proportion to the text as well (no alias count is checked on this path).
    const limit = Math.min(maxNodes, EXPANSION_PER_CHARACTER * text.length);
    return expandedSize(value, limit) <= limit ? (JSON.parse(JSON.stringify(value)) as Json) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How many nodes `value` has once every alias is expanded, counted without expanding (each shared
 * object's size is computed once); stops counting past `limit`.
 */
function expandedSize(value: Json, limit: number): number {
  const sizes = new Map<object, number>();
  const size = (node: Json): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    let total = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      total += size(child);
      if (total > limit) break;
    }
    sizes.set(node, total);
    return total;
  };
  return size(value);
}
