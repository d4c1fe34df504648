const cache = new Map<string, RegExp | string>();
const CACHE_LIMIT = 10_000;

/** Whether a pattern uses any fnmatch wildcard; one without matches only its own text. */
export function isWildcardPattern(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/**
 * Python's fnmatch.fnmatchcase, which Heat uses for resource names in `resources:`: `*` matches
 * anything, `?` one character, `[seq]` / `[!seq]` a character (not) in seq; case-sensitive, and
 * the whole name must match.
 */
export function fnmatch(name: string, pattern: string): boolean {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compile(pattern);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(pattern, compiled);
  }
  return typeof compiled === 'string' ? name === compiled : compiled.test(name);
}

function compile(pattern: string): RegExp | string {
  if (!isWildcardPattern(pattern)) return pattern;
  let source = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i++]!;
    if (ch === '*') source += '[\\s\\S]*';
    else if (ch === '?') source += '[\\s\\S]';
    else if (ch === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) {
        source += '\\[';
      } else {
        source += charClass(pattern.slice(i, end));
        i = end + 1;
      }
    } else {
      source += escapeRegExp(ch);
    }
  }
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    // An invalid range such as [z-a]: Python matches nothing there; a literal compare is close enough.
    return pattern;
  }
}

/** Index of the `]` closing a class opened just before `start`, or -1 when the `[` is literal. */
function classEnd(pattern: string, start: number): number {
  let j = start;
  if (pattern[j] === '!') j++;
  if (pattern[j] === ']') j++; // a leading ] is a member, not the end
  while (j < pattern.length && pattern[j] !== ']') j++;
  return j < pattern.length ? j : -1;
}

function charClass(body: string): string {
  const negated = body.startsWith('!');
  const members = negated ? body.slice(1) : body;
  const escaped = members.replace(/[\\\]^[]/g, (c) => `\\${c}`);
  return `[${negated ? '^' : ''}${escaped}]`;
}

function escapeRegExp(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
