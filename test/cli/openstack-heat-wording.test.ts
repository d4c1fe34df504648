import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { workdir } from './helpers.js';
import { type ServeProcess, serveForClients } from './serve-process.js';
import { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';

// What Heat's own clients read off Heat's texts and links, through the real `openstack` CLI
// against `hearth serve`: the labels `stack event list --nested-depth` builds for nested stacks'
// events, a failing resource's reason in Heat's wording, and a stack named by its ARN.

const skip = OPENSTACK_CLIENT_SKIP;

const MEMBER = `heat_template_version: 2018-08-31
parameters:
  fail: {type: boolean, default: false}
resources:
  inner: {type: OS::Heat::TestResource, properties: {value: in, fail: {get_param: fail}}}
`;

const TOP = `heat_template_version: 2018-08-31
parameters:
  fail: {type: boolean, default: false}
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: member.yaml, properties: {fail: {get_param: fail}}}
`;

describe('the real openstack CLI: nested event labels, failure reasons, ARNs', { skip }, () => {
  let server: ServeProcess;
  let env: Record<string, string>;
  let dir: string;
  let projectId: string;

  before(async () => {
    const w = workdir({ 'top.yaml': TOP, 'member.yaml': MEMBER });
    dir = w.dir;
    const served = await serveForClients(w);
    ({ server, projectId } = served);
    env = served.envOf.alice!;
  });
  after(async () => {
    await server?.stop();
  });

  function openstack(...args: string[]): { status: number | null; stdout: string; stderr: string } {
    return spawnSync('openstack', args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
  }
  function ok(...args: string[]): string {
    const r = openstack(...args);
    assert.equal(r.status, 0, `openstack ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  }
  /** The `[label]` of each line of the client's event log, with the status after it. */
  const labelled = (log: string): string[] =>
    log
      .split('\n')
      .map((line) => /\[([^\]]*)\]: (\S+)/.exec(line))
      .filter((m) => m !== null)
      .map((m) => `${m[1]} ${m[2]}`);

  it('labels nested events [stack.resource.member.resource] with --nested-depth 2, as with Heat', () => {
    ok('stack', 'create', '-t', 'top.yaml', 'top', '--wait');
    const lines = labelled(ok('stack', 'event', 'list', 'top', '--nested-depth', '2'));
    for (const expected of [
      'top CREATE_IN_PROGRESS',
      'top.group CREATE_IN_PROGRESS',
      'top.group.0 CREATE_IN_PROGRESS',
      'top.group.1 CREATE_COMPLETE',
      'top.group.0.inner CREATE_IN_PROGRESS',
      'top.group.1.inner CREATE_COMPLETE',
      'top.group CREATE_COMPLETE',
      'top CREATE_COMPLETE',
    ]) {
      assert.ok(lines.includes(expected), `${expected} in:\n${lines.join('\n')}`);
    }
    // No label is a nested stack's generated name (what the client shows without Heat's links).
    assert.deepEqual(
      lines.filter((l) => /top-group-/.test(l)),
      [],
    );
    // Depth 1: the members, not what is inside them.
    const shallow = labelled(ok('stack', 'event', 'list', 'top', '--nested-depth', '1'));
    assert.ok(shallow.includes('top.group.1 CREATE_COMPLETE'), shallow.join('\n'));
    assert.ok(!shallow.some((l) => l.startsWith('top.group.0.inner')), shallow.join('\n'));
  });

  it("shows a failing nested resource's reason in Heat's wording, path and all", () => {
    const r = openstack('stack', 'create', '-t', 'top.yaml', 'bad', '--parameter', 'fail=true', '--wait');
    assert.notEqual(r.status, 0);
    const shown = JSON.parse(ok('stack', 'show', 'bad', '-f', 'json')) as Record<string, string>;
    assert.equal(shown.stack_status, 'CREATE_FAILED');
    // Whichever member failed first names the reason; both fail the same way.
    assert.match(
      shown.stack_status_reason!,
      /^Resource CREATE failed: ValueError: resources\.group\.resources\[[01]\]\.resources\.inner: Test Resource failed inner$/,
    );
    const group = JSON.parse(ok('stack', 'resource', 'show', 'bad', 'group', '-f', 'json')) as Record<
      string,
      string
    >;
    assert.match(
      group.resource_status_reason!,
      /^ValueError: resources\.group\.resources\[[01]\]\.resources\.inner: Test Resource failed inner$/,
    );
  });

  it('shows a stack named by its ARN (the client follows Heat’s redirect)', () => {
    const id = (JSON.parse(ok('stack', 'show', 'top', '-f', 'json')) as Record<string, string>).id!;
    const arn = `arn:openstack:heat::${projectId}:stacks/top/${id}`;
    const shown = JSON.parse(ok('stack', 'show', arn, '-f', 'json')) as Record<string, string>;
    assert.equal(shown.id, id);
    assert.equal(shown.stack_name, 'top');
    const resources = JSON.parse(ok('stack', 'resource', 'list', arn, '-f', 'json')) as {
      resource_name: string;
    }[];
    assert.deepEqual(
      resources.map((r) => r.resource_name),
      ['group'],
    );
    // Another project's ARN names no stack here.
    const other = openstack('stack', 'show', `arn:openstack:heat::someone-else:stacks/top/${id}`);
    assert.notEqual(other.status, 0);
    assert.match(other.stderr, /Stack not found: arn:openstack:heat::someone-else:/);
  });
});
