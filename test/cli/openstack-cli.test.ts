import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { workdir } from './helpers.js';
import { type ServeProcess, serveForClients } from './serve-process.js';
import { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';

// The real OpenStack client (Debian's python3-openstackclient + python3-heatclient) against
// `hearth serve` with standalone auth: a token made by `hearth manage`, sent by the client's
// admin_token plugin. Every command must exit 0 and print what Heat's API would make it print.

const skip = OPENSTACK_CLIENT_SKIP;

const TEMPLATE = `heat_template_version: 2018-08-31
description: Hearth and the real openstack client
parameters:
  v: {type: string, default: one}
  secret: {type: string, default: s3cr3t, hidden: true}
resources:
  first: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
  second: {type: OS::Heat::TestResource, properties: {value: {get_attr: [first, output]}}}
  word: {type: OS::Heat::RandomString, properties: {length: 6}}
outputs:
  out: {description: the second output, value: {get_attr: [second, output]}}
  word: {value: {get_attr: [word, value]}}
`;

describe('the real openstack CLI against hearth serve', { skip }, () => {
  let server: ServeProcess;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    const w = workdir({
      't.yaml': TEMPLATE,
      'bad.yaml': 'heat_template_version: 2018-08-31\nresources:\n  a: {type: OS::No::Such}\n',
      'nope.yaml':
        'heat_template_version: 2018-08-31\nresources:\n  x: {type: OS::Heat::TestResource, properties: {nope: 1}}\n',
    });
    dir = w.dir;
    const served = await serveForClients(w);
    server = served.server;
    env = served.envOf.alice!;
  });
  after(async () => {
    await server?.stop();
  });

  function openstack(...args: string[]): string {
    const r = spawnSync('openstack', args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 0, `openstack ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  }
  /** `-f json` output; `--wait` prints the events it saw before the JSON. */
  const json = <T>(...args: string[]): T => {
    const out = openstack(...args, '-f', 'json');
    const start = out.search(/^[[{]/m);
    assert.ok(start >= 0, `no JSON in:\n${out}`);
    return JSON.parse(out.slice(start)) as T;
  };

  /** `stack output show --all`: the client prints each output as a JSON string of its body. */
  const allOutputs = (): Record<string, { output_value: unknown }> =>
    Object.fromEntries(
      Object.entries(json<Record<string, string>>('stack', 'output', 'show', '--all', 's')).map(([k, v]) => [
        k,
        JSON.parse(v) as { output_value: unknown },
      ]),
    );

  it('validates a template, and lists resource types', () => {
    const valid = json<{ Description: string; Parameters: Record<string, { Type: string }> }>(
      'orchestration',
      'template',
      'validate',
      '-t',
      join(dir, 't.yaml'),
    );
    assert.equal(valid.Description, 'Hearth and the real openstack client');
    assert.equal(valid.Parameters.v!.Type, 'String');
    const types = json<{ 'Resource Type': string }[]>('orchestration', 'resource', 'type', 'list');
    const names = types.map((t) => t['Resource Type']);
    for (const type of ['OS::Heat::RandomString', 'OS::Heat::ResourceGroup', 'OS::Heat::WaitCondition']) {
      assert.ok(names.includes(type), type);
    }
  });

  it('creates with --wait, then lists, shows, and lists resources, events and outputs', () => {
    const created = json<{ stack_status: string; id: string }>(
      'stack',
      'create',
      '-t',
      join(dir, 't.yaml'),
      '--parameter',
      'v=hello',
      '--wait',
      's',
    );
    assert.equal(created.stack_status, 'CREATE_COMPLETE');
    const list = json<{ 'Stack Name': string; 'Stack Status': string }[]>('stack', 'list');
    assert.deepEqual(
      list.map((s) => [s['Stack Name'], s['Stack Status']]),
      [['s', 'CREATE_COMPLETE']],
    );
    const shown = json<{
      parameters: Record<string, string>;
      outputs: { output_key: string; output_value: unknown }[];
    }>('stack', 'show', 's');
    assert.equal(shown.parameters.v, 'hello');
    assert.equal(shown.parameters.secret, '******');
    const resources = json<{ resource_name: string; resource_status: string }[]>(
      'stack',
      'resource',
      'list',
      's',
    );
    assert.deepEqual(resources.map((r) => [r.resource_name, r.resource_status]).sort(), [
      ['first', 'CREATE_COMPLETE'],
      ['second', 'CREATE_COMPLETE'],
      ['word', 'CREATE_COMPLETE'],
    ]);
    const events = json<{ resource_name: string; resource_status: string }[]>('stack', 'event', 'list', 's');
    assert.ok(events.some((e) => e.resource_name === 'second' && e.resource_status === 'CREATE_COMPLETE'));
    assert.ok(events.some((e) => e.resource_name === 's' && e.resource_status === 'CREATE_COMPLETE'));
    const outputs = allOutputs();
    assert.equal(outputs.out!.output_value, 'hello');
    assert.match(String(outputs.word!.output_value), /^[A-Za-z0-9]{6}$/);
    assert.ok(!openstack('stack', 'show', 's').includes('s3cr3t'), 'the hidden value is never shown');
  });

  it('updates --existing with a new parameter (--wait), checks, and deletes (--wait)', () => {
    const word = allOutputs().word!;
    const updated = json<{ stack_status: string }>(
      'stack',
      'update',
      '--existing',
      '--parameter',
      'v=again',
      '--wait',
      's',
    );
    assert.equal(updated.stack_status, 'UPDATE_COMPLETE');
    const outputs = allOutputs();
    assert.equal(outputs.out!.output_value, 'again');
    assert.deepEqual(outputs.word, word, 'the unchanged resource kept its value');

    openstack('stack', 'check', 's');
    let status = '';
    for (let i = 0; i < 60 && status !== 'CHECK_COMPLETE'; i++) {
      status = json<{ stack_status: string }>('stack', 'show', 's').stack_status;
      if (status !== 'CHECK_COMPLETE') spawnSync('sleep', ['0.5']);
    }
    assert.equal(status, 'CHECK_COMPLETE');
    // The RandomString has no check of its own: Heat's suffix says so.
    assert.equal(
      json<{ stack_status_reason: string }>('stack', 'show', 's').stack_status_reason,
      "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
    );

    openstack('stack', 'delete', '--yes', '--wait', 's');
    assert.deepEqual(json<unknown[]>('stack', 'list'), []);
  });

  it('an invalid template is refused with Heat’s message, and nothing is made', () => {
    const create = (file: string, name: string) =>
      spawnSync('openstack', ['stack', 'create', '-t', join(dir, file), name], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
        encoding: 'utf8',
      });
    const bad = create('bad.yaml', 'bad');
    assert.notEqual(bad.status, 0);
    // Heat's wording first (scripts match on it), Hearth's file:line:column and path after it.
    assert.match(
      bad.stderr,
      /^ERROR: The Resource Type \(OS::No::Such\) could not be found\. \(\S+:\d+:\d+: resources\.a\.type\)$/m,
    );
    const nope = create('nope.yaml', 'nope');
    assert.notEqual(nope.status, 0);
    assert.match(
      nope.stderr,
      /^ERROR: Property error: : resources\.x\.properties: : Unknown Property nope \(\S+:\d+:\d+: resources\.x\.properties\.nope\)$/m,
    );
    assert.deepEqual(json<unknown[]>('stack', 'list'), []);
  });
});
