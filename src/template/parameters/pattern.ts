/**
 * `allowed_pattern` values are Python regular expressions. The common syntax is shared with
 * JavaScript; the Python-only spellings below are translated, and the rest is left to RegExp:
 *   (?P<name>...) named group, (?P=name) backreference, \A and \Z anchors, {,n} quantifier,
 *   leading inline flags (?i) (?m) (?s) (and the no-op a, L, u), and `$`, which in Python also
 *   matches before a final newline.
 * Known difference: \d, \w, \s and \b are ASCII-only here (Python's are Unicode-aware).
 */

const cache = new Map<string, RegExp>();

/** Compiles a Python pattern; throws an Error whose message says what is wrong. */
export function compilePythonPattern(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const { source, flags } = translate(pattern);
  // Sticky: matches only at lastIndex (0), which is Python's re.match.
  const re = new RegExp(source, `${flags}y`);
  if (cache.size > 500) cache.clear();
  cache.set(pattern, re);
  return re;
}

/**
 * Heat's test: `re.match(pattern, value)` must succeed and end at the end of the value. This is
 * not quite a full match: for `a|ab` the first alternative wins, so `ab` fails, exactly as in Heat.
 */
export function matchesWhole(pattern: string, value: string): boolean {
  const re = compilePythonPattern(pattern);
  re.lastIndex = 0;
  const m = re.exec(value);
  return m !== null && m[0].length === value.length;
}

function translate(pattern: string): { source: string; flags: string } {
  let flags = '';
  let rest = pattern;
  const lead = /^\(\?([aiLmsux]+)\)/.exec(rest);
  if (lead) {
    const letters = lead[1] ?? '';
    if (letters.includes('x')) throw new Error('the verbose flag (?x) is not supported');
    for (const f of ['i', 'm', 's']) if (letters.includes(f)) flags += f;
    rest = rest.slice(lead[0].length);
  }
  const multiline = flags.includes('m');
  let out = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (ch === '\\') {
      const next = rest[i + 1];
      if (next === undefined) throw new Error('bad escape (end of pattern)');
      i++;
      // Lookarounds rather than ^ and $, which (?m) would turn into line anchors.
      if (!inClass && next === 'A') out += '(?<![\\s\\S])';
      else if (!inClass && next === 'Z') out += '(?![\\s\\S])';
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      out += ch;
      // A `]` (after an optional `^`) right at the start of a class is literal in Python.
      if (rest[i + 1] === '^') out += rest[++i];
      if (rest[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (rest.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    const backref = /^\(\?P=(\w+)\)/.exec(rest.slice(i));
    if (backref) {
      out += `\\k<${backref[1]}>`;
      i += backref[0].length - 1;
      continue;
    }
    const lazyMin = /^\{,(\d+)\}/.exec(rest.slice(i));
    if (lazyMin) {
      out += `{0,${lazyMin[1]}}`;
      i += lazyMin[0].length - 1;
      continue;
    }
    if (ch === '$' && !multiline) {
      out += '(?=\\n?$)';
      continue;
    }
    out += ch;
  }
  if (inClass) throw new Error('unterminated character set');
  return { source: out, flags };
}
