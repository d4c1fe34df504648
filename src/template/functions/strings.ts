import { createHash } from 'node:crypto';
import { getOwn, isPlainObject, typeName } from '../../util/json.js';
import { describeNode, fail, isMap, literalList, resolveArg, showValue } from './args.js';
import { compareCodePoints, pyInt, pyJsonDumpsSorted, pySplitWhitespace, pyStr, pyTruthy } from './python.js';
import {
  containsUnknown,
  FnCall,
  type FunctionDef,
  isUnknown,
  type Node,
  type ResolveContext,
  UNKNOWN,
  type Unknown,
  type Value,
} from './types.js';

/** A string's length in code points, as Python's `len()` counts it. */
function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// list_join
// ---------------------------------------------------------------------------------------------

const JOIN_USAGE = '[<delimiter>, [<string>, ...]]';
const JOIN_MULTI_USAGE = '[<delimiter>, [<string>, ...], ...]';

function resolveDelimiter(call: FnCall, ctx: ResolveContext, node: Node): string | Unknown {
  const delimiter = resolveArg(ctx, node);
  if (isUnknown(delimiter) || typeof delimiter === 'string') return delimiter;
  return fail(call, `the delimiter must be a string, got ${typeName(delimiter)}`);
}

/** list_join before 2015-10-15 (and CFN Fn::Join): one list whose items must be strings. */
function checkJoin(call: FnCall): void {
  literalList(call, 2, 2, JOIN_USAGE);
}

function resolveJoin(call: FnCall, ctx: ResolveContext): Value {
  const [delimiterNode, listNode] = literalList(call, 2, 2, JOIN_USAGE) as [Node, Node];
  let items = resolveArg(ctx, listNode);
  if (isUnknown(items)) return UNKNOWN;
  if (items === null) items = [];
  if (!Array.isArray(items)) return fail(call, `can only join a list, got ${typeName(items)}`);
  const delimiter = resolveDelimiter(call, ctx, delimiterNode);
  let unknown = isUnknown(delimiter);
  const parts: string[] = [];
  for (const item of items) {
    if (item === null) parts.push('');
    else if (typeof item === 'string') parts.push(item);
    else if (isUnknown(item)) unknown = true;
    else fail(call, `items to join must be strings, got ${typeName(item)} ${showValue(item)}`);
  }
  return unknown ? UNKNOWN : parts.join(delimiter as string);
}

export const listJoin: FunctionDef = {
  name: 'list_join',
  description: 'Joins a list of strings with a delimiter.',
  check: checkJoin,
  resolve: resolveJoin,
};

/** CFN's Fn::Join behaves as the original list_join. */
export const joinOneList = { check: checkJoin, resolve: resolveJoin };

/** list_join from 2015-10-15: several lists; list and map items are joined as JSON. */
export const listJoinMulti: FunctionDef = {
  name: 'list_join',
  description: 'Joins one or more lists of strings with a delimiter; lists and maps are joined as JSON.',
  check(call) {
    literalList(call, 2, Number.POSITIVE_INFINITY, JOIN_MULTI_USAGE);
  },
  resolve(call, ctx) {
    const [delimiterNode, ...listNodes] = literalList(
      call,
      2,
      Number.POSITIVE_INFINITY,
      JOIN_MULTI_USAGE,
    ) as [Node, ...Node[]];
    // Heat resolves the lists together, so omitted ones drop out.
    const lists = ctx.resolve(listNodes) as Value[];
    let unknown = false;
    const items: Value[] = [];
    for (const list of lists) {
      if (isUnknown(list)) unknown = true;
      else if (!pyTruthy(list))
        continue; // Heat skips null and other empty values
      else if (Array.isArray(list)) for (const item of list) items.push(item);
      else fail(call, `can only join lists, got ${typeName(list)}`);
    }
    const delimiter = resolveDelimiter(call, ctx, delimiterNode);
    if (isUnknown(delimiter)) unknown = true;
    const parts: string[] = [];
    for (const item of items) {
      if (item === null) parts.push('');
      else if (typeof item === 'string') parts.push(item);
      else if (isUnknown(item)) unknown = true;
      else if (Array.isArray(item) || isMap(item)) {
        if (containsUnknown(item)) unknown = true;
        else parts.push(pyJsonDumpsSorted(item));
      } else
        fail(call, `items to join must be strings, lists or maps, got ${typeName(item)} ${showValue(item)}`);
    }
    return unknown ? UNKNOWN : parts.join(delimiter as string);
  },
};

// ---------------------------------------------------------------------------------------------
// str_replace and friends
// ---------------------------------------------------------------------------------------------

export interface ReplaceMode {
  /** Lists and maps are substituted as JSON (2015-10-15+); otherwise they are an error. */
  readonly json: boolean;
  /** Every param must occur in the template. */
  readonly strict: boolean;
  /** Null and empty values are allowed. */
  readonly allowEmpty: boolean;
}

const REPLACE_USAGE = '{template: "<text with var1>", params: {var1: <value>}}';

/** The HOT form `{template: ..., params: ...}`; other keys are ignored, as Heat does. */
function replaceArgs(call: FnCall): { template: Node; params: Node } {
  const args = call.args;
  if (!isPlainObject(args)) return fail(call, `arguments must be a map of the form ${REPLACE_USAGE}`);
  const map = args as { [key: string]: Node };
  const template = getOwn(map, 'template');
  const params = getOwn(map, 'params');
  if (template === undefined || params === undefined) {
    return fail(call, `arguments must have "template" and "params", as in ${REPLACE_USAGE}`);
  }
  checkParamsNode(call, params);
  return { template, params };
}

/** Heat rejects literal params that are not a map when the template is parsed. */
export function checkParamsNode(call: FnCall, params: Node): void {
  if (!(params instanceof FnCall) && !isPlainObject(params)) {
    fail(call, `"params" must be a map, got ${describeNode(params)}`);
  }
}

/** The text a param value is substituted as, UNKNOWN when not known yet. */
function replacementText(call: FnCall, key: string, value: Value, mode: ReplaceMode): string | Unknown {
  const empty = (): never =>
    fail(call, `param "${key}" has an undefined or empty value, which is not allowed`);
  if (isUnknown(value)) return UNKNOWN;
  if (value === null) return mode.allowEmpty ? '' : empty();
  if (Array.isArray(value) || isMap(value)) {
    if (!mode.json) fail(call, `params must be strings or numbers; param "${key}" is a ${typeName(value)}`);
    if (!mode.allowEmpty && !pyTruthy(value)) empty();
    return containsUnknown(value) ? UNKNOWN : pyJsonDumpsSorted(value);
  }
  const text = pyStr(value);
  if (!mode.allowEmpty && text === '') empty();
  return text;
}

/**
 * Heat's replacement: keys longest first (ties in code point order); each key splits the text
 * not yet replaced, so replaced text is never searched again.
 */
export function resolveReplace(
  call: FnCall,
  ctx: ResolveContext,
  templateNode: Node,
  paramsNode: Node,
  mode: ReplaceMode,
): Value {
  const template = resolveArg(ctx, templateNode);
  const params = resolveArg(ctx, paramsNode);
  if (!isUnknown(template) && typeof template !== 'string') {
    fail(call, `"template" must be a string, got ${typeName(template)}`);
  }
  if (isUnknown(params)) return UNKNOWN;
  if (!isMap(params)) return fail(call, `"params" must be a map, got ${typeName(params)}`);

  const keys = Object.keys(params)
    .sort(compareCodePoints)
    .sort((a, b) => codePointLength(b) - codePointLength(a));
  const texts = keys.map((key) => {
    const text = replacementText(call, key, params[key] as Value, mode);
    if (key === '') fail(call, 'param names must not be empty');
    return text;
  });
  if (isUnknown(template)) return UNKNOWN;

  // Segments still to search alternate with replacement texts (index into `texts`).
  let segments: (string | number)[] = [template];
  const found = new Set<number>();
  keys.forEach((key, index) => {
    const next: (string | number)[] = [];
    for (const segment of segments) {
      if (typeof segment === 'number') {
        next.push(segment);
        continue;
      }
      const pieces = segment.split(key);
      if (pieces.length > 1) found.add(index);
      pieces.forEach((piece, i) => {
        if (i > 0) next.push(index);
        if (piece !== '') next.push(piece);
      });
    }
    segments = next;
  });

  if (mode.strict && found.size < keys.length) {
    const missing = keys.filter((_, index) => !found.has(index));
    fail(call, `params not found in the template: ${missing.join(',')}`);
  }
  let result = '';
  for (const segment of segments) {
    const text = typeof segment === 'number' ? texts[segment] : segment;
    if (isUnknown(text)) return UNKNOWN;
    result += text;
  }
  return result;
}

function makeReplace(name: string, description: string, mode: ReplaceMode): FunctionDef {
  return {
    name,
    description,
    check(call) {
      replaceArgs(call);
    },
    resolve(call, ctx) {
      const { template, params } = replaceArgs(call);
      return resolveReplace(call, ctx, template, params, mode);
    },
  };
}

/** str_replace before 2015-10-15: param values must be strings or numbers. */
export const strReplace = makeReplace('str_replace', 'Substitutes params into a template string.', {
  json: false,
  strict: false,
  allowEmpty: true,
});

/** str_replace from 2015-10-15: list and map values are substituted as JSON. */
export const strReplaceJson = makeReplace(
  'str_replace',
  'Substitutes params into a template string; lists and maps are substituted as JSON.',
  { json: true, strict: false, allowEmpty: true },
);

export const strReplaceStrict = makeReplace(
  'str_replace_strict',
  'Like str_replace, but every param must occur in the template.',
  { json: true, strict: true, allowEmpty: true },
);

export const strReplaceVstrict = makeReplace(
  'str_replace_vstrict',
  'Like str_replace_strict, but param values must not be null or empty.',
  { json: true, strict: true, allowEmpty: false },
);

// ---------------------------------------------------------------------------------------------
// str_split
// ---------------------------------------------------------------------------------------------

const SPLIT_USAGE = '[<delimiter>, <string>, <optional index>]';

/** Python's `str.split(sep)`: a null separator splits on runs of whitespace. */
export function pySplit(call: FnCall, text: string, delimiter: Value): string[] {
  if (delimiter === null) return pySplitWhitespace(text);
  if (typeof delimiter !== 'string')
    return fail(call, `the delimiter must be a string, got ${typeName(delimiter)}`);
  if (delimiter === '') return fail(call, 'the delimiter must not be empty');
  return text.split(delimiter);
}

export const strSplit: FunctionDef = {
  name: 'str_split',
  description: 'Splits a string into a list by a delimiter, optionally selecting one item by index.',
  check(call) {
    const args = call.args;
    if (args instanceof FnCall) return;
    literalList(call, 2, Number.POSITIVE_INFINITY, SPLIT_USAGE);
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, call.args);
    if (isUnknown(args)) return UNKNOWN;
    if (!Array.isArray(args) || args.length < 2) {
      return fail(call, `arguments must be a list of the form ${SPLIT_USAGE}`);
    }
    // Like Heat, arguments after the index are ignored.
    const [delimiter, text, ...rest] = args as [Value, Value, ...Value[]];
    if (text === null) return null;
    if (isUnknown(text)) return UNKNOWN;
    if (typeof text !== 'string') return fail(call, `can only split a string, got ${typeName(text)}`);
    if (isUnknown(delimiter)) return UNKNOWN;
    const parts = pySplit(call, text, delimiter);
    if (rest.length === 0) return parts;
    const indexValue = rest[0] as Value;
    if (isUnknown(indexValue)) return UNKNOWN;
    const index = pyInt(indexValue);
    if (index === undefined) return fail(call, `the index must be an integer, got ${showValue(indexValue)}`);
    // Python indexing: negative indexes count from the end.
    if (index >= parts.length || index < -parts.length) {
      return fail(call, `index ${index} is out of range; it must be between 0 and ${parts.length - 1}`);
    }
    return parts[index < 0 ? parts.length + index : index] as string;
  },
};

// ---------------------------------------------------------------------------------------------
// digest
// ---------------------------------------------------------------------------------------------

/**
 * Heat accepts what Python's hashlib offers. These are the ones every Python build has (except
 * the shake variants, whose hexdigest needs a length and so fails in Heat). OpenSSL-backed names
 * are case-insensitive in Python; sha3 and blake2 are only known in lower case.
 */
const DIGESTS: ReadonlyMap<string, string> = new Map([
  ['md5', 'md5'],
  ['sha1', 'sha1'],
  ['sha224', 'sha224'],
  ['sha256', 'sha256'],
  ['sha384', 'sha384'],
  ['sha512', 'sha512'],
  ['sha512_224', 'sha512-224'],
  ['sha512_256', 'sha512-256'],
]);
const LOWER_CASE_DIGESTS: ReadonlyMap<string, string> = new Map([
  ['sha3_224', 'sha3-224'],
  ['sha3_256', 'sha3-256'],
  ['sha3_384', 'sha3-384'],
  ['sha3_512', 'sha3-512'],
  ['blake2b', 'blake2b512'],
  ['blake2s', 'blake2s256'],
]);
const DIGEST_NAMES = [...DIGESTS.keys(), ...LOWER_CASE_DIGESTS.keys()].join(', ');
const DIGEST_USAGE = '[<algorithm>, <value>]';

function digestAlgorithm(call: FnCall, name: string): string {
  const algorithm = DIGESTS.get(name.toLowerCase()) ?? LOWER_CASE_DIGESTS.get(name);
  return algorithm ?? fail(call, `unknown algorithm "${name}"; it must be one of ${DIGEST_NAMES}`);
}

export const digest: FunctionDef = {
  name: 'digest',
  description: 'Hashes a string with an algorithm such as sha256 and returns the hex digest.',
  check(call) {
    const args = call.args;
    if (args instanceof FnCall) return;
    if (!Array.isArray(args)) return fail(call, `arguments must be a list of strings ${DIGEST_USAGE}`);
    for (const item of args) {
      if (!(item instanceof FnCall) && typeof item !== 'string') {
        fail(call, `arguments must be a list of strings ${DIGEST_USAGE}, got ${describeNode(item)}`);
      }
    }
    literalList(call, 2, 2, DIGEST_USAGE);
    if (typeof args[0] === 'string') digestAlgorithm(call, args[0]);
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, call.args);
    if (isUnknown(args)) return UNKNOWN;
    if (!Array.isArray(args) || args.some((item) => typeof item !== 'string' && !isUnknown(item))) {
      return fail(call, `arguments must be a list of strings ${DIGEST_USAGE}`);
    }
    if (args.length !== 2) return fail(call, `expected 2 arguments ${DIGEST_USAGE}, got ${args.length}`);
    const [name, value] = args as [string | Unknown, string | Unknown];
    if (isUnknown(name)) return UNKNOWN;
    const algorithm = digestAlgorithm(call, name);
    if (isUnknown(value)) return UNKNOWN;
    // Heat encodes the value as Latin-1, which fails for other characters.
    if ([...value].some((ch) => ch.codePointAt(0)! > 0xff))
      fail(call, 'the value must only contain Latin-1 characters');
    return createHash(algorithm).update(Buffer.from(value, 'latin1')).digest('hex');
  },
};
