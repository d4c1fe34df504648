import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Harness } from './harness.js';

// Stack outputs with a `condition` (HOT 2016-10-14 and later): as in Heat, an output whose
// condition is false is still listed, with no value (heat_integrationtests test_conditions).

const T = 'OS::Heat::TestResource';

const CHILD = `heat_template_version: 2016-10-14
parameters:
  enabled: {type: boolean}
conditions:
  enabled: {get_param: enabled}
resources:
  r: {type: ${T}, condition: enabled, properties: {value: child}}
outputs:
  maybe: {value: {get_attr: [r, output]}, condition: enabled}
  always: {value: here}
`;

describe('outputs with a condition', () => {
  it('an output whose condition is false is listed with a null value, in template order', async () => {
    const h = await Harness.create();
    const tpl = (on: boolean) => `heat_template_version: 2016-10-14
conditions:
  enabled: ${on}
resources:
  r: {type: ${T}, condition: enabled, properties: {value: v}}
outputs:
  first: {value: 1}
  maybe: {value: {get_attr: [r, output]}, condition: enabled}
  last: {value: 3}
`;
    await h.create('s', tpl(false));
    await h.settle();
    assert.deepEqual(Object.entries(await h.outputs('s')), [
      ['first', 1],
      ['maybe', null],
      ['last', 3],
    ]);
    await h.update('s', tpl(true));
    await h.settle();
    assert.deepEqual(await h.outputs('s'), { first: 1, maybe: 'v', last: 3 });
  });

  it("a parent reads a child's disabled output as null", async () => {
    const h = await Harness.create();
    await h.create(
      's',
      `heat_template_version: 2016-10-14
resources:
  child: {type: child.yaml, properties: {enabled: false}}
outputs:
  maybe: {value: {get_attr: [child, maybe]}}
  always: {value: {get_attr: [child, always]}}
`,
      { files: { 'child.yaml': CHILD } },
    );
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.outputs('s'), { maybe: null, always: 'here' });
  });
});
