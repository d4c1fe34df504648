import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workdir } from './helpers.js';

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  r: {type: OS::Heat::TestResource, properties: {value: v}}
`;

describe('hearth stack resource signal', () => {
  it('refuses cleanly (exit 1, a message, nothing else): no handler, unknown names, bad data', () => {
    const w = workdir({ 't.yaml': TEMPLATE, 'list.json': '[1, 2]' });
    assert.equal(w.run(['stack', 'create', 's', '-t', 't.yaml', '--wait']).code, 0);
    const refused = (args: string[], message: string) => {
      const r = w.run(['stack', 'resource', 'signal', ...args]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, `Error: ${message}\n`);
      assert.equal(r.stdout, '');
    };
    refused(
      ['s', 'r', '--data', '{"x": 1}'],
      'signal is not supported for resource "r" of type OS::Heat::TestResource',
    );
    refused(['s', 'nope'], 'resource "nope" not found in stack "s"');
    refused(['nope', 'r'], 'stack "nope" not found');
    refused(['s', 'r', '--data', '[1]'], '--data must be a JSON object, not a list');
    refused(
      ['s', 'r', '--data-file', 'list.json'],
      '--data-file list.json must be a JSON object, not a list',
    );
    refused(
      ['s', 'r', '--data', '{}', '--data-file', 'list.json'],
      'give the signal data with --data or --data-file, not both',
    );

    const bad = w.run(['stack', 'resource', 'signal', 's', 'r', '--data', '{not json']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^Error: --data is not valid JSON: .+\n$/);

    // Refusals queue nothing and leave the resource as it was.
    const events = JSON.parse(w.run(['stack', 'event', 'list', 's', '-f', 'json']).stdout);
    assert.ok(events.every((e: { resource_status: string }) => !e.resource_status.startsWith('SIGNAL')));
    const shown = JSON.parse(w.run(['stack', 'resource', 'show', 's', 'r', '-f', 'json']).stdout);
    assert.equal(shown.resource_status, 'CREATE_COMPLETE');
  });

  it('a missing argument is a usage error', () => {
    const w = workdir({});
    const r = w.run(['stack', 'resource', 'signal', 's']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /missing required argument 'resource'/);
  });
});
