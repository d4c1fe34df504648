/* eslint-disable no-control-regex -- the terminal's escape codes are what these tests look for */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { hearthNodeArgs } from '../support/hearth-command.js';

/*
 * Colour and tables that fit, as a user sees them: the real `hearth` in a pseudo-terminal
 * (`script`), and the same commands in a pipe, where scripts must get the plain tables.
 */

const SGR = /\x1b\[[0-9;]*m/g;
const plain = (text: string) => text.replace(SGR, '');
/** The Value cell's lines of a field of a Field/Value table: its row and the rows continuing it. */
function valueLines(table: string, field: string): string[] {
  const rows = plain(table).split('\n');
  const start = rows.findIndex((r) => r.startsWith(`| ${field} `));
  const lines: string[] = [];
  for (let i = start; i >= 0 && i < rows.length; i++) {
    const [, name, value] = /^\| (.*?) \| (.*) \|$/.exec(rows[i]!) ?? [];
    if (value === undefined || (i > start && name!.trim() !== '')) break;
    lines.push(value.trimEnd());
  }
  return lines;
}
const longest = (text: string) =>
  Math.max(
    ...plain(text)
      .split('\n')
      .map((l) => l.length),
  );

const WORDS = 'the quick brown fox jumps over the lazy dog and keeps running far beyond the edge';
const TEMPLATE = `heat_template_version: 2018-08-31
description: ${WORDS}
parameters:
  word: {type: string, default: ${WORDS.replace(/ /g, '-')}}
resources:
  first: {type: OS::Heat::TestResource, properties: {value: {get_param: word}}}
outputs:
  sentence:
    description: ${WORDS}
    value: {list_join: [' ', [${WORDS.split(' ').join(', ')}, {get_attr: [first, output]}]]}
  listing:
    value: {repeat: {for_each: {x: [alpha, beta, gamma, delta, epsilon, zeta]}, template: item-x-of-a-long-list}}
`;

/** The environment of every child: no colour or width settings leaking in from the test's own. */
function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^(NO_COLOR|FORCE_COLOR|COLUMNS|LINES|CLIFF_.*|TERM)$/.test(k)) env[k] = v;
  }
  return { ...env, TERM: 'xterm', ...extra };
}

const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

let db = '';
const hearthWords = (args: string[]) =>
  [process.execPath, ...hearthNodeArgs(), '--db', db, ...args].map(shellWord).join(' ');

/** `hearth ARGS` in a pipe (not a terminal). */
function piped(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [...hearthNodeArgs(), '--db', db, ...args], {
    env: childEnv(env),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `hearth ARGS` in a pseudo-terminal `columns` wide (undefined: a pty nobody sized), its stdout
 * and stderr both the terminal's output (with the pty's \r\n back to \n).
 */
function inTerminal(args: string[], columns?: number, env: Record<string, string> = {}) {
  const size = columns === undefined ? '' : `stty cols ${columns} && `;
  const r = spawnSync('script', ['-qfec', `${size}exec ${hearthWords(args)}`, '/dev/null'], {
    env: childEnv(env),
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
  });
  return { code: r.status, output: r.stdout.replace(/\r\n/g, '\n') };
}

describe('hearth on a terminal: colour and tables that fit', () => {
  let fields: string[] = [];

  before(() => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-terminal-'));
    writeFileSync(join(dir, 't.yaml'), TEMPLATE);
    db = join(dir, 'state.db');
    const created = piped(['stack', 'create', 'demo', '-t', join(dir, 't.yaml'), '--wait', '-f', 'json']);
    assert.equal(created.code, 0, created.stderr);
    fields = Object.keys(JSON.parse(piped(['stack', 'show', 'demo', '-f', 'json']).stdout));
    assert.ok(fields.includes('outputs') && fields.includes('stack_status_reason'), fields.join());
  });

  const assertEveryField = (table: string) => {
    for (const field of fields) assert.match(plain(table), new RegExp(`^\\| ${field} +\\|`, 'm'), field);
  };

  it('stack show in an 80-column terminal: no line longer than 80, every field, the values wrapped', () => {
    const shown = inTerminal(['stack', 'show', 'demo'], 80);
    assert.equal(shown.code, 0, shown.output);
    assert.ok(longest(shown.output) <= 80, `a line of ${longest(shown.output)} columns:\n${shown.output}`);
    assertEveryField(shown.output);
    // The outputs wrap within their column, all of them there: the value's lines put back
    // together are the JSON a pipe gets (less the spaces lines broke at).
    const outputs = JSON.stringify(JSON.parse(piped(['stack', 'show', 'demo', '-f', 'json']).stdout).outputs);
    const lines = valueLines(shown.output, 'outputs');
    assert.ok(lines.length > 3, lines.join('\n'));
    assert.equal(lines.join('').replace(/ /g, ''), outputs.replace(/ /g, ''));
  });

  it('a pipe gets the table unchanged, as wide as its cells and without colour', () => {
    const shown = piped(['stack', 'show', 'demo']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, SGR);
    assert.ok(longest(shown.stdout) > 200, `${longest(shown.stdout)}`);
    // The outputs on one line, whole.
    assert.match(
      shown.stdout,
      /^\| outputs +\| \[\{"output_key":"sentence".*"item-zeta-of-a-long-list"\]\}\] \|$/m,
    );
    assertEveryField(shown.stdout);
  });

  it('COLUMNS sets the width on a terminal; --max-width 0 turns fitting off', () => {
    const narrow = inTerminal(['stack', 'show', 'demo'], 120, { COLUMNS: '60' });
    assert.equal(narrow.code, 0, narrow.output);
    assert.ok(longest(narrow.output) <= 60, narrow.output);
    assertEveryField(narrow.output);
    const wide = inTerminal(['stack', 'show', 'demo', '--max-width', '0'], 80);
    assert.ok(longest(wide.output) > 200, wide.output);
  });

  it('--max-width N and --fit-width (COLUMNS) fit the table off a terminal too, as cliff', () => {
    const max = piped(['stack', 'show', 'demo', '--max-width', '50']);
    assert.equal(max.code, 0, max.stderr);
    assert.ok(longest(max.stdout) <= 50, max.stdout);
    assertEveryField(max.stdout);
    const fit = piped(['stack', 'resource', 'list', 'demo', '--fit-width'], { COLUMNS: '70' });
    assert.equal(fit.code, 0, fit.stderr);
    assert.ok(longest(fit.stdout) <= 70, fit.stdout);
    assert.match(fit.stdout, /first/);
    // No width known: nothing to fit to.
    assert.ok(longest(piped(['stack', 'show', 'demo', '--fit-width']).stdout) > 200);
    assert.notEqual(piped(['stack', 'show', 'demo', '--max-width', 'wide']).code, 0);
  });

  it('statuses are coloured on a terminal: COMPLETE green, in tables and lists', () => {
    const listed = inTerminal(['stack', 'list'], 200);
    assert.equal(listed.code, 0, listed.output);
    assert.match(listed.output, /\| \x1b\[32mCREATE_COMPLETE\x1b\[39m +\|/);
    const resources = inTerminal(['stack', 'resource', 'list', 'demo'], 200);
    assert.match(resources.output, /\x1b\[32mCREATE_COMPLETE\x1b\[39m/);
    // Only the status: the rest of the table is plain.
    assert.equal(resources.output.match(SGR)?.length, 2);
  });

  it('no colour with NO_COLOR, with TERM=dumb, nor in -f json, yaml or value, even on a terminal', () => {
    const settings: Record<string, string>[] = [
      { NO_COLOR: '1' },
      { TERM: 'dumb' },
      { NO_COLOR: '1', FORCE_COLOR: '1' },
    ];
    for (const env of settings) {
      const listed = inTerminal(['stack', 'list'], 200, env);
      assert.equal(listed.code, 0, listed.output);
      assert.match(listed.output, /CREATE_COMPLETE/);
      assert.doesNotMatch(listed.output, SGR, JSON.stringify(env));
    }
    for (const format of ['json', 'yaml', 'value']) {
      const shown = inTerminal(['stack', 'show', 'demo', '-f', format], 80);
      assert.equal(shown.code, 0, shown.output);
      assert.match(shown.output, /CREATE_COMPLETE/);
      assert.doesNotMatch(shown.output, SGR, format);
    }
  });

  it('FORCE_COLOR colours a pipe (not 0); a pipe is plain otherwise', () => {
    assert.match(piped(['stack', 'list'], { FORCE_COLOR: '1' }).stdout, /\x1b\[32mCREATE_COMPLETE\x1b\[39m/);
    assert.doesNotMatch(piped(['stack', 'list'], { FORCE_COLOR: '0' }).stdout, SGR);
    assert.doesNotMatch(piped(['stack', 'list']).stdout, SGR);
    assert.doesNotMatch(piped(['stack', 'list', '-f', 'value'], { FORCE_COLOR: '1' }).stdout, SGR);
  });

  it("event lines colour their status: a --wait's events as it prints them", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-terminal-'));
    writeFileSync(join(dir, 't.yaml'), TEMPLATE);
    const created = piped(['stack', 'create', 'events', '-t', join(dir, 't.yaml'), '--wait'], {
      FORCE_COLOR: '1',
    });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /\[first\]: \x1b\[33mCREATE_IN_PROGRESS\x1b\[39m/);
    assert.match(created.stdout, /\[first\]: \x1b\[32mCREATE_COMPLETE\x1b\[39m/);
    const deleted = piped(['stack', 'delete', 'events', '--yes', '--wait'], {
      NO_COLOR: '1',
      FORCE_COLOR: '1',
    });
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /\[first\]: DELETE_COMPLETE/);
    assert.doesNotMatch(deleted.stdout, SGR);
  });

  it("errors' prefix is red on a terminal, plain in a pipe", () => {
    const missing = inTerminal(['stack', 'show', 'nothing-here'], 80);
    assert.equal(missing.code, 1, missing.output);
    assert.match(missing.output, /^\x1b\[31mError:\x1b\[39m /m);
    const usage = inTerminal(['stack', 'frobnicate'], 80);
    assert.equal(usage.code, 2, usage.output);
    assert.match(usage.output, /^\x1b\[31merror:\x1b\[39m unknown command/m);
    const piping = piped(['stack', 'show', 'nothing-here']);
    assert.equal(piping.code, 1);
    assert.match(piping.stderr, /^Error: /);
    assert.match(inTerminal(['stack', 'show', 'nothing-here'], 80, { NO_COLOR: '1' }).output, /^Error: /m);
  });
});
