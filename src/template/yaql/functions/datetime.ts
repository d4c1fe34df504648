import { DateTime, MICROS, TimeSpan } from '../time.js';
import { parseDateTime, strftime, strptime } from '../time-format.js';
import { type Call, define, type FunctionDef } from './types.js';

/**
 * yaql's date_time library. Dates are always timezone-aware (UTC unless an offset is given), as
 * yaql makes them. now() and localtz() read the clock and zone of the engine process each time an
 * expression is evaluated, as Heat does (it resolves yaql again whenever it needs the value).
 */

const FIELDS = ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'] as const;

function optionalOffset(c: Call, i: number): bigint {
  const value = c.value(i);
  if (value === null) return 0n;
  if (!(value instanceof TimeSpan)) return c.wrongType(i, 'a timespan', value);
  return value.micros;
}

/**
 * datetime(year, month, day, hour => 0, ..., offset => timespan(0)), datetime(timestamp, offset?)
 * or datetime(string, format?).
 */
function datetime(c: Call): DateTime {
  if (c.has(9)) return fromTimestamp(c, c.number(9), 7);
  if (c.has(10)) return fromString(c.string(10), c.has(8) ? c.string(8) : null);
  const first = c.value(0);
  if (typeof first === 'string') {
    return fromString(first, c.has(8) ? c.string(8) : c.has(1) ? c.string(1) : null);
  }
  if (typeof first === 'number' && !c.has(2) && (!c.has(1) || c.value(1) instanceof TimeSpan)) {
    return fromTimestamp(c, first, c.has(1) ? 1 : 7);
  }
  if (!c.has(1) || !c.has(2)) return c.fail('needs year, month and day, a timestamp or a string');
  const fields = Object.fromEntries(FIELDS.map((name, i) => [name, c.intOr(i, 0)]));
  return DateTime.fromFields(
    fields as unknown as Parameters<typeof DateTime.fromFields>[0],
    optionalOffset(c, 7),
  );
}

/** A timestamp: seconds since the epoch, to the microsecond (rounded as Python rounds it). */
function fromTimestamp(c: Call, timestamp: number, offsetSlot: number): DateTime {
  return new DateTime(TimeSpan.fromMicros(timestamp * 1e6).micros, optionalOffset(c, offsetSlot));
}

function fromString(text: string, format: string | null): DateTime {
  return format ? strptime(text, format) : parseDateTime(text);
}

/** timespan(days => 0, hours => 0, minutes => 0, seconds => 0, milliseconds => 0, microseconds => 0). */
function timespan(c: Call): TimeSpan {
  const units = [86_400_000_000n, 3_600_000_000n, 60_000_000n, 1_000_000n, 1_000n, 1n];
  let micros = 0n;
  for (const [i, unit] of units.entries()) micros += BigInt(c.intOr(i, 0)) * unit;
  return new TimeSpan(micros);
}

/** The engine's current UTC offset (yaql reads the process's zone, with daylight saving). */
function localOffset(): bigint {
  return BigInt(-new Date().getTimezoneOffset() * 60) * MICROS.second;
}

function now(c: Call): DateTime {
  return new DateTime(BigInt(Date.now()) * 1000n, optionalOffset(c, 0));
}

/** dt.replace(year => ..., offset => ...): a copy with some fields changed (the wall clock kept). */
export function replaceDateTime(c: Call, dt: DateTime, slots: readonly number[]): DateTime {
  const fields = dt.fields();
  const changed = { ...fields } as Record<string, number>;
  for (const [i, name] of FIELDS.entries()) {
    const slot = slots[i]!;
    if (c.value(slot) !== null) changed[name] = c.int(slot);
  }
  const offsetSlot = slots[FIELDS.length]!;
  const offset = c.value(offsetSlot) === null ? dt.offset : optionalOffset(c, offsetSlot);
  return DateTime.fromFields(changed as unknown as Parameters<typeof DateTime.fromFields>[0], offset);
}

export function formatDateTime(c: Call, dt: DateTime): string {
  const format = c.rest[0];
  if (typeof format !== 'string' || c.rest.length !== 1) return c.fail('a datetime takes one format string');
  const text = strftime(dt, format);
  c.budget.spendChars(text.length);
  return text;
}

export const DATETIME_FUNCTIONS: readonly FunctionDef[] = [
  define(
    'datetime',
    [
      'year?',
      'month?',
      'day?',
      'hour?',
      'minute?',
      'second?',
      'microsecond?',
      'offset?',
      'format?',
      'timestamp?',
      'string?',
    ],
    datetime,
  ),
  define('timespan', ['days?', 'hours?', 'minutes?', 'seconds?', 'milliseconds?', 'microseconds?'], timespan),
  define('now', ['offset?'], now),
  define('localtz', [], () => new TimeSpan(localOffset())),
  define('utctz', [], () => new TimeSpan(0n)),
  define('isDatetime', ['value'], (c) => c.value(0) instanceof DateTime),
  define('isTimespan', ['value'], (c) => c.value(0) instanceof TimeSpan),
];
