/* eslint-disable no-control-regex -- the terminal's escape codes are what these tests look for */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { setTableLayout, show, statusStyle, tableLayoutFor, textTable } from '../../src/cli/output.js';
import { fitWidths, tableWidth, wrapText } from '../../src/cli/table-fit.js';
import { paint, terminalWidth, useColour } from '../../src/cli/terminal.js';
import { eventLine } from '../../src/cli/views.js';

const TTY = { isTTY: true, columns: 100 };
const PIPE = {};
const SGR = /\x1b\[[0-9;]*m/g;
const lengths = (text: string) =>
  text
    .replace(SGR, '')
    .trimEnd()
    .split('\n')
    .map((l) => l.length);

describe('useColour', () => {
  it('a terminal yes, a pipe no; NO_COLOR (non-empty) always wins; FORCE_COLOR forces unless 0', () => {
    assert.equal(useColour(TTY, {}), true);
    assert.equal(useColour(PIPE, {}), false);
    assert.equal(useColour(undefined, {}), false);
    assert.equal(useColour(TTY, { NO_COLOR: '1' }), false);
    assert.equal(useColour(TTY, { NO_COLOR: '' }), true);
    assert.equal(useColour(PIPE, { FORCE_COLOR: '1' }), true);
    assert.equal(useColour(PIPE, { FORCE_COLOR: '' }), true);
    assert.equal(useColour(TTY, { FORCE_COLOR: '0' }), false);
    assert.equal(useColour(TTY, { FORCE_COLOR: 'false' }), false);
    assert.equal(useColour(PIPE, { FORCE_COLOR: '3', NO_COLOR: 'yes' }), false);
    assert.equal(useColour(TTY, { TERM: 'dumb' }), false);
  });

  it('paint styles only for a stream that takes colour', () => {
    const was = process.env.NO_COLOR;
    process.env.NO_COLOR = '1';
    try {
      assert.equal(paint(TTY, 'red', 'Error:'), 'Error:');
    } finally {
      if (was === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = was;
    }
  });
});

describe('terminalWidth', () => {
  it("COLUMNS first, else the terminal's columns; none for a pipe or an unsized terminal", () => {
    assert.equal(terminalWidth(TTY, {}), 100);
    assert.equal(terminalWidth(TTY, { COLUMNS: '60' }), 60);
    assert.equal(terminalWidth(TTY, { COLUMNS: 'wide' }), 100);
    assert.equal(terminalWidth(PIPE, {}), undefined);
    assert.equal(terminalWidth(PIPE, { COLUMNS: '70' }), 70);
    assert.equal(terminalWidth({ isTTY: true, columns: 0 }, {}), undefined);
  });
});

describe('tableLayoutFor', () => {
  it("a terminal's tables fit it and colour; a pipe's stay as they are unless asked, as cliff's", () => {
    assert.deepEqual(tableLayoutFor({}, TTY, {}), { colour: true, maxWidth: 100 });
    assert.deepEqual(tableLayoutFor({}, PIPE, { COLUMNS: '70' }), { colour: false });
    assert.deepEqual(tableLayoutFor({ fitWidth: true }, PIPE, { COLUMNS: '70' }), {
      colour: false,
      maxWidth: 70,
    });
    assert.deepEqual(tableLayoutFor({ fitWidth: true }, PIPE, {}), { colour: false });
    assert.deepEqual(tableLayoutFor({}, PIPE, { CLIFF_FIT_WIDTH: '1', COLUMNS: '90' }), {
      colour: false,
      maxWidth: 90,
    });
    assert.deepEqual(tableLayoutFor({ maxWidth: 50 }, PIPE, {}), { colour: false, maxWidth: 50 });
    assert.deepEqual(tableLayoutFor({}, PIPE, { CLIFF_MAX_TERM_WIDTH: '40' }), {
      colour: false,
      maxWidth: 40,
    });
    assert.deepEqual(tableLayoutFor({ maxWidth: 0 }, TTY, {}), { colour: true });
    assert.deepEqual(tableLayoutFor({ maxWidth: 30 }, TTY, { CLIFF_MAX_TERM_WIDTH: '40' }), {
      colour: true,
      maxWidth: 30,
    });
    // Output that is not the process's stdout (a caller's capture): plain, whatever the variables.
    assert.deepEqual(tableLayoutFor({}, undefined, { FORCE_COLOR: '1' }), { colour: false });
  });
});

describe('fitWidths', () => {
  it('keeps a table that fits; else narrow columns keep their width and the wide share the rest', () => {
    assert.deepEqual(fitWidths([10, 20], 80, 8), [10, 20]);
    const widths = fitWidths([19, 300], 80, 16);
    assert.deepEqual(widths, [19, 80 - 1 - 6 - 19]);
    assert.equal(tableWidth(widths), 80);
    // The fair share grows as narrow columns take less than it: 20, 22, 23, then 24 for the rest.
    const list = fitWidths([36, 10, 20, 200, 150, 19], 140, 8);
    assert.deepEqual(list, [24, 10, 20, 24, 24, 19]);
    assert.equal(tableWidth(list), 140);
  });

  it('never below the least width nor above a column own: a narrow terminal gets a wider table', () => {
    const widths = fitWidths([19, 300], 30, 16);
    assert.deepEqual(widths, [16, 16]);
    assert.deepEqual(fitWidths([9, 12], 10, 16), [9, 12]);
  });
});

describe('wrapText', () => {
  it('breaks at spaces, else after punctuation (JSON commas, _ and - of names), else cuts', () => {
    assert.deepEqual(wrapText('the quick brown fox', 10), ['the quick', 'brown fox']);
    assert.deepEqual(wrapText('["alpha","beta","gamma"]', 12), ['["alpha",', '"beta",', '"gamma"]']);
    assert.deepEqual(wrapText('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    assert.deepEqual(wrapText('CREATE_COMPLETE', 10), ['CREATE_', 'COMPLETE']);
    assert.deepEqual(wrapText('demo-first-y6m5y5gmszth', 12), ['demo-first-', 'y6m5y5gmszth']);
    assert.deepEqual(wrapText('one\ntwo three', 5), ['one', 'two', 'three']);
    assert.deepEqual(wrapText('short', 10), ['short']);
  });
});

describe('textTable under a layout', () => {
  afterEach(() => setTableLayout({ colour: false }));

  it('fits the width: long cells wrap within their column', () => {
    setTableLayout({ colour: false, maxWidth: 40 });
    const table = textTable(
      ['Field', 'Value'],
      [
        ['description', 'word '.repeat(30).trim()],
        ['id', 'x'],
      ],
      16,
    );
    assert.ok(Math.max(...lengths(table)) <= 40, table);
    assert.equal(table.match(/word/g)?.length, 30);
    assert.match(table, /^\| id +\| x +\|$/m);
  });

  it('colours statuses without counting the codes in the width', () => {
    setTableLayout({ colour: true });
    const table = textTable(
      ['name', 'status'],
      [
        ['a', 'CREATE_COMPLETE'],
        ['b', 'DELETE_FAILED'],
        ['c', 'UPDATE_IN_PROGRESS'],
      ],
    );
    assert.match(table, /\| a {4}\| \x1b\[32mCREATE_COMPLETE\x1b\[39m {4}\|/);
    assert.match(table, /\x1b\[31mDELETE_FAILED\x1b\[39m/);
    assert.match(table, /\x1b\[33mUPDATE_IN_PROGRESS\x1b\[39m/);
    assert.equal(new Set(lengths(table)).size, 1);
  });

  it('show() in json, yaml or value prints no colour and no wrapping', () => {
    setTableLayout({ colour: true, maxWidth: 20 });
    const record = { stack_status: 'CREATE_COMPLETE', reason: 'word '.repeat(20) };
    for (const format of ['json', 'yaml', 'value']) {
      let out = '';
      show((s) => (out += s), format, record);
      assert.doesNotMatch(out, SGR, format);
      assert.ok(out.includes('word '.repeat(20).trim()), format);
    }
  });
});

describe('status colours', () => {
  it('COMPLETE green, FAILED red, IN_PROGRESS yellow; nothing else', () => {
    assert.equal(statusStyle('ROLLBACK_COMPLETE'), 'green');
    assert.equal(statusStyle('CHECK_FAILED'), 'red');
    assert.equal(statusStyle('DELETE_IN_PROGRESS'), 'yellow');
    assert.equal(statusStyle('state changed'), undefined);
    assert.equal(statusStyle('CREATE_COMPLETE and more'), undefined);
  });

  it('an event line colours its status only when asked', () => {
    const event = {
      id: '1',
      resourceName: 'web',
      physicalId: '',
      status: 'CREATE_FAILED',
      reason: 'boom',
      time: 't',
    };
    assert.equal(eventLine(event), 't [web]: CREATE_FAILED  boom\n');
    assert.equal(eventLine(event, true), 't [web]: \x1b[31mCREATE_FAILED\x1b[39m  boom\n');
  });
});
