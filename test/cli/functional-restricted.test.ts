import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snapshot } from './state-snapshot.js';
import { type EventRow, history, statuses, T, Workdir } from './workdir.js';

// Heat's functional test test_update_restricted (heat_integrationtests/functional/
// test_update_restricted.py), end to end through the `hearth` CLI: `restricted_actions` in the
// environment's resource_registry refuse an update that would update (or replace) a restricted
// resource. The refused update touches nothing: resources, physical resources (the reality's
// file) and the stored template are exactly as before; the stack is UPDATE_FAILED with Heat's
// reason and the resource gets an UPDATE_FAILED event saying which action is restricted.

const HOT = 'heat_template_version: 2013-05-23';
const TEMPLATE = `${HOT}\nresources:\n  bar:\n    type: ${T}\n    properties: {value: '1234', update_replace: false}\n`;
const UPDATE = `${HOT}\nresources:\n  bar:\n    type: ${T}\n    properties: {value: '4567', update_replace: false}\n`;
const REPLACE = `${HOT}\nresources:\n  bar:\n    type: ${T}\n    properties: {value: '4567', update_replace: true}\n`;
const RETYPE = `${HOT}\nresources:\n  bar:\n    type: OS::Heat::None\n`;

const env = (actions: string) =>
  `resource_registry:\n  resources:\n    bar:\n      restricted_actions: ${actions}\n`;
const ENVS = {
  'both.yaml': env('[update, replace]'),
  'update.yaml': env('update'),
  'replace.yaml': env('replace'),
};
/** What a refused update writes: the stack's status and events (and so the events' id sequence). */
const OPERATION_LOG = ['stacks', 'events', 'sqlite_sequence'];
const UPDATE_RESTRICTED = 'update is restricted for resource.';
const REPLACE_RESTRICTED = 'replace is restricted for resource.';

function reasons(events: EventRow[], reason: string): number {
  return events.filter((e) => e.resource_name === 'bar' && e.resource_status_reason === reason).length;
}

/** A refused update: it exits non-zero with Heat's reason, and leaves all but status and events as they were. */
async function refused(w: Workdir, template: string, envFile: string, reason: string): Promise<void> {
  const before = snapshot(w, OPERATION_LOG);
  const storedTemplate = await w.ok(['stack', 'template', 'show', 's']);
  const r = await w.run(['stack', 'update', 's', '-t', template, '-e', envFile, '--wait']);
  assert.notEqual(r.code, 0, r.stdout);
  assert.match(
    r.stderr,
    new RegExp(`ResourceActionRestricted: resources\\.bar: ${reason.replace('.', '\\.')}`),
  );
  const shown = await w.show('s');
  assert.equal(shown.stack_status, 'UPDATE_FAILED');
  assert.equal(
    shown.stack_status_reason,
    `Resource UPDATE failed: ResourceActionRestricted: resources.bar: ${reason}`,
  );
  assert.equal(snapshot(w, OPERATION_LOG), before, 'no resource, template or physical resource changed');
  assert.equal(await w.ok(['stack', 'template', 'show', 's']), storedTemplate);
  assert.deepEqual(statuses(await w.resources('s')), { bar: 'CREATE_COMPLETE' });
}

async function created(files: Record<string, string>): Promise<Workdir> {
  const w = new Workdir({ 't.yaml': TEMPLATE, ...ENVS, ...files });
  await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
  return w;
}

describe('restricted_actions (Heat functional test_update_restricted)', { concurrency: true }, () => {
  it('test_update: refused with update restricted; allowed with only replace restricted', async () => {
    const w = await created({ 'u.yaml': UPDATE });
    const id = (await w.ids('s')).bar;
    await refused(w, 'u.yaml', 'both.yaml', UPDATE_RESTRICTED);
    assert.equal(reasons(await w.events('s'), UPDATE_RESTRICTED), 1);

    assert.equal(
      await w.finished(['stack', 'update', 's', '-t', 'u.yaml', '-e', 'replace.yaml', '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.deepEqual(statuses(await w.resources('s')), { bar: 'UPDATE_COMPLETE' });
    assert.equal((await w.ids('s')).bar, id, 'updated in place');
    const events = await w.events('s');
    assert.equal(reasons(events, UPDATE_RESTRICTED), 1);
    assert.equal(reasons(events, REPLACE_RESTRICTED), 0);
  });

  it('test_replace: refused with both or replace restricted; allowed with only update restricted', async () => {
    const w = await created({ 'r.yaml': REPLACE });
    const id = (await w.ids('s')).bar;
    await refused(w, 'r.yaml', 'both.yaml', REPLACE_RESTRICTED);
    await refused(w, 'r.yaml', 'replace.yaml', REPLACE_RESTRICTED);
    assert.equal(reasons(await w.events('s'), REPLACE_RESTRICTED), 2);

    assert.equal(
      await w.finished(['stack', 'update', 's', '-t', 'r.yaml', '-e', 'update.yaml', '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.deepEqual(statuses(await w.resources('s')), { bar: 'CREATE_COMPLETE' }, 'a new resource');
    assert.notEqual((await w.ids('s')).bar, id, 'replaced');
    assert.equal(reasons(await w.events('s'), UPDATE_RESTRICTED), 0);
  });

  it('test_update_type_changed: a type change is a replacement', async () => {
    const w = await created({ 'n.yaml': RETYPE });
    await refused(w, 'n.yaml', 'both.yaml', REPLACE_RESTRICTED);
    await refused(w, 'n.yaml', 'replace.yaml', REPLACE_RESTRICTED);
    assert.equal(
      await w.finished(['stack', 'update', 's', '-t', 'n.yaml', '-e', 'update.yaml', '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.equal((await w.resources('s'))[0]!.resource_type, 'OS::Heat::None');
    // The new row has the new type: the same template again leaves it alone.
    const id = (await w.ids('s')).bar;
    await w.ok(['stack', 'update', 's', '-t', 'n.yaml', '-e', 'update.yaml', '--wait']);
    assert.equal((await w.ids('s')).bar, id);
  });

  it('an update touching only unrestricted resources proceeds; a wildcard restricts every match', async () => {
    const two = (bar: string, baz: string) =>
      `${HOT}\nresources:\n  bar: {type: ${T}, properties: {value: '${bar}'}}\n  baz: {type: ${T}, properties: {value: '${baz}'}}\n`;
    const w = new Workdir({
      'v1.yaml': two('1', '1'),
      'v2.yaml': two('1', '2'),
      'v3.yaml': two('2', '2'),
      'bar.yaml': env('[update, replace]'),
      'wild.yaml': 'resource_registry:\n  resources:\n    "ba*":\n      restricted_actions: update\n',
    });
    await w.ok(['stack', 'create', 's', '-t', 'v1.yaml', '--wait']);
    assert.equal(
      await w.finished(['stack', 'update', 's', '-t', 'v2.yaml', '-e', 'bar.yaml', '--wait']),
      'UPDATE_COMPLETE',
    );
    assert.deepEqual(statuses(await w.resources('s')), { bar: 'CREATE_COMPLETE', baz: 'UPDATE_COMPLETE' });

    const r = await w.run(['stack', 'update', 's', '-t', 'v3.yaml', '-e', 'wild.yaml', '--wait']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /resources\.bar: update is restricted for resource\./);
    assert.equal(await w.status('s'), 'UPDATE_FAILED');
    // Failed up front, nothing to roll back: the next update converges as usual.
    await w.ok(['stack', 'update', 's', '-t', 'v3.yaml', '--wait']);
    assert.deepEqual(statuses(await w.resources('s')), { bar: 'UPDATE_COMPLETE', baz: 'UPDATE_COMPLETE' });
  });

  it('a restriction on a resource inside nested stacks, by its path, refuses a change there', async () => {
    const nested = (length: number) =>
      `heat_template_version: 2016-04-08\nresources:\n  random: {type: OS::Heat::RandomString, properties: {length: ${length}}}\n`;
    const w = new Workdir({
      'parent.yaml': 'heat_template_version: 2016-04-08\nresources:\n  outer: {type: middle.yaml}\n',
      'middle.yaml': 'heat_template_version: 2016-04-08\nresources:\n  inner: {type: leaf.yaml}\n',
      'leaf.yaml': nested(8),
      'deep.yaml':
        'resource_registry:\n  resources:\n    outer:\n      inner:\n        random:\n          restricted_actions: replace\n',
    });
    await w.ok(['stack', 'create', 's', '-t', 'parent.yaml', '--wait']);
    w.write('leaf.yaml', nested(12));
    const before = snapshot(w, OPERATION_LOG);
    const r = await w.run(['stack', 'update', 's', '-t', 'parent.yaml', '-e', 'deep.yaml', '--wait']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /resources\.outer\.resources\.inner\.resources\.random: replace is restricted/);
    assert.equal(snapshot(w, OPERATION_LOG), before, 'nothing changed, nested stacks included');
    // The same restriction does not hold back an update that leaves the resource alone.
    w.write('leaf.yaml', nested(8));
    assert.equal(
      await w.finished(['stack', 'update', 's', '-t', 'parent.yaml', '-e', 'deep.yaml', '--wait']),
      'UPDATE_COMPLETE',
    );
  });

  it('with rollback enabled, the refused update is rolled back (to the template it kept)', async () => {
    const w = await created({ 'u.yaml': UPDATE });
    const args = ['-e', 'both.yaml', '--rollback', 'enabled', '--wait'];
    await w.ok(['stack', 'update', 's', '-t', 'u.yaml', ...args]);
    assert.equal(await w.status('s'), 'ROLLBACK_COMPLETE');
    assert.deepEqual(history(await w.events('s'), 's').slice(2), [
      'UPDATE_IN_PROGRESS',
      'UPDATE_FAILED',
      'ROLLBACK_IN_PROGRESS',
      'ROLLBACK_COMPLETE',
    ]);
    assert.deepEqual(statuses(await w.resources('s')), { bar: 'CREATE_COMPLETE' });
    assert.equal(await w.attribute('s', 'bar'), '1234');
  });
});
