import type { Budget } from '../budget.js';
import { fault } from '../budget.js';
import {
  escapeRegex,
  expandTemplate,
  Regex,
  type RegexMatch,
  RegexSyntaxError,
  searchFirst,
  matchAll,
  splitByRegex,
  Subject,
  substitute,
} from '../regex/index.js';
import { NamedArgs } from '../scope.js';
import { lazy, truthy, typeName } from '../values.js';
import { type Call, define, type FunctionDef, type Lambda } from './types.js';

/**
 * yaql's regex functions (yaql/standard_library/regex.py) on Hearth's own Python-flavoured
 * matcher (../regex/): `regex()` makes a pattern value; `matches`, `search`, `searchAll`, and the
 * regex forms of `split`, `replace`, `replaceBy` take one. Matching costs evaluation steps.
 */

/** Compiles, turning Python's `re.error` equivalents into a yaql error naming the pattern. */
function compile(pattern: string, flags: Partial<Regex['flags']>, budget: Budget, who: string): Regex {
  try {
    return Regex.compile(pattern, { ignoreCase: false, multiLine: false, dotAll: false, ...flags }, budget);
  } catch (error) {
    if (error instanceof RegexSyntaxError) {
      return fault(`${who}: invalid regular expression ${JSON.stringify(pattern)}: ${error.message}`);
    }
    throw error;
  }
}

function regex(c: Call): Regex {
  return compile(
    c.string(0),
    { ignoreCase: truthy(c.value(1)), multiLine: truthy(c.value(2)), dotAll: truthy(c.value(3)) },
    c.budget,
    'regex()',
  );
}

/** A Regex as it is, or a string pattern compiled without flags. */
function asRegex(value: unknown, budget: Budget, who: string): Regex {
  if (value instanceof Regex) return value;
  if (typeof value === 'string') return compile(value, {}, budget, who);
  return fault(`${who}: the pattern must be a string or a regex, not ${typeName(value)}`);
}

function subjectOf(value: unknown, who: string, budget: Budget): Subject {
  if (typeof value !== 'string')
    return fault(`${who}: the string to match must be a string, not ${typeName(value)}`);
  return new Subject(value, budget);
}

/** Python's `re.search(pattern, string) is not None`: a match anywhere, not only at the start. */
export function regexMatches(text: unknown, pattern: unknown, budget: Budget, who = 'matches()'): boolean {
  const compiled = asRegex(pattern, budget, who);
  return searchFirst(compiled, subjectOf(text, who, budget), budget) !== null;
}

/** matches(regex, string), or string.matches(pattern or regex). */
function matches(c: Call): boolean {
  const [first, second] = [c.value(0), c.value(1)];
  if (first instanceof Regex) return regexMatches(second, first, c.budget);
  return regexMatches(first, second, c.budget);
}

/**
 * What a selector sees for a match, as yaql publishes it: `$` (and `$1`) is
 * {value, start, end} of the whole match, `$2`... of each group, `$name` of named groups.
 */
function publish(match: RegexMatch): unknown[] {
  const record = (group: number) =>
    new Map<unknown, unknown>([
      ['value', match.group(group)],
      ['start', match.start(group)],
      ['end', match.end(group)],
    ]);
  const groups = Array.from({ length: match.regex.groupCount + 1 }, (_, g) => record(g));
  const named = new Map([...match.regex.groupNames].map(([name, g]) => [name, groups[g]]));
  return [...groups, new NamedArgs(named)];
}

function receiverRegex(c: Call): [Regex, Subject] {
  const first = c.value(0);
  if (!(first instanceof Regex)) return c.wrongType(0, 'a regex (from regex())', first);
  return [first, subjectOf(c.value(1), `${c.def.name}()`, c.budget)];
}

function search(c: Call): unknown {
  const [compiled, subject] = receiverRegex(c);
  const match = searchFirst(compiled, subject, c.budget);
  if (match === null) return null;
  const selector = c.optLambda(2);
  return selector ? selector(...publish(match)) : match.group();
}

function searchAll(c: Call): unknown[] {
  const [compiled, subject] = receiverRegex(c);
  const selector = c.optLambda(2);
  const out: unknown[] = [];
  for (const match of matchAll(compiled, subject, c.budget)) {
    c.budget.spend();
    out.push(selector ? selector(...publish(match)) : match.group());
  }
  return lazy(out);
}

/** The regex and the string of regex.f(string, ...) or string.f(regex, ...). */
function regexAndSubject(c: Call): [Regex, Subject] {
  const [first, second] = [c.value(0), c.value(1)];
  if (first instanceof Regex) return [first, subjectOf(second, `${c.def.name}()`, c.budget)];
  if (second instanceof Regex) return [second, subjectOf(first, `${c.def.name}()`, c.budget)];
  return c.fail('needs a regex (from regex()) and a string');
}

export function isRegexCall(c: Call): boolean {
  return c.value(0) instanceof Regex || c.value(1) instanceof Regex;
}

/** regex.split(string, maxSplit => 0) or string.split(regex, maxSplit => 0): Python's re.split. */
export function regexSplit(c: Call, maxSplit: number): (string | null)[] {
  const [compiled, subject] = regexAndSubject(c);
  return splitByRegex(compiled, subject, maxSplit, c.budget);
}

/** regex.replace(string, repl, count => 0) or string.replace(regex, repl, count => 0): re.sub. */
export function regexReplace(c: Call): string {
  const [compiled, subject] = regexAndSubject(c);
  const template = c.string(2);
  let expand: (match: RegexMatch) => string;
  try {
    expand = expandTemplate(compiled, template);
  } catch (error) {
    if (error instanceof RegexSyntaxError)
      return c.fail(`invalid replacement ${JSON.stringify(template)}: ${error.message}`);
    throw error;
  }
  return substitute(compiled, subject, expand, c.intOr(3, 0), c.budget);
}

/** replaceBy: each match replaced by what the lambda gives for it (it sees what search's selector sees). */
function replaceBy(c: Call): string {
  const [compiled, subject] = regexAndSubject(c);
  const selector: Lambda = c.lambda(2);
  const replacement = (match: RegexMatch): string => {
    const value = selector(...publish(match));
    if (typeof value !== 'string') return c.fail(`the replacement must be a string, not ${typeName(value)}`);
    return value;
  };
  return substitute(compiled, subject, replacement, c.intOr(3, 0), c.budget);
}

export const REGEX_FUNCTIONS: readonly FunctionDef[] = [
  define('regex', ['pattern', 'ignoreCase?', 'multiLine?', 'dotAll?'], regex),
  define('matches', ['string', 'regexp'], matches),
  define('search', ['regexp', 'string', 'selector?:lambda'], search),
  define('searchAll', ['regexp', 'string', 'selector?:lambda'], searchAll),
  define('replaceBy', ['regexp', 'string', 'repl:lambda', 'count?'], replaceBy),
  define('escapeRegex', ['string'], (c) => escapeRegex(c.string(0))),
  define('isRegex', ['value'], (c) => c.value(0) instanceof Regex),
];
