import { fault } from './budget.js';
import { DateTime, type Fields, MICROS, offsetText, pad } from './time.js';

/** Python's strftime and strptime (C locale) for yaql's format() and datetime(string, format). */

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function dayOfYear(f: Fields): number {
  const start = DateTime.fromFields(
    { ...f, month: 1, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 },
    0n,
  );
  const day = DateTime.fromFields({ ...f, hour: 0, minute: 0, second: 0, microsecond: 0 }, 0n);
  return Number((day.instant - start.instant) / MICROS.day) + 1;
}

export function strftime(dt: DateTime, format: string): string {
  const f = dt.fields();
  const weekday = f.weekday!;
  const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
  const directive = (code: string): string => {
    switch (code) {
      case 'a':
        return DAYS[weekday]!.slice(0, 3);
      case 'A':
        return DAYS[weekday]!;
      case 'w':
        return String((weekday + 1) % 7);
      case 'd':
        return pad(f.day, 2);
      case 'b':
      case 'h':
        return MONTHS[f.month - 1]!.slice(0, 3);
      case 'B':
        return MONTHS[f.month - 1]!;
      case 'm':
        return pad(f.month, 2);
      case 'y':
        return pad(f.year % 100, 2);
      case 'Y':
        return String(f.year);
      case 'H':
        return pad(f.hour, 2);
      case 'I':
        return pad(hour12, 2);
      case 'p':
        return f.hour < 12 ? 'AM' : 'PM';
      case 'M':
        return pad(f.minute, 2);
      case 'S':
        return pad(f.second, 2);
      case 'f':
        return pad(f.microsecond, 6);
      case 'z':
        return offsetText(dt.offset, '');
      case 'Z':
        // dateutil names only UTC; a fixed offset has no zone name.
        return dt.offset === 0n ? 'UTC' : '';
      case 'j':
        return pad(dayOfYear(f), 3);
      case 'c':
        return `${directive('a')} ${directive('b')} ${String(f.day).padStart(2, ' ')} ${directive('X')} ${f.year}`;
      case 'x':
        return `${directive('m')}/${directive('d')}/${directive('y')}`;
      case 'X':
        return `${directive('H')}:${directive('M')}:${directive('S')}`;
      case 'F':
        return `${pad(f.year, 4)}-${directive('m')}-${directive('d')}`;
      case 'T':
        return directive('X');
      case '%':
        return '%';
      default:
        return fault(`format(): unsupported directive %${code}`);
    }
  };
  // glibc's "%-d" (no padding) is common in templates written on Linux, where Python takes it.
  return format.replace(/%(-?)(.?)/gsu, (_, unpadded: string, code: string) => {
    if (code === '') return `%${unpadded}`;
    const text = directive(code);
    return unpadded && /^\d+$/.test(text) ? String(Number(text)) : text;
  });
}

interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  pm: boolean | null;
  offset: bigint | null;
}

const NUMERIC: Record<string, [keyof Parsed, number]> = {
  Y: ['year', 4],
  m: ['month', 2],
  d: ['day', 2],
  H: ['hour', 2],
  I: ['hour', 2],
  M: ['minute', 2],
  S: ['second', 2],
  y: ['year', 2],
  f: ['microsecond', 6],
};

/** datetime.strptime: the whole string must match the format; the result is UTC unless %z says otherwise. */
export function strptime(text: string, format: string): DateTime {
  const p: Parsed = {
    year: 1900,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    microsecond: 0,
    pm: null,
    offset: null,
  };
  let at = 0;
  const mismatch = (): never =>
    fault(`time data ${JSON.stringify(text)} does not match format ${JSON.stringify(format)}`);
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch !== '%') {
      if (/\s/.test(ch)) {
        while (at < text.length && /\s/.test(text[at]!)) at++;
      } else if (text[at++] !== ch) {
        mismatch();
      }
      continue;
    }
    const code = format[++i] ?? '';
    const numeric = NUMERIC[code];
    if (numeric) {
      const match = new RegExp(`^\\d{1,${numeric[1]}}`).exec(text.slice(at)) ?? mismatch();
      at += match[0].length;
      let value = Number(match[0]);
      if (code === 'y') value += value < 69 ? 2000 : 1900;
      if (code === 'f') value = Number(match[0].padEnd(6, '0'));
      (p as unknown as Record<string, number>)[numeric[0]] = value;
    } else if (code === 'b' || code === 'B' || code === 'h') {
      const index = MONTHS.findIndex((name) => {
        const full = text.slice(at, at + name.length).toLowerCase() === name.toLowerCase();
        return full || text.slice(at, at + 3).toLowerCase() === name.slice(0, 3).toLowerCase();
      });
      if (index < 0) mismatch();
      const name = MONTHS[index]!;
      at += text.slice(at, at + name.length).toLowerCase() === name.toLowerCase() ? name.length : 3;
      p.month = index + 1;
    } else if (code === 'a' || code === 'A') {
      const name = DAYS.find((d) => text.slice(at, at + d.length).toLowerCase() === d.toLowerCase());
      const short = DAYS.find((d) => text.slice(at, at + 3).toLowerCase() === d.slice(0, 3).toLowerCase());
      if (!name && !short) mismatch();
      at += name ? name.length : 3;
    } else if (code === 'p') {
      const marker = text.slice(at, at + 2).toUpperCase();
      if (marker !== 'AM' && marker !== 'PM') mismatch();
      p.pm = marker === 'PM';
      at += 2;
    } else if (code === 'z') {
      const match = /^(?:Z|([+-])(\d\d):?(\d\d)(?::?(\d\d))?)/.exec(text.slice(at)) ?? mismatch();
      at += match[0].length;
      p.offset = offsetFrom(match[1], match[2], match[3], match[4]);
    } else if (code === '%') {
      if (text[at++] !== '%') mismatch();
    } else {
      fault(`datetime(): unsupported directive %${code}`);
    }
  }
  if (at !== text.length) fault(`unconverted data remains: ${text.slice(at)}`);
  if (p.pm !== null && format.includes('%I')) p.hour = (p.hour % 12) + (p.pm ? 12 : 0);
  return DateTime.fromFields(p, p.offset ?? 0n);
}

function offsetFrom(sign?: string, hours?: string, minutes?: string, seconds?: string): bigint {
  if (sign === undefined) return 0n;
  const total = BigInt(Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds ?? 0)) * MICROS.second;
  return sign === '-' ? -total : total;
}

const ISO =
  /^(\d{4})-?(\d\d)-?(\d\d)(?:[T ](\d\d)(?::?(\d\d)(?::?(\d\d)(?:[.,](\d{1,6})\d*)?)?)?)?\s*(Z|UTC|GMT|([+-])(\d\d):?(\d\d)?)?$/i;
const WORDY =
  /^(?:[A-Za-z]{3,9},?\s+)?([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})(?:\s+(\d{1,2}):(\d\d)(?::(\d\d))?)?$/;
/** RFC 2822 / HTTP dates: "Tue, 19 Jul 2016 08:49:00 GMT", "19 Jul 2016 08:49 +0200". */
const RFC2822 =
  /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{4})(?:\s+(\d{1,2}):(\d\d)(?::(\d\d))?)?(?:\s*(GMT|UTC|Z|([+-])(\d\d)(\d\d)))?$/i;
const DOTTED = /^(\d{1,2})[./](\d{1,2})[./](\d{4})(?:\s+(\d{1,2}):(\d\d)(?::(\d\d))?)?$/;

/**
 * datetime(string) without a format. yaql hands the string to dateutil's guessing parser; Hearth
 * reads the forms templates use: ISO 8601 (with or without a zone), "Jan 5 2015 10:00" and
 * "29.08.2015" (day first with dots, month first with slashes, as dateutil does).
 */
export function parseDateTime(text: string): DateTime {
  const trimmed = text.trim();
  const iso = ISO.exec(trimmed);
  if (iso) {
    const zone = iso[8];
    const offset =
      zone === undefined || /^(z|utc|gmt)$/i.test(zone) ? 0n : offsetFrom(iso[9], iso[10], iso[11] ?? '00');
    return DateTime.fromFields(
      {
        year: Number(iso[1]),
        month: Number(iso[2]),
        day: Number(iso[3]),
        hour: Number(iso[4] ?? 0),
        minute: Number(iso[5] ?? 0),
        second: Number(iso[6] ?? 0),
        microsecond: Number((iso[7] ?? '').padEnd(6, '0')),
      },
      offset,
    );
  }
  const wordy = WORDY.exec(trimmed);
  if (wordy) {
    const month = monthIndex(wordy[1]!);
    if (month >= 0) return fromMatch(Number(wordy[3]), month + 1, Number(wordy[2]), wordy.slice(4));
  }
  const rfc = RFC2822.exec(trimmed);
  const rfcMonth = rfc ? monthIndex(rfc[2]!) : -1;
  if (rfc && rfcMonth >= 0) {
    const offset = offsetFrom(rfc[8], rfc[9], rfc[10]);
    return fromMatch(Number(rfc[3]), rfcMonth + 1, Number(rfc[1]), rfc.slice(4, 7), offset);
  }
  const dotted = DOTTED.exec(trimmed);
  if (dotted) {
    const dayFirst = trimmed.includes('.');
    const [day, month] = dayFirst ? [dotted[1], dotted[2]] : [dotted[2], dotted[1]];
    return fromMatch(Number(dotted[3]), Number(month), Number(day), dotted.slice(4));
  }
  return fault(`datetime(): cannot read a date and time from ${JSON.stringify(text)}; give a format`);
}

function monthIndex(name: string): number {
  const prefix = name.slice(0, 3).toLowerCase();
  return MONTHS.findIndex((m) => m.slice(0, 3).toLowerCase() === prefix);
}

function fromMatch(
  year: number,
  month: number,
  day: number,
  clock: (string | undefined)[],
  offset = 0n,
): DateTime {
  const [hour, minute, second] = clock.map((part) => Number(part ?? 0)) as [number, number, number];
  return DateTime.fromFields({ year, month, day, hour, minute, second, microsecond: 0 }, offset);
}
