import type { CustomConstraintValidator } from './types.js';

/*
 * The cron syntax Heat's cron_expression constraint accepts (it asks croniter to parse the value):
 * five fields (minute hour day-of-month month day-of-week), optionally a sixth (seconds) and a
 * seventh (year); lists, ranges, steps, month and weekday names, `?`, `L` and `#`, and the
 * `@hourly`-style shortcuts.
 */

interface Field {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly Field[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of week', min: 0, max: 7, names: DAYS },
  { name: 'second', min: 0, max: 59 },
  { name: 'year', min: 1970, max: 2099 },
];

const SHORTCUTS = new Set(['@midnight', '@hourly', '@daily', '@weekly', '@monthly', '@yearly', '@annually']);

function value(token: string, field: Field): number | undefined {
  if (/^\d+$/.test(token)) return Number(token);
  const i = field.names?.indexOf(token.toLowerCase()) ?? -1;
  if (i < 0) return undefined;
  return field.names === MONTHS ? i + 1 : i;
}

/** The reason one comma-separated element of a field is wrong, or undefined. */
function elementError(element: string, field: Field, index: number): string | undefined {
  if (element === '*' || element === '?') return undefined;
  if (index === 2 && /^L(-\d+)?$/i.test(element)) return undefined;
  if (index === 4) {
    const nth = /^(\w+)#([1-5])$/.exec(element);
    if (nth) return value(nth[1] ?? '', field) === undefined ? 'bad weekday' : undefined;
    const last = /^L(\w+)$|^(\w+)L$/i.exec(element);
    if (last) return value(last[1] ?? last[2] ?? '', field) === undefined ? 'bad weekday' : undefined;
  }
  const [range = '', step, ...extra] = element.split('/');
  if (extra.length > 0) return 'too many steps';
  if (step !== undefined && (!/^\d+$/.test(step) || Number(step) === 0)) return `bad step "${step}"`;
  if (range === '*') return undefined;
  const [lowText = '', highText, ...more] = range.split('-');
  if (more.length > 0) return `bad range "${range}"`;
  const low = value(lowText, field);
  const high = highText === undefined ? low : value(highText, field);
  if (low === undefined || high === undefined) return `"${element}" is not a valid ${field.name}`;
  if (low < field.min || high > field.max || low > field.max || high < field.min) {
    return `${field.name} ${element} is out of range ${field.min}-${field.max}`;
  }
  if (low > high) return `range ${range} is backwards`;
  return undefined;
}

/** The reason a cron expression is invalid, or undefined. */
export function cronExpressionError(expression: string): string | undefined {
  const text = expression.trim();
  if (SHORTCUTS.has(text.toLowerCase())) return undefined;
  const columns = text.split(/\s+/);
  if (columns.length < 5 || columns.length > 7) {
    return 'Exactly 5, 6 or 7 columns has to be specified for iterator expression.';
  }
  for (const [i, column] of columns.entries()) {
    const field = FIELDS[i]!;
    for (const element of column.split(',')) {
      const why = elementError(element, field, i);
      if (why !== undefined) return `[${expression}] is not acceptable: ${why}`;
    }
  }
  return undefined;
}

export const cronExpression: CustomConstraintValidator = (input) => {
  if (input === null || input === '') return undefined;
  if (typeof input !== 'string') return `Invalid CRON expression: not a string`;
  const why = cronExpressionError(input);
  return why === undefined ? undefined : `Invalid CRON expression: ${why}`;
};
