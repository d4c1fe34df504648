import type { CustomConstraintValidator } from './types.js';

/*
 * Offline equivalents of Heat's iso_8601, expiration and timezone constraints, which use
 * oslo timeutils.parse_isotime (the `iso8601` package) and Python's zoneinfo.
 */

/** The `iso8601` package's grammar: YYYY, YYYY-MM, YYYY-MM-DD or YYYYMMDD, optional time and zone. */
const ISO8601 = new RegExp(
  '^(?<year>\\d{4})' +
    '(?:(?:-(?<monthdash>\\d{1,2})|(?<month>\\d{2})(?!$))' +
    '(?:(?:-(?<daydash>\\d{1,2})|(?<day>\\d{2}))' +
    '(?:[ T](?<hour>\\d{2})(?::?(?<minute>\\d{2}))?' +
    '(?::?(?<second>\\d{1,2})(?:[.,](?<fraction>\\d+))?)?' +
    '(?<tz>Z|(?<tzsign>[-+])(?<tzhour>\\d{2}):?(?<tzminute>\\d{2})?)?' +
    ')?)?)?$',
);

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds since the epoch (naive times read as UTC), or undefined when Heat would not parse it. */
export function parseIsoTime(text: string): number | undefined {
  const g = ISO8601.exec(text)?.groups;
  if (!g) return undefined;
  const num = (s: string | undefined, dflt: number) => (s === undefined ? dflt : Number(s));
  const year = num(g.year, 0);
  const month = num(g.monthdash ?? g.month, 1);
  const day = num(g.daydash ?? g.day, 1);
  const hour = num(g.hour, 0);
  const minute = num(g.minute, 0);
  const second = num(g.second, 0);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (g.tzsign !== undefined) {
    offsetMinutes = (num(g.tzhour, 0) * 60 + num(g.tzminute, 0)) * (g.tzsign === '-' ? -1 : 1);
    // Python's timezone() refuses offsets of a day or more.
    if (Math.abs(offsetMinutes) >= 24 * 60) return undefined;
  }
  const millis = g.fraction === undefined ? 0 : Math.floor(Number(`0.${g.fraction}`) * 1000);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime() - offsetMinutes * 60_000;
}

export const iso8601: CustomConstraintValidator = (value) =>
  typeof value === 'string' && parseIsoTime(value) !== undefined ? undefined : '';

/** An ISO 8601 time in the future; `now` is injectable for tests. */
export function expirationValidator(now: () => number = Date.now): CustomConstraintValidator {
  return (value) => {
    if (value === null || value === '') return undefined;
    const text = String(value);
    const when = typeof value === 'string' ? parseIsoTime(value.trim()) : undefined;
    if (when === undefined) return `Expiration ${text} is invalid: Unable to parse date string '${text}'`;
    if (when > now()) return undefined;
    return `Expiration ${text} is invalid: Expiration time is out of date.`;
  };
}

/**
 * An IANA zone name, as zoneinfo.ZoneInfo accepts. Intl knows the same database but matches names
 * without regard to case, where zoneinfo's file lookup is case-sensitive: a name that Intl only
 * recognises by changing its case (`america/new_york`) is refused.
 */
export const timezone: CustomConstraintValidator = (value) => {
  if (value === null || value === '') return undefined;
  const name = String(value);
  const invalid = `Invalid timezone: 'No time zone found with key ${name}'`;
  if (typeof value !== 'string' || /^[+-]/.test(name)) return invalid;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return invalid;
  }
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return invalid;
  return undefined;
};
