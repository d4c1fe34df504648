import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { workdir } from './helpers.js';
import { type ServeProcess, serveForClients } from './serve-process.js';
import { OPENSTACK_CLIENT_SKIP } from '../support/openstack-client.js';

// The real OpenStack client against `hearth serve` (standalone auth) for the routes of issue 21
// items 5, 6 and 25: a ResourceGroup's members in `stack create --dry-run`, the template types in
// validate's environment, `orchestration service list` (admin only) and `stack export`.

const skip = OPENSTACK_CLIENT_SKIP;

const MEMBER = `heat_template_version: 2018-08-31
parameters:
  v: {type: string}
resources:
  inner: {type: OS::Heat::TestResource, properties: {value: {get_param: v}}}
`;

const GROUP = `heat_template_version: 2018-08-31
resources:
  word: {type: OS::Heat::RandomString, properties: {length: 6}}
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def:
        type: OS::Heat::TestResource
        properties: {value: {list_join: ['-', [m%index%, {get_attr: [word, value]}]]}}
  nested: {type: member.yaml, properties: {v: given}}
`;

describe('the real openstack CLI: previews of groups, validate, services, export', { skip }, () => {
  let server: ServeProcess;
  let dir: string;
  const tokens: Record<'member' | 'admin', Record<string, string>> = { member: {}, admin: {} };

  before(async () => {
    const w = workdir({ 'group.yaml': GROUP, 'member.yaml': MEMBER });
    dir = w.dir;
    const served = await serveForClients(w, [{ name: 'alice' }, { name: 'root', role: 'admin' }]);
    server = served.server;
    tokens.member = served.envOf.alice!;
    tokens.admin = served.envOf.root!;
  });
  after(async () => {
    await server?.stop();
  });

  function run(who: 'member' | 'admin', args: string[]) {
    return spawnSync('openstack', args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...tokens[who] },
      encoding: 'utf8',
      timeout: 120_000,
    });
  }
  const json = <T>(who: 'member' | 'admin', ...args: string[]): T => {
    const r = run(who, [...args, '-f', 'json']);
    assert.equal(r.status, 0, `openstack ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
    const start = r.stdout.search(/^[[{]/m);
    assert.ok(start >= 0, `no JSON in:\n${r.stdout}`);
    return JSON.parse(r.stdout.slice(start)) as T;
  };

  it('stack create --dry-run lists a group’s members, nested under it', () => {
    const preview = json<{ resources: unknown }>(
      'member',
      'stack',
      'create',
      '--dry-run',
      '-t',
      join(dir, 'group.yaml'),
      'g',
    );
    // The client prints `resources` as JSON text.
    const resources = (
      typeof preview.resources === 'string' ? JSON.parse(preview.resources) : preview.resources
    ) as unknown[];
    const group = resources.find(
      (r) => Array.isArray(r) && (r as { parent_resource?: string }[])[0]?.parent_resource === 'group',
    ) as { resource_name: string; stack_name: string; resource_type: string }[] | undefined;
    assert.ok(group, JSON.stringify(resources));
    assert.deepEqual(
      group.map((m) => [m.resource_name, m.stack_name, m.resource_type]),
      [
        ['0', 'g-group', 'OS::Heat::TestResource'],
        ['1', 'g-group', 'OS::Heat::TestResource'],
      ],
    );
  });

  it('template validate lists the template types in the environment’s resource_registry', () => {
    // The client sends the nested template's type as the absolute URL it read it from.
    const url = `file://${join(dir, 'member.yaml')}`;
    for (const extra of [[], ['--show-nested']]) {
      const valid = json<{ Environment: unknown; NestedParameters?: unknown }>(
        'member',
        'orchestration',
        'template',
        'validate',
        ...extra,
        '-t',
        join(dir, 'group.yaml'),
      );
      const env = (
        typeof valid.Environment === 'string' ? JSON.parse(valid.Environment) : valid.Environment
      ) as { resource_registry: Record<string, unknown> };
      assert.deepEqual(env.resource_registry, { resources: {}, [url]: url }, extra.join(' '));
      assert.equal(valid.NestedParameters !== undefined, extra.length > 0, JSON.stringify(valid));
    }
  });

  it('orchestration service list: the server’s engine for an admin, refused to a member', async () => {
    // The server's engine registers at its first heartbeat.
    let services: Record<string, string>[] = [];
    for (let i = 0; i < 50 && services.length === 0; i++) {
      services = json<Record<string, string>[]>('admin', 'orchestration', 'service', 'list');
      if (services.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(services.length, 1, JSON.stringify(services));
    const [engine] = services as [Record<string, string>];
    assert.equal(engine.Status, 'up');
    assert.equal(engine.Binary, 'heat-engine');
    assert.equal(engine.Topic, 'engine');
    assert.ok(engine['Engine ID'] && engine.Host && engine.Hostname, JSON.stringify(engine));
    assert.match(engine['Updated At']!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const refused = run('member', ['orchestration', 'service', 'list']);
    assert.notEqual(refused.status, 0, refused.stdout);
    assert.match(refused.stderr, /403|Forbidden|admin/i);
  });

  it('stack export prints the abandon document and leaves the stack as it was', () => {
    const created = json<{ stack_status: string; id: string }>(
      'member',
      'stack',
      'create',
      '-t',
      join(dir, 'group.yaml'),
      '--wait',
      'e',
    );
    assert.equal(created.stack_status, 'CREATE_COMPLETE');
    const exported = json<Record<string, unknown>>('member', 'stack', 'export', 'e');
    assert.equal(exported.id, created.id);
    assert.equal(exported.name, 'e');
    assert.equal(exported.status, 'COMPLETE');
    const resources = (
      typeof exported.resources === 'string' ? JSON.parse(exported.resources) : exported.resources
    ) as Record<string, { resources?: Record<string, unknown> }>;
    assert.deepEqual(Object.keys(resources).sort(), ['group', 'nested', 'word']);
    assert.deepEqual(Object.keys(resources.group!.resources ?? {}).sort(), ['0', '1']);

    const file = join(dir, 'exported.json');
    const r = run('member', ['stack', 'export', 'e', '--output-file', file]);
    assert.equal(r.status, 0, r.stderr);
    const shown = json<{ stack_status: string }>('member', 'stack', 'show', 'e');
    assert.equal(shown.stack_status, 'CREATE_COMPLETE');
  });
});
