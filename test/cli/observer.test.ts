import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sandboxCloud } from '../sandbox/support.js';
import { type ServeProcess, startServe } from './serve-process.js';
import { serverStack } from './server-stack.js';
import { Workdir } from './workdir.js';
import { until as poll } from '../support/poll.js';

/** Seconds between observations: short, so that a heal comes within the test's patience. */
const INTERVAL = 1;
const BOOT_INTERVAL = 3;
/**
 * A heal must come within the interval plus the resource's own create time; this is the slack on
 * top, generous: a loaded machine stretches the create time (a heal never comes is what fails).
 */
const SLACK_MS = 40_000;

const network = (name: string) => `
  net: {type: OS::Neutron::Net, properties: {name: ${name}}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.4.0.0/24}
`;
const ONE_SERVER = (name: string) => serverStack(name, '10.4.0.0/24');

const GROUP = `heat_template_version: 2018-08-31
resources:${network('groupnet')}
  group:
    type: OS::Heat::ResourceGroup
    depends_on: subnet
    properties:
      count: 2
      resource_def:
        type: OS::Nova::Server
        properties:
          name: member-%index%
          image: cirros-0.6.2-x86_64-disk
          flavor: m1.tiny
          networks: [{network: {get_resource: net}}]
`;

type Live = { id: string; name: string; deletedAt: number | null };

interface EventRow {
  resource_name: string;
  resource_status: string;
  resource_status_reason: string;
}

// The observer of a long-running `hearth serve` (API and engine in one process) against the
// sandbox cloud: out-of-band admin actions break things, and the observer heals them.
describe('continuous observation and healing (stack create --observe --heal)', () => {
  const cloud = sandboxCloud();
  let server: ServeProcess;
  let url = '';
  const w = new Workdir({
    'one.yaml': ONE_SERVER('obsnet'),
    'error.yaml': ONE_SERVER('errnet'),
    'flap.yaml': ONE_SERVER('flapnet'),
    'boot.yaml': ONE_SERVER('bootnet'),
    'group.yaml': GROUP,
    'keep.yaml': ONE_SERVER('keepnet'),
    'keep-env.yaml': 'resource_registry:\n  resources:\n    server:\n      restricted_actions: [replace]\n',
  });

  before(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'hearth-observe-')), 'state.db');
    server = await startServe(['--db', db, 'serve', '--auth', 'noauth', '--port', '0'], {
      HEARTH_OBSERVE_HEAL_LIMIT: '2',
      HEARTH_ACTION_RETRY_LIMIT: '0',
    });
    url = `${server.url}/v1/admin`;
  });
  after(() => server.stop());

  const cli = (args: string[]) => w.ok(['--url', url, ...args]);
  const live = () => cloud.state.list<Live>('server').filter((s) => s.deletedAt === null);
  const named = (prefix: string) => live().filter((s) => s.name.startsWith(prefix));
  const admin = async (id: string, action: string, payload: object = {}) => {
    const r = await cloud.app.inject({ method: 'POST', url: `/admin/server/${id}/${action}`, payload });
    assert.equal(r.statusCode, 200, r.body);
  };
  const events = async (stack: string) => {
    const rows = JSON.parse(await cli(['stack', 'event', 'list', stack, '-f', 'json'])) as EventRow[];
    return rows.map((e) => `${e.resource_name} ${e.resource_status} ${e.resource_status_reason}`);
  };
  /**
   * The stack's status, asked of the server's API: the polls below would otherwise start a `hearth`
   * child (a third of a CPU second) each look; `stack show --url` is checked above.
   */
  const status = async (stack: string) => {
    const res = await fetch(`${url}/stacks/${stack}`, { headers: { accept: 'application/json' } });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    return (JSON.parse(text) as { stack: { stack_status: string; stack_status_reason: string } }).stack;
  };

  /** Polls `check` until it returns a value, up to `ms`; the elapsed time with it. */
  async function until<T>(ms: number, what: string, check: () => Promise<T | undefined> | T | undefined) {
    const start = Date.now();
    const stack = what.split(' ')[0]!;
    const value = await poll(what, check, {
      ceilingMs: ms,
      intervalMs: 200,
      detail: async () => (await events(stack).catch(() => [])).join('\n'),
    });
    return { value, elapsed: Date.now() - start };
  }

  /** The stack's server, once a new one (not `old`) is ACTIVE and the stack settled. */
  const healed = (stack: string, prefix: string, old: string) => async () => {
    // An UPDATE_COMPLETE stack has its server ACTIVE.
    const servers = named(prefix).filter((s) => s.id !== old);
    if (servers.length !== 1) return undefined;
    const shown = await status(stack);
    return shown.stack_status === 'UPDATE_COMPLETE' ? servers[0] : undefined;
  };

  it('recreates a server deleted out of band within interval + create time, and says so in the events', async () => {
    await cli([
      'stack',
      'create',
      'obs',
      '-t',
      'one.yaml',
      '--observe',
      String(INTERVAL),
      '--heal',
      '--wait',
    ]);
    const [first] = named('obs-server');
    assert.ok(first, 'the server is up');
    const shown = JSON.parse(await cli(['stack', 'show', 'obs', '-f', 'json'])) as Record<string, unknown>;
    assert.deepEqual(
      [shown.observe_interval, shown.heal],
      [INTERVAL, true],
      'stack show tells the observation',
    );
    await admin(first.id, 'delete');

    const { elapsed } = await until(
      INTERVAL * 1000 + SLACK_MS,
      'the heal',
      healed('obs', 'obs-server', first.id),
    );
    assert.ok(elapsed < INTERVAL * 1000 + SLACK_MS, `healed in ${elapsed} ms`);
    const seen = await events('obs');
    assert.ok(
      seen.some((e) => e === 'server OBSERVE_FAILED Drift: deleted outside Hearth'),
      seen.join('\n'),
    );
    assert.ok(
      seen.some((e) => /^obs UPDATE_IN_PROGRESS Stack UPDATE started: healing server DELETED$/.test(e)),
      seen.join('\n'),
    );
    assert.ok(
      seen.some((e) =>
        /^server CREATE_IN_PROGRESS server \(OS::Nova::Server \S+\) was deleted outside Hearth$/.test(e),
      ),
    );
  });

  it('replaces a server that went to ERROR', async () => {
    await cli([
      'stack',
      'create',
      'err',
      '-t',
      'error.yaml',
      '--observe',
      String(INTERVAL),
      '--heal',
      '--wait',
    ]);
    const [first] = named('err-server');
    await admin(first!.id, 'error', { message: 'hypervisor lost' });
    await until(INTERVAL * 1000 + SLACK_MS, 'err heal', healed('err', 'err-server', first!.id));
    const seen = await events('err');
    assert.ok(
      seen.some((e) => e === 'server OBSERVE_FAILED Drift: server status ERROR: hypervisor lost'),
      seen.join('\n'),
    );
  });

  it('keeps a resource group at its size when a member disappears', async () => {
    await cli([
      'stack',
      'create',
      'grp',
      '-t',
      'group.yaml',
      '--observe',
      String(INTERVAL),
      '--heal',
      '--wait',
    ]);
    const members = named('member-');
    assert.equal(members.length, 2);
    const gone = members.find((m) => m.name === 'member-1')!;
    await admin(gone.id, 'delete');
    await until(INTERVAL * 1000 + SLACK_MS, 'grp member replaced', async () => {
      const now = named('member-');
      if (now.length !== 2 || now.some((s) => s.id === gone.id)) return undefined;
      return (await status('grp')).stack_status === 'UPDATE_COMPLETE' ? now : undefined;
    });
    assert.ok(
      named('member-').some((s) => s.id === members.find((m) => m.name === 'member-0')!.id),
      'member 0 kept',
    );
    const seen = await events('grp');
    assert.ok(
      seen.some((e) => /^grp UPDATE_IN_PROGRESS Stack UPDATE started: healing group\.1 DELETED$/.test(e)),
      seen.join('\n'),
    );
  });

  it('replaces a server that never became ACTIVE once the cloud can boot again', async () => {
    const noise = (bootFailureRate: number) =>
      cloud.app.inject({ method: 'PUT', url: '/admin/noise', payload: { bootFailureRate } });
    assert.equal((await noise(1)).statusCode, 200);
    let created;
    try {
      created = await w.run([
        '--url',
        url,
        'stack',
        'create',
        'boot',
        '-t',
        'boot.yaml',
        // Longer: the cloud should be quiet again before the first heal.
        '--observe',
        String(BOOT_INTERVAL),
        '--heal',
        '--wait',
      ]);
    } finally {
      assert.equal((await noise(0)).statusCode, 200);
    }
    assert.notEqual(created.code, 0);
    // On a slow machine a first heal may still meet the failing cloud: the next comes two intervals later.
    await until(BOOT_INTERVAL * 3000 + SLACK_MS, 'boot heal', async () => {
      const up = named('boot-server');
      return up.length === 1 && (await status('boot')).stack_status === 'UPDATE_COMPLETE' ? up : undefined;
    });
    const seen = await events('boot');
    assert.ok(
      seen.some((e) => /^server CREATE_FAILED .*No valid host was found/.test(e)),
      seen.join('\n'),
    );
    assert.ok(
      seen.some((e) =>
        /^boot UPDATE_IN_PROGRESS Stack UPDATE started: healing server (ERROR|CREATE_FAILED)$/.test(e),
      ),
      seen.join('\n'),
    );
  });

  it('stops healing a flapping resource at the limit and fails the stack with the reason', async () => {
    await cli([
      'stack',
      'create',
      'flap',
      '-t',
      'flap.yaml',
      '--observe',
      String(INTERVAL),
      '--heal',
      '--wait',
    ]);
    let previous = named('flap-server')[0]!.id;
    // The limit is 2: two heals, then the third drift fails the stack.
    for (let heal = 1; heal <= 2; heal++) {
      await admin(previous, 'delete');
      const { value } = await until(
        INTERVAL * 1000 * 2 ** heal + SLACK_MS,
        `heal ${heal}`,
        healed('flap', 'flap-server', previous),
      );
      previous = value.id;
    }
    await admin(previous, 'delete');
    const { value } = await until(INTERVAL * 1000 * 4 + SLACK_MS, 'the stack failed', async () => {
      const shown = await status('flap');
      return shown.stack_status.endsWith('_FAILED') ? shown : undefined;
    });
    assert.match(
      value.stack_status_reason,
      /^Healing stopped: server is DELETED again after 2 heals \(flapping, or it cannot converge\); a person must look at it, then update the stack$/,
    );
    // No more heals: the server stays gone.
    await new Promise((r) => setTimeout(r, INTERVAL * 3000));
    assert.equal(named('flap-server').length, 0);
    // A person's update converges it and starts the count again.
    await cli(['stack', 'update', 'flap', '--existing', '--converge', '--wait']);
    assert.equal(named('flap-server').length, 1);
  });

  it('fails the stack with what needs a person when the only right action is restricted', async () => {
    await cli([
      'stack',
      'create',
      'keep',
      '-t',
      'keep.yaml',
      '-e',
      'keep-env.yaml',
      '--observe',
      String(INTERVAL),
      '--heal',
      '--wait',
    ]);
    await admin(named('keep-server')[0]!.id, 'delete');
    // Two heals are refused (limit 2, the second one interval later), then the observer gives up.
    const { value } = await until(INTERVAL * 1000 * 4 + SLACK_MS, 'keep given up', async () => {
      const shown = await status('keep');
      return shown.stack_status_reason.startsWith('Healing stopped') ? shown : undefined;
    });
    assert.equal(value.stack_status, 'UPDATE_FAILED');
    assert.match(
      value.stack_status_reason,
      /^Healing stopped: server is DELETED again after 2 heals .*; the last heal failed: .*server \(OS::Nova::Server \S+\) was deleted outside Hearth, and replace is restricted for resource \(restricted_actions\): a person must recreate it or lift the restriction$/,
    );
    assert.equal(named('keep-server').length, 0, 'nothing made against the restriction');
  });

  it('exports the observer figures per project', async () => {
    const metrics = await server.request('GET', '/metrics');
    assert.equal(metrics.status, 200);
    const checks = /^hearth_observer_checks\{project_id="([^"]+)"\} (\d+)$/m.exec(metrics.text);
    assert.ok(checks, metrics.text.slice(0, 2000));
    assert.ok(Number(checks[2]) > 10, checks[0]);
    const heals = /^hearth_observer_heals\{project_id="[^"]+"\} (\d+)$/m.exec(metrics.text);
    assert.ok(heals && Number(heals[1]) >= 5, heals?.[0]);
  });
});
