import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { templateFields } from '../../src/client/template-body.js';
import { loadStackInput, mergeEnvironments } from '../../src/template/loader.js';
import { readLocalFile } from '../../src/cli/commands/template.js';

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-body-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('templateFields: local files as a request body', () => {
  it('sends the template as its text and keys files by the paths the templates write', () => {
    const top = 'heat_template_version: 2018-08-31\nresources:\n  m: {type: sub/member.yaml}\n';
    const member =
      'heat_template_version: 2018-08-31\nresources:\n  v: {type: OS::Heat::Value, properties: {value: {get_file: ../../lib/data.txt}}}\n';
    const dir = tree({ 'app/top.yaml': top, 'app/sub/member.yaml': member, 'lib/data.txt': 'x' });
    const input = loadStackInput(join(dir, 'app/top.yaml'), [], readLocalFile);
    const fields = templateFields(input);
    assert.equal(fields.template, top);
    assert.deepEqual(fields.files, { 'sub/member.yaml': member, '../lib/data.txt': 'x' });
  });

  it('finds a get_file spelled with escapes, and hands its parse of the template on', () => {
    const json =
      '{"heat_template_version": "2018-08-31", "resources": {"v": {"type": "OS::Heat::Value", "properties": {"value": {"get\\u005ffile": "a.txt"}}}}}';
    const yaml =
      'heat_template_version: 2018-08-31\nresources:\n  v: {type: OS::Heat::Value, properties: {value: {"get\\x5ffile": b.txt}}}\n';
    const dir = tree({ 't.json': json, 't.yaml': yaml, 'a.txt': 'a', 'b.txt': 'b' });
    const fromJson = loadStackInput(join(dir, 't.json'), [], readLocalFile);
    assert.deepEqual(Object.values(fromJson.files), ['a']);
    assert.equal(fromJson.parsed?.text, json);
    assert.equal(fromJson.parsed?.file, fromJson.url);
    assert.deepEqual(Object.values(loadStackInput(join(dir, 't.yaml'), [], readLocalFile).files), ['b']);
  });

  it('writes the environment’s registry targets relative to the template too', () => {
    const top = 'heat_template_version: 2018-08-31\nresources:\n  m: {type: My::Member}\n';
    const member = 'heat_template_version: 2018-08-31\n';
    const env = 'resource_registry:\n  My::Member: member.yaml\nparameters:\n  p: 1\n';
    const dir = tree({
      't.yaml': top,
      'member.yaml': member,
      'env/e.yaml': env.replace('member.yaml', '../member.yaml'),
    });
    const input = loadStackInput(join(dir, 't.yaml'), [join(dir, 'env/e.yaml')], readLocalFile);
    const fields = templateFields(input);
    assert.deepEqual(fields.files, { 'member.yaml': member });
    assert.equal(
      (fields.environment!.resource_registry as Record<string, unknown>)['My::Member'],
      'member.yaml',
    );
    assert.deepEqual(fields.environment!.parameters, { p: 1 });
  });

  it('refuses two files that would be one on the server', () => {
    // c.yaml beside the template and /c.yaml far above it both land on the server's file:///c.yaml.
    const input = {
      url: 'file:///work/a/b/t.yaml',
      text: 'heat_template_version: 2018-08-31\n',
      files: { 'file:///work/a/b/c.yaml': 'one', 'file:///c.yaml': 'two' },
      environment: mergeEnvironments([]),
    };
    assert.throws(
      () => templateFields(input),
      /"file:\/\/\/work\/a\/b\/c.yaml" and "file:\/\/\/c.yaml" would be the same file/,
    );
    delete (input.files as Record<string, string>)['file:///c.yaml'];
    assert.deepEqual(templateFields(input).files, { 'c.yaml': 'one' });
  });
});
