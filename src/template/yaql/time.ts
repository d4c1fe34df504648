import { fault } from './budget.js';

/**
 * yaql's date and time values: Python's timezone-aware datetime and timedelta. Both count whole
 * microseconds in BigInts, so every datetime of years 1 to 9999 (Python's range) is exact.
 */

const US_PER_SECOND = 1_000_000n;
const US_PER_DAY = 86_400n * US_PER_SECOND;
/** Microseconds from 0001-01-01 to 1970-01-01: Python's datetime.min as an instant. */
const MIN_INSTANT = -62_135_596_800n * US_PER_SECOND;
/** One microsecond before 10000-01-01. */
const MAX_INSTANT = 253_402_300_800n * US_PER_SECOND - 1n;
/** timedelta's limit: 999999999 days either way. */
const MAX_SPAN = 999_999_999n * US_PER_DAY;

/** A duration: Python's timedelta. */
export class TimeSpan {
  constructor(readonly micros: bigint) {
    if (micros > MAX_SPAN + US_PER_DAY - 1n || micros < -MAX_SPAN) fault('timespan out of range');
  }

  /** A number of microseconds, rounded half to even as timedelta(microseconds=x) does. */
  static fromMicros(value: number): TimeSpan {
    if (!Number.isFinite(value)) return fault('timespan out of range');
    const floor = Math.floor(value);
    const diff = value - floor;
    const rounded = diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
    return new TimeSpan(BigInt(rounded));
  }

  /** Python's str(timedelta): "1 day, 2:03:04.000005", "-1 day, 23:59:59". */
  toString(): string {
    const days = floorDiv(this.micros, US_PER_DAY);
    const rest = this.micros - days * US_PER_DAY;
    const clock = clockText(rest);
    if (days === 0n) return clock;
    return `${days} day${days === 1n || days === -1n ? '' : 's'}, ${clock}`;
  }
}

/** An instant with a fixed UTC offset: Python's datetime with a tzoffset (yaql's are always aware). */
export class DateTime {
  constructor(
    /** Microseconds since 1970-01-01T00:00:00Z. */
    readonly instant: bigint,
    /** The offset from UTC of the wall-clock fields. */
    readonly offset: bigint,
  ) {
    const local = instant + offset;
    if (local < MIN_INSTANT || local > MAX_INSTANT) fault('year is out of range');
  }

  /** From wall-clock fields, validated as Python's datetime() validates them. */
  static fromFields(f: Fields, offset: bigint): DateTime {
    if (!Number.isInteger(f.year) || f.year < 1 || f.year > 9999) fault(`year ${f.year} is out of range`);
    if (f.month < 1 || f.month > 12) fault('month must be in 1..12');
    if (f.day < 1 || f.day > daysInMonth(f.year, f.month)) fault('day is out of range for month');
    if (f.hour < 0 || f.hour > 23) fault('hour must be in 0..23');
    if (f.minute < 0 || f.minute > 59) fault('minute must be in 0..59');
    if (f.second < 0 || f.second > 59) fault('second must be in 0..59');
    if (f.microsecond < 0 || f.microsecond > 999_999) fault('microsecond must be in 0..999999');
    if (offset <= -US_PER_DAY || offset >= US_PER_DAY) fault('the offset must be less than a day');
    const days = BigInt(daysFromCivil(f.year, f.month, f.day));
    const clock = BigInt(f.hour * 3600 + f.minute * 60 + f.second) * US_PER_SECOND + BigInt(f.microsecond);
    return new DateTime(days * US_PER_DAY + clock - offset, offset);
  }

  fields(): Fields {
    const local = this.instant + this.offset;
    const days = floorDiv(local, US_PER_DAY);
    const clock = Number(local - days * US_PER_DAY);
    const [year, month, day] = civilFromDays(Number(days));
    const seconds = Math.floor(clock / 1e6);
    return {
      year,
      month,
      day,
      hour: Math.floor(seconds / 3600),
      minute: Math.floor(seconds / 60) % 60,
      second: seconds % 60,
      microsecond: clock % 1e6,
      // Python's weekday(): Monday is 0; 1970-01-01 was a Thursday.
      weekday: Number((((days + 3n) % 7n) + 7n) % 7n),
    };
  }

  /** Python's isoformat(), which Heat's API writes for a datetime: "2015-01-02T03:04:05+00:00". */
  isoFormat(separator = 'T'): string {
    const f = this.fields();
    const date = `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}`;
    const time = `${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}`;
    const micro = f.microsecond === 0 ? '' : `.${pad(f.microsecond, 6)}`;
    return `${date}${separator}${time}${micro}${offsetText(this.offset, ':')}`;
  }

  /** Python's str(datetime): isoformat with a space. */
  toString(): string {
    return this.isoFormat(' ');
  }
}

export interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  weekday?: number;
}

/** "+05:30" (or "+0530" with an empty separator), with seconds only when there are any. */
export function offsetText(offset: bigint, separator: string): string {
  const sign = offset < 0n ? '-' : '+';
  const abs = offset < 0n ? -offset : offset;
  const totalSeconds = Number(abs / US_PER_SECOND);
  const micros = Number(abs % US_PER_SECOND);
  let text = `${sign}${pad(Math.floor(totalSeconds / 3600), 2)}${separator}${pad(Math.floor(totalSeconds / 60) % 60, 2)}`;
  if (totalSeconds % 60 !== 0 || micros !== 0) text += `${separator}${pad(totalSeconds % 60, 2)}`;
  if (micros !== 0) text += `.${pad(micros, 6)}`;
  return text;
}

function clockText(micros: bigint): string {
  const total = Number(micros / US_PER_SECOND);
  const fraction = Number(micros % US_PER_SECOND);
  const text = `${Math.floor(total / 3600)}:${pad(Math.floor(total / 60) % 60, 2)}:${pad(total % 60, 2)}`;
  return fraction === 0 ? text : `${text}.${pad(fraction, 6)}`;
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

export const MICROS = { second: US_PER_SECOND, day: US_PER_DAY };

/**
 * Operators on dates and spans, as yaql defines them; undefined when neither operand is one (the
 * caller then applies the ordinary operator).
 */
export function timeOperator(op: string, left: unknown, right: unknown): unknown {
  const ld = left instanceof DateTime;
  const rd = right instanceof DateTime;
  const ls = left instanceof TimeSpan;
  const rs = right instanceof TimeSpan;
  if (!ld && !rd && !ls && !rs) return undefined;
  if (op === '+') {
    if (ld && rs) return new DateTime(left.instant + right.micros, left.offset);
    if (ls && rd) return new DateTime(right.instant + left.micros, right.offset);
    if (ls && rs) return new TimeSpan(left.micros + right.micros);
  } else if (op === '-') {
    if (ld && rs) return new DateTime(left.instant - right.micros, left.offset);
    if (ld && rd) return new TimeSpan(left.instant - right.instant);
    if (ls && rs) return new TimeSpan(left.micros - right.micros);
  } else if (op === '*') {
    if (ls && typeof right === 'number') return scale(left, right);
    if (rs && typeof left === 'number') return scale(right, left);
  } else if (op === '/') {
    if (ls && rs) {
      if (right.micros === 0n) return fault('division by zero');
      return Number(left.micros) / Number(right.micros);
    }
    if (ls && typeof right === 'number') {
      if (right === 0) return fault('division by zero');
      return TimeSpan.fromMicros(Number(left.micros) / right);
    }
  }
  return undefined;
}

function scale(span: TimeSpan, factor: number): TimeSpan {
  if (Number.isInteger(factor)) return new TimeSpan(span.micros * BigInt(factor));
  return TimeSpan.fromMicros(Number(span.micros) * factor);
}

/** Orders two dates or two spans; undefined for any other pair. */
export function compareTimes(a: unknown, b: unknown): number | undefined {
  if (a instanceof DateTime && b instanceof DateTime) return sign(a.instant - b.instant);
  if (a instanceof TimeSpan && b instanceof TimeSpan) return sign(a.micros - b.micros);
  return undefined;
}

function sign(n: bigint): number {
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}

/** `dt.year`, `span.hours`...: yaql's properties of dates and spans. */
export function timeProperty(object: DateTime | TimeSpan, name: string): unknown {
  if (object instanceof TimeSpan) {
    const micros = Number(object.micros);
    const divisors: Record<string, number> = {
      microseconds: 1,
      milliseconds: 1e3,
      seconds: 1e6,
      minutes: 6e7,
      hours: 3.6e9,
      days: 8.64e10,
    };
    const divisor = divisors[name];
    if (divisor === undefined) return fault(`a timespan has no property "${name}"`);
    return micros / divisor;
  }
  const f = object.fields();
  switch (name) {
    case 'year':
    case 'month':
    case 'day':
    case 'hour':
    case 'minute':
    case 'second':
    case 'microsecond':
    case 'weekday':
      return f[name];
    case 'date':
      return DateTime.fromFields({ ...f, hour: 0, minute: 0, second: 0, microsecond: 0 }, object.offset);
    case 'time': {
      const midnight = DateTime.fromFields(
        { ...f, hour: 0, minute: 0, second: 0, microsecond: 0 },
        object.offset,
      );
      return new TimeSpan(object.instant - midnight.instant);
    }
    case 'utc':
      // yaql subtracts the offset but keeps the zone: the wall clock shows UTC time, the instant moves.
      return new DateTime(object.instant - object.offset, object.offset);
    case 'offset':
      return new TimeSpan(object.offset);
    case 'timestamp':
      // yaql computes this from .utc above, so a non-UTC offset counts twice (kept for equal results).
      return Number(object.instant - object.offset) / 1e6;
    default:
      return fault(`a datetime has no property "${name}"`);
  }
}
