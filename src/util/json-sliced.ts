import type { Sliceable } from './loop-slice.js';

/** A document nested deeper than the parser was told to accept. */
export class JsonDepthError extends Error {
  override readonly name = 'JsonDepthError';
  constructor(readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth} levels`);
  }
}

/** Values parsed between points where the parser may pause. */
const STEP = 2048;

/** A container being filled: an array, or an object with the key whose value comes next. */
type Frame = { array: unknown[] } | { object: Record<string, unknown>; key: string };

/**
 * `JSON.parse` as sliceable work (util/loop-slice.ts), for documents big enough that one native
 * call holds the event loop: a 200,000-resource template is 7 MB, a tenth of a second parsed at
 * once. Same result as JSON.parse (no reviver): later duplicate keys win, `__proto__` is an own
 * key. Iterative, so depth costs no call stack; a container deeper than `maxDepth` (the root
 * container is depth 1) throws JsonDepthError. Syntax errors throw a SyntaxError naming the
 * position, worded as V8's (`... in JSON at position N`).
 */
export function* parseJsonSteps(text: string, maxDepth = Infinity): Sliceable<unknown> {
  const stack: Frame[] = [];
  let i = 0;
  let steps = 0;
  const fail = (at: number): never => {
    const what = at >= text.length ? 'Unexpected end of JSON input' : `Unexpected token ${text[at]}`;
    throw new SyntaxError(`${what} in JSON at position ${at}`);
  };
  const skipSpace = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const parseString = (): string => {
    // i is at the opening quote.
    const start = ++i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) return text.slice(start, i++);
      if (c === 92) break;
      if (c < 32 || Number.isNaN(c)) fail(i);
      i++;
    }
    let out = text.slice(start, i);
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return out;
      }
      if (c < 32 || Number.isNaN(c)) fail(i);
      if (c !== 92) {
        const run = i;
        while (i < text.length) {
          const d = text.charCodeAt(i);
          if (d === 34 || d === 92 || d < 32) break;
          i++;
        }
        out += text.slice(run, i);
        continue;
      }
      const e = text[i + 1];
      i += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(i);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default:
          fail(i - 1);
      }
    }
  };
  const parseNumber = (): number => {
    const start = i;
    if (text.charCodeAt(i) === 45) i++;
    const digits = () => {
      const from = i;
      while (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
      if (i === from) fail(i);
    };
    if (text.charCodeAt(i) === 48) i++;
    else digits();
    if (text.charCodeAt(i) === 46) {
      i++;
      digits();
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      digits();
    }
    return Number(text.slice(start, i));
  };
  const literal = (word: string, value: unknown): unknown => {
    for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) fail(i + k);
    i += word.length;
    return value;
  };

  let result: unknown;
  // Each turn reads one value (a scalar, or the opening of a container), then closes whatever
  // containers end after it, handing each finished value to its parent.
  for (;;) {
    if (++steps % STEP === 0) yield;
    skipSpace();
    let value: unknown;
    let opened: Frame | undefined;
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) {
      i++;
      skipSpace();
      if (stack.length + 1 > maxDepth) throw new JsonDepthError(maxDepth);
      if (text.charCodeAt(i) === 125) {
        i++;
        value = {};
      } else {
        if (text.charCodeAt(i) !== 34) fail(i);
        const key = parseString();
        skipSpace();
        if (text.charCodeAt(i) !== 58) fail(i);
        i++;
        opened = { object: {}, key };
      }
    } else if (c === 91 /* [ */) {
      i++;
      skipSpace();
      if (stack.length + 1 > maxDepth) throw new JsonDepthError(maxDepth);
      if (text.charCodeAt(i) === 93) {
        i++;
        value = [];
      } else opened = { array: [] };
    } else if (c === 34) value = parseString();
    else if (c === 45 || (c >= 48 && c <= 57)) value = parseNumber();
    else if (c === 116) value = literal('true', true);
    else if (c === 102) value = literal('false', false);
    else if (c === 110) value = literal('null', null);
    else fail(i);
    if (opened) {
      stack.push(opened);
      continue;
    }
    // Hand the value to its container; close every container that ends here.
    for (;;) {
      const top = stack.at(-1);
      if (!top) {
        result = value;
        break;
      }
      if ('array' in top) top.array.push(value);
      else if (top.key === '__proto__') {
        Object.defineProperty(top.object, '__proto__', {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else top.object[top.key] = value;
      skipSpace();
      const next = text.charCodeAt(i);
      if (next === 44 /* , */) {
        i++;
        if ('object' in top) {
          skipSpace();
          if (text.charCodeAt(i) !== 34) fail(i);
          top.key = parseString();
          skipSpace();
          if (text.charCodeAt(i) !== 58) fail(i);
          i++;
        }
        break;
      }
      if (next !== ('array' in top ? 93 : 125)) fail(i);
      i++;
      stack.pop();
      value = 'array' in top ? top.array : top.object;
    }
    if (stack.length === 0) break;
  }
  skipSpace();
  if (i < text.length) fail(i);
  return result;
}

/** A container being written: the values of an array, or the keys of an object, and the next one. */
type WriteFrame =
  { array: readonly unknown[]; i: number } | { object: Record<string, unknown>; keys: string[]; i: number };

/**
 * `JSON.stringify(value)` as sliceable work, for the values JSON.parse makes (no `toJSON`, no
 * `undefined`): the same text, written without recursion. `written.lossy` is set when the text does
 * not parse back to an equal value (a number that is -0 or not finite).
 */
export function* stringifyJsonSteps(value: unknown, written?: { lossy: boolean }): Sliceable<string> {
  const chunks: string[] = [];
  let out: string[] = [];
  const stack: WriteFrame[] = [];
  let steps = 0;
  let current = value;
  for (;;) {
    if (++steps % STEP === 0) {
      chunks.push(out.join(''));
      out = [];
      yield;
    }
    let opened = false;
    if (current !== null && typeof current === 'object') {
      if (Array.isArray(current)) {
        if (current.length === 0) out.push('[]');
        else {
          out.push('[');
          stack.push({ array: current, i: 0 });
          current = current[0];
          opened = true;
        }
      } else {
        const object = current as Record<string, unknown>;
        const keys = Object.keys(object);
        if (keys.length === 0) out.push('{}');
        else {
          out.push('{', JSON.stringify(keys[0]), ':');
          stack.push({ object, keys, i: 0 });
          current = object[keys[0]!];
          opened = true;
        }
      }
    } else {
      if (written && typeof current === 'number' && (!Number.isFinite(current) || Object.is(current, -0)))
        written.lossy = true;
      out.push(JSON.stringify(current) ?? 'null');
    }
    if (opened) continue;
    // The value is written: move to the next one, closing every container that ends here.
    for (;;) {
      const top = stack.at(-1);
      if (!top) {
        chunks.push(out.join(''));
        return chunks.join('');
      }
      top.i++;
      if ('array' in top) {
        if (top.i < top.array.length) {
          out.push(',');
          current = top.array[top.i];
          break;
        }
        out.push(']');
      } else {
        if (top.i < top.keys.length) {
          const key = top.keys[top.i]!;
          out.push(',', JSON.stringify(key), ':');
          current = top.object[key];
          break;
        }
        out.push('}');
      }
      stack.pop();
    }
  }
}
