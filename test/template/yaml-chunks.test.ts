import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSource } from '../../src/template/source.js';
import { chunksText, yamlChunks } from '../../src/template/yaml-chunks.js';
import { refersToNoFile } from '../../src/template/loader.js';

const TEXT = `heat_template_version: 2018-08-31
parameters:
  p: {type: string, default: x}
resources:
  a:
    type: OS::Heat::Value
    properties:
      value: |
        two
        lines
  # a comment
  b: {type: OS::Heat::Value, properties: {value: {get_attr: [a, value]}}}

  c.d-e: {type: OS::Heat::Value}
outputs:
  o: {value: {get_attr: [b, value]}}
`;

describe('yamlChunks', () => {
  it('cuts a block-style template into its head and one chunk per resource', () => {
    const chunks = yamlChunks(TEXT)!;
    assert.deepEqual([...chunks.resources.keys()], ['a', 'b', 'c.d-e']);
    assert.match(chunks.head, /^heat_template_version.*\nparameters:\n {2}p: .*\noutputs:\n {2}o: /);
    // The head and all the chunks read as the whole document does.
    const whole = parseSource('t.yaml', TEXT).data;
    const pieces = parseSource('t.yaml', chunksText(chunks, chunks.resources.keys())).data;
    assert.deepEqual(pieces, whole);
    const some = parseSource('t.yaml', chunksText(chunks, ['b'])).data as Record<string, unknown>;
    assert.deepEqual(Object.keys(some.resources as object), ['b']);
  });

  it('reads names of letters, digits and _.- with spaces before the colon, and a last key with no newline', () => {
    const text =
      'heat_template_version: 2018-08-31\nresources:\n  _a.1-b : {type: OS::Heat::Value}\n  Yes2:\n    type: OS::Heat::Value\n  z:';
    assert.deepEqual([...yamlChunks(text)!.resources.keys()], ['_a.1-b', 'Yes2', 'z']);
  });

  it('declines what a line scanner cannot cut with certainty', () => {
    const declined = [
      TEXT.replace('default: x', 'default: &v x').replace('value: |', 'value: *v\n      other: |'),
      TEXT.replace('  b: {', '  b: !!map {'),
      TEXT.replace('  b: {', '\tb: {'),
      TEXT.replace('  b: {', "  'b': {"),
      TEXT.replace('  b: {', '  yes: {'),
      TEXT.replace('resources:\n', 'resources: {}\nother:\n'),
      `---\n${TEXT}`,
      TEXT.replace('  # a comment\n', ' x: y\n'),
      TEXT.replace('  c.d-e', '  b'),
      // Keys the scanner does not read as a plain name: a digit first, no space after the colon.
      TEXT.replace('  b: {', '  9b: {'),
      TEXT.replace('  b: {', '  b:{'),
      TEXT.replace('  b: {', '  b/c: {'),
      `{"heat_template_version": "2018-08-31", "resources": {}}`,
      'heat_template_version: 2018-08-31\n',
    ];
    for (const text of declined) assert.equal(yamlChunks(text), undefined, text);
  });
});

describe('refersToNoFile', () => {
  const hot = (resources: string) => `heat_template_version: 2018-08-31\nresources:\n${resources}\n`;
  it('is sure only of a HOT YAML text with no get_file and plain types', () => {
    assert.equal(refersToNoFile(hot('  a: {type: OS::Heat::Value, properties: {value: x}}')), true);
    assert.equal(refersToNoFile(hot('  a:\n    type: "OS::Heat::Value"')), true);
    for (const text of [
      hot('  a: {type: nested.yaml}'),
      hot("  a: {type: 'dir/a,b'}"),
      hot('  a: {type: https://example.com/t}'),
      hot('  a:\n    type: >\n      nested.yaml'),
      hot('  a: {type: OS::Heat::Value, properties: {value: {get_file: f.txt}}}'),
      hot('  a: {type: OS::Heat::Value, properties: {value: "\\x41"}}'),
      '{"heat_template_version": "2018-08-31", "resources": {}}',
      'AWSTemplateFormatVersion: 2010-09-09\nResources: {}\n',
    ])
      assert.equal(refersToNoFile(text), false, text);
  });
});
