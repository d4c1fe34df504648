import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FUNCTIONS } from '../../src/template/yaql/functions/index.js';
import { evaluateYaql, YaqlError } from '../../src/template/yaql/index.js';

// Every library function, called with arbitrary arguments (of every kind yaql values come in, lazy
// endless sequences, dates and sets included), either returns or throws a YaqlError, within the
// step budget: never another exception, never a hang.

const ARGUMENTS = [
  '0',
  '-1',
  '3',
  '2.5',
  '1000000000000',
  "'abc'",
  "''",
  "'%Y-%m-%d'",
  '"2015-01-02T03:04:05Z"',
  'null',
  'true',
  '[]',
  '[1, 2, 2]',
  '[[1, a], [2, b]]',
  '{a => 1}',
  '{}',
  'datetime(2015, 1, 2)',
  'timespan(hours => 1)',
  'set(1, 2)',
  'sequence()',
  'range(5)',
  '[1].cycle()',
  'regex("a+")',
  '$',
  '$ > 1',
  '$1 + $2',
  'a => 1',
  'offset => timespan(hours => 2)',
  'default => 0',
];

describe('yaql library robustness', () => {
  it('every function returns or throws a YaqlError for any arguments, within the budget', () => {
    const names = [...FUNCTIONS.keys()];
    const call = fc
      .tuple(
        fc.constantFrom(...names),
        fc.array(fc.constantFrom(...ARGUMENTS), { maxLength: 4 }),
        fc.boolean(),
      )
      .map(([name, args, method]) =>
        method && args.length > 0 && !args[0]!.includes('=>')
          ? `(${args[0]}).${name}(${args.slice(1).join(', ')})`
          : `${name}(${args.join(', ')})`,
      );
    fc.assert(
      fc.property(call, fc.jsonValue({ maxDepth: 2 }), (text, data) => {
        try {
          evaluateYaql(text, data, { maxSteps: 20_000 });
        } catch (error) {
          if (!(error instanceof YaqlError)) throw error;
        }
      }),
      { numRuns: 4000 },
    );
  });
});
