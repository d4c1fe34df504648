import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectColumns } from '../../src/cli/columns.js';
import { show } from '../../src/cli/output.js';

// `-c/--column` as cliff's DisplayCommandBase._generate_columns_and_selector does it.

const RECORD = { id: 'i-1', stack_name: 's', stack_status: 'CREATE_COMPLETE' };
const ROWS = [
  { id: 'a', stack_name: 'one', stack_status: 'CREATE_COMPLETE' },
  { id: 'b', stack_name: 'two', stack_status: 'UPDATE_FAILED' },
];

function printed(output: { format: string; column?: string[] }, value: Parameters<typeof show>[2]): string {
  let out = '';
  show((s) => (out += s), output, value);
  return out;
}

describe('selectColumns (cliff -c)', () => {
  it("keeps the named columns in the command's order, not the order they were named in", () => {
    assert.deepEqual(Object.keys(selectColumns(RECORD, ['stack_status', 'id'])), ['id', 'stack_status']);
    assert.deepEqual(selectColumns(ROWS, ['stack_status', 'stack_name']), [
      { stack_name: 'one', stack_status: 'CREATE_COMPLETE' },
      { stack_name: 'two', stack_status: 'UPDATE_FAILED' },
    ]);
  });

  it('ignores names it does not print while one is recognized, and errors when none is', () => {
    assert.deepEqual(selectColumns(RECORD, ['nope', 'id']), { id: 'i-1' });
    assert.throws(
      () => selectColumns(RECORD, ['nope', 'Name']),
      (err: Error) =>
        err.message ===
        "No recognized column names in ['nope', 'Name']. Recognized columns are ['id', 'stack_name', 'stack_status'].",
    );
  });

  it('leaves everything when no column is named, and an empty list as it is', () => {
    assert.equal(selectColumns(RECORD, []), RECORD);
    assert.deepEqual(selectColumns([], ['anything']), []);
  });
});

describe('show with -c, in every format', () => {
  it('a record: table, value, json and yaml carry only the chosen fields', () => {
    const only = { format: 'table', column: ['stack_status', 'id'] };
    const table = printed(only, RECORD);
    assert.match(table, /\| id +\| i-1 +\|/);
    assert.match(table, /\| stack_status +\| CREATE_COMPLETE +\|/);
    assert.doesNotMatch(table, /stack_name/);
    assert.equal(printed({ ...only, format: 'value' }, RECORD), 'i-1\nCREATE_COMPLETE\n');
    assert.deepEqual(JSON.parse(printed({ ...only, format: 'json' }, RECORD)), {
      id: 'i-1',
      stack_status: 'CREATE_COMPLETE',
    });
    assert.equal(printed({ ...only, format: 'yaml' }, RECORD), 'id: i-1\nstack_status: CREATE_COMPLETE\n');
  });

  it('rows: the header and every row lose the other columns', () => {
    const table = printed({ format: 'table', column: ['stack_name'] }, ROWS);
    assert.deepEqual(
      table.split('\n').filter((l) => l.startsWith('|')),
      ['| stack_name |', '| one        |', '| two        |'],
    );
    assert.equal(
      printed({ format: 'value', column: ['stack_status', 'id'] }, ROWS),
      'a CREATE_COMPLETE\nb UPDATE_FAILED\n',
    );
  });
});
