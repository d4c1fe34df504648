import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeText, planText } from '../../src/cli/commands/plan.js';
import { propertyChanges } from '../../src/engine/operations/plan-diff.js';
import { UNKNOWN } from '../../src/template/functions/types.js';
import { redactor } from '../../src/template/hidden-values.js';

// The property-level diff of `hearth stack plan` and how it is printed.

const none = redactor([]);

describe('propertyChanges', () => {
  it('lists only changed leaves, by a compact path into maps and lists', () => {
    const old = { name: 'a', same: 1, net: { ports: ['p0', 'p1', 'p2'], mtu: 1500 }, tags: ['x'] };
    const now = { name: 'b', same: 1, net: { ports: ['p0', 'p1', 'p9'], mtu: 1500 }, tags: ['x', 'y'] };
    assert.deepEqual(propertyChanges(old, now, none), [
      { path: 'name', old: 'a', new: 'b' },
      { path: 'net.ports[2]', old: 'p2', new: 'p9' },
      // Lists of another length are shown whole.
      { path: 'tags', old: ['x'], new: ['x', 'y'] },
    ]);
  });

  it('counts absent and null as the same, and shows a new or removed key against null', () => {
    assert.deepEqual(propertyChanges({ a: null, b: 1 }, { c: 2, b: 1 }, none), [
      { path: 'c', old: null, new: 2 },
    ]);
    assert.deepEqual(propertyChanges({ m: { k: 'v' } }, { m: {} }, none), [
      { path: 'm.k', old: 'v', new: null },
    ]);
  });

  it('marks a value that depends on what the update makes as known after apply', () => {
    assert.deepEqual(propertyChanges({ v: 'x' }, { v: UNKNOWN }, none), [
      { path: 'v', old: 'x', new: null, known_after_apply: true },
    ]);
    // Even when the old value is the same as far as can be told.
    assert.deepEqual(propertyChanges({ l: [] }, { l: UNKNOWN }, none), [
      { path: 'l', old: [], new: null, known_after_apply: true },
    ]);
  });

  it("masks hidden parameters' values wherever they appear and secret-named properties whole", () => {
    const redact = redactor(['hunter22']);
    assert.deepEqual(
      propertyChanges(
        { cmd: 'login hunter22', admin_pass: 'old-one', user: { password: 'p1', name: 'u' } },
        { cmd: 'login other', admin_pass: 'new-one', user: { password: 'p2', name: 'u' } },
        redact,
      ),
      [
        { path: 'admin_pass', old: '******', new: '******' },
        { path: 'cmd', old: 'login ******', new: 'login other' },
        { path: 'user.password', old: '******', new: '******' },
      ],
    );
  });
});

describe('planText', () => {
  it('prints symbols, reasons, indented property lines and the summary line', () => {
    const text = planText({
      resources: [
        {
          resource_name: 'n',
          resource_type: 'T',
          action: 'create',
          changes: [{ path: 'v', old: null, new: 1 }],
        },
        {
          resource_name: 'r',
          resource_type: 'R',
          action: 'replace',
          reason: 'cannot update in place: length',
          changes: [{ path: 'length', old: 8, new: 12 }],
        },
        {
          resource_name: 'g.0',
          resource_type: 'T',
          action: 'update',
          changes: [{ path: 'a.b[2]', old: 'x', new: 'y' }],
        },
        { resource_name: 'd', resource_type: 'T', action: 'delete', changes: [] },
      ],
      summary: { create: 1, update: 1, replace: 1, delete: 1 },
    });
    assert.equal(
      text,
      [
        '+ create n (T)',
        '    v: null → 1',
        '-/+ replace r (R) (cannot update in place: length)',
        '    length: 8 → 12',
        '~ update in place g.0 (T)',
        '    a.b[2]: "x" → "y"',
        '- delete d (T)',
        'Plan: 1 to create, 1 to update, 1 to replace, 1 to delete.',
        '',
      ].join('\n'),
    );
  });

  it('says there are no changes, and prints the mask and unknown values bare', () => {
    assert.equal(
      planText({ resources: [], summary: { create: 0, update: 0, replace: 0, delete: 0 } }),
      'No changes.\nPlan: 0 to create, 0 to update, 0 to replace, 0 to delete.\n',
    );
    assert.equal(changeText({ path: 'p', old: '******', new: '******' }), 'p: ****** → ******');
    assert.equal(
      changeText({ path: 'p', old: 'a', new: null, known_after_apply: true }),
      'p: "a" → (known after apply)',
    );
  });
});
