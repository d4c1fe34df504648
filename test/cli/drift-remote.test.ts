import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalized, ok, remoteSetup } from './remote-helpers.js';

const FILES = {
  'd.yaml': `heat_template_version: 2018-08-31
resources:
  r: {type: OS::Heat::TestResource, properties: {value: x}}
  n: {type: OS::Heat::None}
`,
};

describe('hearth stack drift --url: the API routes, printed as the embedded engine prints', () => {
  const { remote, embedded } = remoteSetup(FILES);
  const both = (args: string[]) => ({
    local: ok(embedded(args), `embedded ${args.join(' ')}`),
    api: ok(remote(args), `--url ${args.join(' ')}`),
  });

  it('detect and show print the same in both modes', () => {
    both(['stack', 'create', 'd', '-t', 'd.yaml', '--wait']);
    const before = both(['stack', 'drift', 'show', 'd', '-f', 'json']);
    assert.deepEqual(normalized(before.api), normalized(before.local));
    assert.deepEqual((JSON.parse(before.api) as { resources: unknown[] }).resources, []);
    const detected = both(['stack', 'drift', 'detect', 'd', '-f', 'json']);
    assert.deepEqual(normalized(detected.api), normalized(detected.local));
    const doc = JSON.parse(detected.api) as {
      summary: Record<string, unknown>;
      resources: { resource_name: string }[];
    };
    assert.equal(doc.summary.IN_SYNC, 1);
    assert.deepEqual(
      doc.resources.map((r) => r.resource_name),
      ['n'],
    );
    const shown = both(['stack', 'drift', 'show', 'd', '-f', 'json']);
    assert.deepEqual(normalized(shown.api), normalized(shown.local));
    assert.equal((JSON.parse(shown.api) as { resources: unknown[] }).resources.length, 2);
    const table = both(['stack', 'drift', 'show', 'd']);
    assert.match(table.api, /\| r +\| d +\| OS::Heat::TestResource/);
  });
});
