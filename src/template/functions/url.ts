import { getOwn, isPlainObject, typeName } from '../../util/json.js';
import { describeNode, fail, isMap, resolveArg } from './args.js';
import { pyInt, pyStr, pyTruthy } from './python.js';
import {
  containsUnknown,
  FnCall,
  type FunctionDef,
  isUnknown,
  type Node,
  UNKNOWN,
  type Value,
} from './types.js';

const ARG_KEYS = ['scheme', 'username', 'password', 'host', 'port', 'path', 'query', 'fragment'] as const;

/** Schemes Python's urlunsplit writes with `//` even without a host (Python 3.13's list). */
const USES_NETLOC = new Set([
  'ftp',
  'http',
  'gopher',
  'nntp',
  'telnet',
  'imap',
  'wais',
  'file',
  'mms',
  'https',
  'shttp',
  'snews',
  'prospero',
  'rtsp',
  'rtsps',
  'rtspu',
  'rsync',
  'svn',
  'svn+ssh',
  'sftp',
  'nfs',
  'git',
  'git+ssh',
  'ws',
  'wss',
  'itms-services',
]);

/** Heat's per-argument rules, applied to literal arguments when parsed and to values when resolved. */
function checkArgument(call: FnCall, key: string, value: Node | Value): void {
  if (value instanceof FnCall || isUnknown(value)) return;
  if (key === 'query') {
    if (!isPlainObject(value)) fail(call, `"query" must be a map, got ${typeName(value)}`);
  } else if (key === 'port') {
    // Like Python's int(): integers, numeric strings (and floats, truncated) are accepted.
    const port = pyInt(value as Value);
    if (port === undefined) {
      const shown = typeof value === 'string' ? JSON.stringify(value) : describeNode(value as Node);
      fail(call, `invalid port ${shown}; it must be an integer`);
    }
    if (port < 1 || port > 65535) fail(call, `invalid port ${port}; it must be in the range 1-65535`);
  } else if (typeof value !== 'string') {
    fail(call, `"${key}" must be a string, got ${describeNode(value as Node)}`);
  }
}

function argumentMap(call: FnCall): { [key: string]: Node } {
  const args = call.args;
  if (!isPlainObject(args)) return fail(call, `arguments must be a map of ${ARG_KEYS.join(', ')}`);
  const invalid = Object.keys(args).filter((key) => !(ARG_KEYS as readonly string[]).includes(key));
  if (invalid.length > 0)
    fail(call, `invalid arguments ${invalid.join(', ')}; expected ${ARG_KEYS.join(', ')}`);
  return args as { [key: string]: Node };
}

/** Python's urllib.parse.quote: UTF-8 bytes, all but unreserved and `safe` characters escaped. */
function quote(call: FnCall, text: string, safe: string, spaceAsPlus = false): string {
  if (/[\uD800-\uDFFF]/u.test(text)) fail(call, `${JSON.stringify(text)} is not valid Unicode text`);
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.~-]/.test(ch) || (byte < 0x80 && safe.includes(ch))) out += ch;
    else if (spaceAsPlus && ch === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Python's urlencode of a map: `k=v` pairs joined with `&`, non-strings as Python's str(). */
function urlencode(call: FnCall, query: { [key: string]: Value }): string {
  return Object.keys(query)
    .map((key) => `${quote(call, key, '', true)}=${quote(call, pyStr(query[key] as Value), '', true)}`)
    .join('&');
}

/** Python's urlunsplit (3.12.6 and later, which keep a relative path relative). */
function urlunsplit(scheme: string, netloc: string, path: string, query: string, fragment: string): string {
  let url = path;
  if (netloc) {
    if (url && !url.startsWith('/')) url = `/${url}`;
    url = `//${netloc}${url}`;
  } else if (url.startsWith('//')) {
    url = `//${url}`;
  } else if (scheme && USES_NETLOC.has(scheme) && (!url || url.startsWith('/'))) {
    url = `//${url}`;
  }
  if (scheme) url = `${scheme}:${url}`;
  if (query) url = `${url}?${query}`;
  if (fragment) url = `${url}#${fragment}`;
  return url;
}

export const makeUrl: FunctionDef = {
  name: 'make_url',
  description:
    'Builds a correctly escaped URL from scheme, username, password, host, port, path, query and fragment.',
  check(call) {
    const args = argumentMap(call);
    for (const key of Object.keys(args)) checkArgument(call, key, args[key] as Node);
  },
  resolve(call, ctx) {
    const args = resolveArg(ctx, argumentMap(call));
    if (!isMap(args)) return UNKNOWN;
    let unknown = false;
    for (const key of Object.keys(args)) {
      const value = args[key] as Value;
      checkArgument(call, key, value);
      if (containsUnknown(value)) unknown = true;
    }
    const text = (key: string): string => {
      const value = getOwn(args, key);
      return typeof value === 'string' ? value : '';
    };
    const scheme = text('scheme');
    if (scheme.includes(':')) fail(call, `"scheme" must not contain ":", got ${JSON.stringify(scheme)}`);
    if (unknown) return UNKNOWN;

    const username = quote(call, text('username'), '');
    const password = quote(call, text('password'), '');
    let netloc = '';
    if (username || password) netloc += `${username}${password ? `:${password}` : ''}@`;
    let host = text('host');
    if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
    host = quote(call, host, ':');
    // An IPv6 address (any host with a colon) goes in brackets.
    netloc += host.includes(':') ? `[${host}]` : host;
    const port = getOwn(args, 'port');
    if (port !== undefined && pyTruthy(port)) netloc += `:${pyStr(port)}`;

    const path = quote(call, text('path'), '/');
    const queryValue = getOwn(args, 'query');
    // Heat leaves slashes in query values unescaped.
    const query = isMap(queryValue ?? null) ? urlencode(call, queryValue as { [key: string]: Value }) : '';
    const fragment = quote(call, text('fragment'), '/');
    return urlunsplit(scheme, netloc, path, query.replaceAll('%2F', '/'), fragment);
  },
};
