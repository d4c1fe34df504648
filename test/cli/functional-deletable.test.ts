import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T, Workdir } from './workdir.js';

// Issue 20's reproducer, end to end through the CLI: an OS::Heat::ResourceGroup whose member is a
// template resource that fails when the group's child stack is to be made left a stack every
// `stack delete` turned into DELETE_FAILED ("internal: a nested-stack type is run by the engine
// through its child stack"), counted against the quota forever. Now the delete completes, in the
// convergence engine and in the legacy one.

const HOT = 'heat_template_version: 2018-08-31';

/** The member: `value` must be "good", which the group only learns at run time. */
const MEMBER = `${HOT}
parameters:
  value: {type: string, constraints: [{allowed_values: [good]}]}
resources:
  r: {type: ${T}, properties: {value: {get_param: value}}}
`;

const TOP = `${HOT}
resources:
  seed: {type: ${T}, properties: {value: bad}}
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: 2
      resource_def: {type: member.yaml, properties: {value: {get_attr: [seed, output]}}}
`;

async function reproduce(config: string[]): Promise<void> {
  const w = new Workdir({
    'member.yaml': MEMBER,
    'top.yaml': TOP,
    'legacy.yaml': 'convergence_engine: false\n',
  });
  const created = await w.run([...config, 'stack', 'create', 's', '-t', 'top.yaml', '--wait']);
  assert.notEqual(created.code, 0, created.stdout);
  const failed = await w.show('s');
  assert.equal(failed.stack_status, 'CREATE_FAILED', failed.stack_status_reason);
  const [group] = (await w.resources('s')).filter((r) => r.resource_name === 'group');
  assert.equal(group?.resource_status, 'CREATE_FAILED');

  const deleted = await w.run([...config, 'stack', 'delete', 's', '--wait']);
  assert.equal(deleted.code, 0, `${deleted.stderr}${deleted.stdout}`);
  assert.doesNotMatch(deleted.stdout + deleted.stderr, /internal|DELETE_FAILED/);
  assert.deepEqual(await w.json<unknown[]>(['stack', 'list', '--nested']), []);
  const shown = await w.run(['stack', 'show', 's']);
  assert.notEqual(shown.code, 0, 'the deleted stack is not found');
}

describe(
  'a stack whose grouped template resource failed at create is deletable',
  { concurrency: true },
  () => {
    it('convergence engine: the delete completes and the stack is gone from the list', async () => {
      await reproduce([]);
    });

    it('legacy engine: the delete completes and the stack is gone from the list', async () => {
      await reproduce(['--config', 'legacy.yaml']);
    });
  },
);
