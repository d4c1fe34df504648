import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { history, outputValues, params, statuses, T, Workdir } from './workdir.js';

// Heat's functional tests of conditions (test_conditions.py: resources and outputs switched on and
// off by parameters across updates) and of outputs and events (heat-tempest-plugin's
// test_stack_outputs and test_stack_events), end to end through the CLI.

describe(
  'conditions, outputs and events through the CLI (Heat functional tests)',
  { concurrency: true },
  () => {
    it('test_conditions: resources and outputs appear and disappear as the parameters change', async () => {
      const w = new Workdir({
        'c.yaml': `heat_template_version: 2016-10-14
parameters:
  env_type: {type: string, default: test, constraints: [{allowed_values: [prod, test]}]}
  zone: {type: string, default: beijing}
conditions:
  prod: {equals: [{get_param: env_type}, prod]}
  test: {not: prod}
  beijing_prod: {and: [prod, {equals: [{get_param: zone}, beijing]}]}
resources:
  always: {type: ${T}, properties: {value: {if: [prod, env_is_prod, env_is_test]}}}
  prod_res: {type: ${T}, condition: prod, properties: {value: prod_res}}
  test_res: {type: ${T}, condition: test, properties: {value: just in test env}}
  beijing_prod_res:
    type: ${T}
    condition: beijing_prod
    properties: {value: {list_join: ['-', [{get_attr: [prod_res, output]}, beijing]]}}
outputs:
  res_value: {value: {get_attr: [prod_res, output]}, condition: prod}
  always: {value: {get_attr: [always, output]}}
  prod_resource: {value: {if: [prod, {get_resource: prod_res}, no_prod_res]}}
  test_res_value: {value: {if: [test, {get_attr: [test_res, output]}, no_test_res]}}
  beijing_prod_res: {value: {if: [beijing_prod, {get_attr: [beijing_prod_res, output]}, no_prod_res]}}
`,
      });
      /** The stack's resources (name → physical id) and output values, once COMPLETE. */
      const state = async () => {
        const shown = await w.show('s');
        assert.match(shown.stack_status, /^(CREATE|UPDATE)_COMPLETE$/);
        const rows = await w.resources('s');
        assert.ok(rows.every((r) => r.resource_status.endsWith('_COMPLETE')));
        const ids = Object.fromEntries(rows.map((r) => [r.resource_name, r.physical_resource_id]));
        return { ids, outputs: outputValues(shown) };
      };

      await w.ok(['stack', 'create', 's', '-t', 'c.yaml', '--wait']);
      const test = await state();
      assert.deepEqual(Object.keys(test.ids).sort(), ['always', 'test_res']);
      assert.deepEqual(test.outputs, {
        res_value: null, // Heat: an output whose condition is false is there, with no value
        always: 'env_is_test',
        prod_resource: 'no_prod_res',
        test_res_value: 'just in test env',
        beijing_prod_res: 'no_prod_res',
      });

      await w.ok(['stack', 'update', 's', '--existing', ...params({ env_type: 'prod' }), '--wait']);
      const prod = await state();
      assert.deepEqual(Object.keys(prod.ids).sort(), ['always', 'beijing_prod_res', 'prod_res']);
      assert.equal(prod.ids.always, test.ids.always, 'updated in place');
      assert.deepEqual(prod.outputs, {
        res_value: 'prod_res',
        always: 'env_is_prod',
        prod_resource: prod.ids.prod_res,
        test_res_value: 'no_test_res',
        beijing_prod_res: 'prod_res-beijing',
      });

      // --existing keeps env_type=prod; only the zone changes.
      await w.ok(['stack', 'update', 's', '--existing', ...params({ zone: 'shanghai' }), '--wait']);
      const shanghai = await state();
      assert.deepEqual(shanghai.ids, { always: prod.ids.always, prod_res: prod.ids.prod_res });
      assert.equal(shanghai.outputs.beijing_prod_res, 'no_prod_res');
      assert.equal(shanghai.outputs.res_value, 'prod_res');

      await w.ok(['stack', 'update', 's', '--existing', ...params({ env_type: 'test' }), '--wait']);
      const back = await state();
      assert.deepEqual(Object.keys(back.ids).sort(), ['always', 'test_res']);
      assert.notEqual(back.ids.test_res, test.ids.test_res, 'test_res was deleted, and made anew');
      assert.deepEqual(back.outputs, test.outputs);

      const events = await w.events('s');
      for (const name of ['prod_res', 'beijing_prod_res']) {
        assert.deepEqual(history(events, name).slice(-2), ['DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
      }
      assert.deepEqual(history(events, 'test_res'), [
        'CREATE_IN_PROGRESS',
        'CREATE_COMPLETE',
        'DELETE_IN_PROGRESS',
        'DELETE_COMPLETE',
        'CREATE_IN_PROGRESS',
        'CREATE_COMPLETE',
      ]);
    });

    it('outputs: list, show one, show all; events: one IN_PROGRESS and COMPLETE per resource, in dependency order', async () => {
      const w = new Workdir({
        't.yaml': `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: hello}
resources:
  first: {type: ${T}, properties: {value: {get_param: word}}}
  second: {type: ${T}, properties: {value: {list_join: [' ', [{get_attr: [first, output]}, world]]}}}
  third:
    type: OS::Heat::Value
    depends_on: second
    properties: {type: string, value: {get_attr: [second, output]}}
  secret: {type: OS::Heat::RandomString, properties: {length: 12, character_classes: [{class: digits}]}}
  alone: {type: OS::Heat::None}
outputs:
  greeting: {description: The greeting, value: {get_attr: [second, output]}}
  joined:
    description: Values of three resources
    value: {list_join: ['|', [{get_attr: [first, output]}, {get_attr: [third, value]}, {get_attr: [secret, value]}]]}
  ref: {value: {get_resource: first}}
  structured: {value: {first: {get_attr: [first, output]}, numbers: [1, 2]}}
`,
      });
      const created = await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
      assert.match(created, /\[second\]: CREATE_COMPLETE/, '--wait prints the events as they happen');

      assert.deepEqual(await w.json(['stack', 'output', 'list', 's']), [
        { output_key: 'greeting', description: 'The greeting' },
        { output_key: 'joined', description: 'Values of three resources' },
        { output_key: 'ref', description: 'No description given' },
        { output_key: 'structured', description: 'No description given' },
      ]);
      assert.deepEqual(await w.json(['stack', 'output', 'show', 's', 'greeting']), {
        output_key: 'greeting',
        description: 'The greeting',
        output_value: 'hello world',
      });
      assert.equal(
        await w.ok(['stack', 'output', 'show', 's', 'greeting', '-f', 'value']),
        'greeting\nThe greeting\nhello world\n',
      );
      const ids = await w.ids('s');
      const all = await w.outputs('s');
      const secret = await w.attribute('s', 'secret', 'value');
      assert.match(String(secret), /^\d{12}$/);
      assert.deepEqual(all, {
        greeting: 'hello world',
        joined: `hello|hello world|${secret}`,
        ref: ids.first,
        structured: { first: 'hello', numbers: [1, 2] },
      });
      const missing = await w.run(['stack', 'output', 'show', 's', 'nope']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /output "nope" not found in stack "s"/);

      const events = await w.events('s');
      assert.equal(new Set(events.map((e) => e.id)).size, events.length, 'every event has its own id');
      assert.deepEqual(
        [events[0], events.at(-1)].map((e) => [
          e!.resource_name,
          e!.resource_status,
          e!.resource_status_reason,
        ]),
        [
          ['s', 'CREATE_IN_PROGRESS', 'Stack CREATE started'],
          ['s', 'CREATE_COMPLETE', 'Stack CREATE completed successfully'],
        ],
      );
      for (const name of ['first', 'second', 'third', 'secret', 'alone']) {
        const mine = events.filter((e) => e.resource_name === name);
        assert.deepEqual(
          mine.map((e) => e.resource_status),
          ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'],
          name,
        );
        assert.equal(mine[1]!.physical_resource_id, ids[name]);
      }
      const at = (name: string, status: string) =>
        events.findIndex((e) => e.resource_name === name && e.resource_status === status);
      assert.ok(
        at('first', 'CREATE_COMPLETE') < at('second', 'CREATE_IN_PROGRESS'),
        'second waits for first',
      );
      assert.ok(
        at('second', 'CREATE_COMPLETE') < at('third', 'CREATE_IN_PROGRESS'),
        'third waits for second',
      );

      // An update adds events after these: only for what changed, dependencies first again.
      await w.ok(['stack', 'update', 's', '--existing', ...params({ word: 'bye' }), '--wait']);
      const later = (await w.events('s')).slice(events.length);
      assert.deepEqual(
        later.map((e) => `${e.resource_name} ${e.resource_status}`),
        [
          's UPDATE_IN_PROGRESS',
          'first UPDATE_IN_PROGRESS',
          'first UPDATE_COMPLETE',
          'second UPDATE_IN_PROGRESS',
          'second UPDATE_COMPLETE',
          'third UPDATE_IN_PROGRESS',
          'third UPDATE_COMPLETE',
          's UPDATE_COMPLETE',
        ],
      );
      assert.deepEqual(await w.outputs('s'), {
        greeting: 'bye world',
        joined: `bye|bye world|${secret}`,
        ref: ids.first,
        structured: { first: 'bye', numbers: [1, 2] },
      });
      assert.deepEqual(statuses(await w.resources('s')), {
        first: 'UPDATE_COMPLETE',
        second: 'UPDATE_COMPLETE',
        third: 'UPDATE_COMPLETE',
        secret: 'CREATE_COMPLETE',
        alone: 'CREATE_COMPLETE',
      });
    });
  },
);
