import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSource, parseSourceSteps } from '../../src/template/source.js';
import { yamlToJsonOffLoop } from '../../src/template/yaml-off-loop.js';
import { runToEnd } from '../../src/util/loop-slice.js';

const LIMITS = { maxDocumentBytes: 1e9, maxDocumentDepth: 64, maxDocumentNodes: 1e8, maxAliasCount: 1000 };

function bigYaml(count: number): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < count; i++) {
    lines.push(
      `  r${i}:`,
      '    type: OS::Heat::Value',
      `    properties: {value: yes, n: ${i}, d: 2018-08-31}`,
    );
  }
  return lines.join('\n');
}

describe('YAML parsed by a worker thread', () => {
  it("gives the document the loop's own parser gives (Heat's YAML 1.1: yes is true, dates stay strings)", async () => {
    const text = bigYaml(5000);
    const json = await yamlToJsonOffLoop(text, 64);
    assert.ok(json !== undefined, 'the worker answered');
    const viaWorker = runToEnd(parseSourceSteps('t.yaml', text, LIMITS, json));
    const onLoop = parseSource('t.yaml', text, LIMITS);
    assert.deepEqual(viaWorker.data, onLoop.data);
    assert.equal(viaWorker.format, 'yaml');
    const r7 = (viaWorker.data as { resources: Record<string, { properties: unknown }> }).resources.r7!;
    assert.deepEqual(r7.properties, { value: true, n: 7, d: '2018-08-31' });
  });

  it('leaves to the caller what only the full parser does right: anchors, and errors with their position', async () => {
    assert.equal(await yamlToJsonOffLoop('a: &x 1\nb: *x\n', 64), undefined);
    assert.equal(await yamlToJsonOffLoop('a: [1, 2\nb: 3\n', 64), undefined);
    // Several questions at once each get their own answer.
    const answers = await Promise.all(['a: 1', 'b: 2', 'c: [3]'].map((t) => yamlToJsonOffLoop(t, 64)));
    assert.deepEqual(answers, ['{"a":1}', '{"b":2}', '{"c":[3]}']);
  });
});
