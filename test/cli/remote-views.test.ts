import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HeatResource } from '../../src/client/types.js';
import { previewChanges, previewResources, resourceInfo } from '../../src/cli/backends/remote-views.js';

// Heat's shapes (as its recorded answers have them) in the CLI's terms.

const P = 'http://127.0.0.1:8004/v1/admin/stacks';

function heatResource(name: string, extra: Partial<HeatResource> = {}): HeatResource {
  return {
    resource_name: name,
    physical_resource_id: `${name}-pid`,
    resource_type: 'OS::Heat::TestResource',
    resource_status: 'CREATE_COMPLETE',
    resource_status_reason: 'state changed',
    creation_time: '2026-11-21T11:46:11Z',
    updated_time: '2026-11-21T11:46:12Z',
    required_by: [],
    ...extra,
  };
}

describe('remote views', () => {
  it('a listed resource belongs to the stack its `stack` link names (a nested one’s with a depth)', () => {
    const links = [
      { href: `${P}/sample-member-abc/n1/resources/inner`, rel: 'self' },
      { href: `${P}/sample-member-abc/n1`, rel: 'stack' },
    ];
    assert.deepEqual(resourceInfo(heatResource('inner', { links }), 'sample'), {
      name: 'inner',
      physicalId: 'inner-pid',
      type: 'OS::Heat::TestResource',
      status: 'CREATE_COMPLETE',
      reason: 'state changed',
      updatedTime: '2026-11-21T11:46:12Z',
      stackName: 'sample-member-abc',
    });
    assert.equal(resourceInfo(heatResource('r1'), 'sample').stackName, 'sample');
  });

  it('flattens a create preview’s nested lists, and splits an update preview by change', () => {
    const top = heatResource('r1', { properties: { value: 'one' }, required_by: ['r2'] });
    const inner = heatResource('inner', { parent_resource: 'member', properties: { value: null } });
    assert.deepEqual(previewResources([top, [inner]]), [
      {
        name: 'r1',
        type: 'OS::Heat::TestResource',
        parentResource: null,
        requiredBy: ['r2'],
        properties: { value: 'one' },
      },
      {
        name: 'inner',
        type: 'OS::Heat::TestResource',
        parentResource: 'member',
        requiredBy: [],
        properties: { value: null },
      },
    ]);
    const unchanged = heatResource('rs', {
      resource_action: 'INIT',
      resource_status: 'COMPLETE',
      physical_resource_id: '',
    });
    const updated = heatResource('val', { resource_action: 'CREATE', resource_status: 'COMPLETE' });
    const changes = previewChanges({
      added: [],
      deleted: [],
      replaced: [],
      unchanged: [unchanged],
      updated: [updated],
    });
    assert.deepEqual(
      changes.map((c) => [c.change, c.name, c.status, c.physicalId]),
      [
        ['unchanged', 'rs', 'INIT_COMPLETE', ''],
        ['updated', 'val', 'CREATE_COMPLETE', 'val-pid'],
      ],
    );
  });
});
