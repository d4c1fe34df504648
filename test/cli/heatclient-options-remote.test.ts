import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServeProcess, startServe } from './serve-process.js';
import { parseJson, T, Workdir } from './workdir.js';

// -c/--column, --parameter-file and --poll with --url, against a real `hearth serve`.

const HOT = 'heat_template_version: 2018-08-31';
const KEYED = `${HOT}
parameters:
  key: {type: string}
resources:
  r: {type: OS::Heat::Value, properties: {value: {get_param: key}}}
outputs:
  key: {value: {get_attr: [r, value]}}
`;
// A delete that takes a few seconds: time for several polls.
const SLOW_DELETE = `${HOT}
resources:
  a: {type: ${T}, properties: {action_wait_secs: {delete: 5}}}
`;

interface LogLine {
  time: number;
  msg: string;
  req?: { method: string; url: string };
}

describe('hearth stack --url: heatclient options and -c', () => {
  let server: ServeProcess;
  let url = '';
  const w = new Workdir({ 'slow.yaml': SLOW_DELETE });
  mkdirSync(join(w.dir, 'tpl'));
  w.write('tpl/t.yaml', KEYED);
  w.write('tpl/key.pub', 'ssh-ed25519 AAAA first@host\n');
  w.write('here.pub', 'ssh-ed25519 CCCC third@host\n');
  const remote = (args: string[]) => w.ok(['--url', url, ...args]);

  before(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'hearth-serve-')), 'state.db');
    // Requests are logged at info: the poll test reads when the stack was asked for.
    server = await startServe(['--db', db, 'serve', '--auth', 'noauth', '--port', '0'], {
      HEARTH_LOG_LEVEL: 'info',
    });
    url = `${server.url}/v1/admin`;
  });
  after(() => server.stop());

  it("--parameter-file sends the file's content (from the template's directory, or the working directory for --existing)", async () => {
    await remote(['stack', 'create', 'p', '-t', 'tpl/t.yaml', '--parameter-file', 'key=key.pub', '--wait']);
    const shown = parseJson<{ outputs: { output_key: string; output_value: unknown }[] }>(
      await remote(['stack', 'show', 'p', '-f', 'json']),
    );
    assert.deepEqual(
      shown.outputs.map((o) => o.output_value),
      ['ssh-ed25519 AAAA first@host\n'],
    );
    await remote(['stack', 'update', 'p', '--existing', '--parameter-file', 'key=here.pub', '--wait']);
    const value = await remote(['stack', 'output', 'show', 'p', 'key', '-f', 'value', '-c', 'output_value']);
    assert.equal(value, 'ssh-ed25519 CCCC third@host\n\n');
  });

  it('-c selects columns of records and lists as in embedded mode; none recognized is an error', async () => {
    await remote(['stack', 'create', 'c', '-t', 'tpl/t.yaml', '--parameter', 'key=k', '--wait']);
    assert.equal(
      await remote(['stack', 'show', 'c', '-f', 'value', '-c', 'stack_status', '-c', 'stack_name']),
      'c\nCREATE_COMPLETE\n',
    );
    const rows = parseJson<Record<string, unknown>[]>(
      await remote([
        'stack',
        'resource',
        'list',
        'c',
        '-f',
        'json',
        '-c',
        'resource_type',
        '-c',
        'resource_name',
      ]),
    );
    assert.deepEqual(rows, [{ resource_name: 'r', resource_type: 'OS::Heat::Value' }]);
    const bad = await w.run(['--url', url, 'stack', 'list', '-c', 'Name']);
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /No recognized column names in \['Name'\]\. Recognized columns are \['id', 'stack_name', /,
    );
  });

  it('--poll SECONDS waits, asking the server for the stack at that interval', async () => {
    await remote(['stack', 'create', 'slow', '-t', 'slow.yaml', '--wait']);
    const from = server.stderr().length;
    const deleted = await remote(['stack', 'delete', 'slow', '--poll', '2']);
    assert.doesNotMatch(deleted, /Request to delete/, 'it waited');

    const lines = server
      .stderr()
      .slice(from)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine)
      .filter((l) => l.msg === 'incoming request' && l.req);
    const deleteAt = lines.findIndex((l) => l.req!.method === 'DELETE');
    assert.ok(deleteAt >= 0, 'the delete was sent');
    // The stack itself (not its events) asked for after the delete: the polls.
    const polls = lines
      .slice(deleteAt + 1)
      .filter((l) => l.req!.method === 'GET' && /\/stacks\/slow\/[^/?]+(\?|$)/.test(l.req!.url))
      .map((l) => l.time);
    assert.ok(polls.length >= 2, `several polls (${polls.length}) during a 5 s delete`);
    const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
    // Never sooner than asked (the default wait asks every second).
    assert.ok(Math.min(...gaps) >= 1900, `gaps between polls: ${gaps.join(', ')} ms`);
  });
});
