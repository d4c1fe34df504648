import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { params, T, Workdir } from './workdir.js';

// Heat's functional test test_immutable_parameters, through the CLI: an update that changes an
// immutable parameter is refused with Heat's message and leaves the stack as it was; one that
// keeps it (or changes only mutable ones) goes through.

const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  param1: {type: string, default: default_value, immutable: true}
  param2: {type: string, default: mutable}
resources:
  r: {type: ${T}, properties: {value: {list_join: ['-', [{get_param: param1}, {get_param: param2}]]}}}
outputs:
  value: {value: {get_attr: [r, output]}}
`;

describe('functional: immutable parameters', () => {
  it('test_no_change / test_change: an immutable parameter may not change; others may', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', ...params({ param1: 'one' }), '--wait']);

    // The same value again, and a mutable parameter changed: accepted.
    await w.ok([
      'stack',
      'update',
      's',
      '-t',
      't.yaml',
      ...params({ param1: 'one', param2: 'two' }),
      '--wait',
    ]);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
    assert.equal((await w.outputs('s')).value, 'one-two');

    const refused = await w.run([
      'stack',
      'update',
      's',
      '-t',
      't.yaml',
      ...params({ param1: 'other' }),
      '--wait',
    ]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /The following parameters are immutable and may not be updated: param1/);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE', 'the stack was not touched');
    assert.equal((await w.outputs('s')).value, 'one-two');

    // --existing keeps the stored value: still accepted.
    await w.ok(['stack', 'update', 's', '--existing', ...params({ param2: 'three' }), '--wait']);
    assert.equal((await w.outputs('s')).value, 'one-three');
  });
});
