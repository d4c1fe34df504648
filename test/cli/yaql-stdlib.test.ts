import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T, Workdir } from './workdir.js';

// yaql's standard library end to end: a stack whose resource properties and outputs use the
// date/time, set, generator, math and branching functions through `yaql:`, created and read back
// with the CLI. Expected values are what Python yaql gives for the same expressions.

const TEMPLATE = `heat_template_version: 2016-10-14
parameters:
  when: {type: string, default: '2024-02-10T08:00:00Z'}
  count: {type: number, default: 3}
resources:
  tags:
    type: OS::Heat::Value
    properties:
      value: [b, a, c, a]
  names:
    type: OS::Heat::Value
    properties:
      value:
        yaql:
          expression: sequence(1).select(format("web-{0}", $)).take($.data.count)
          data: {count: {get_param: count}}
outputs:
  dates:
    value:
      yaql:
        expression: >
          let(d => datetime($.data.when)) ->
          [($d + timespan(days => 30)).format("%Y-%m-%d"), $d.weekday, $d.year, $d + timespan(hours => 36)]
        data: {when: {get_param: when}}
  tag_set:
    value:
      yaql:
        expression: $.data.tags.toSet().union([c, d].toSet())
        data: {tags: {get_attr: [tags, value]}}
  names:
    value: {get_attr: [names, value]}
  numbers:
    value:
      yaql:
        expression: '[round(2.675, 2), pow(2, 10), bitwiseAnd(12, 10), hex(255), range(1, 11).where($ mod 2 = 0).slice(2).select($.sum())]'
  traversal:
    value:
      yaql:
        expression: let(g => $.data.graph) -> generateMany(a, $g.get($, []), decycle => true)
        data: {graph: {a: [b, c], b: [d], c: [d]}}
  branch:
    value:
      yaql:
        expression: let($.data.n) -> selectCase($ > 3, $ > 1, $ > 0).switchCase(big, medium, small, none)
        data: {n: {get_param: count}}
  evaluated_at:
    value:
      yaql:
        expression: now()
`;

describe('yaql standard library through `hearth stack create`', () => {
  it('evaluates dates, sets, generators, math and branching in properties and outputs', async () => {
    const w = new Workdir({ 't.yaml': TEMPLATE });
    const before = Date.now();
    assert.equal(await w.finished(['stack', 'create', 's', '-t', 't.yaml', '--wait']), 'CREATE_COMPLETE');
    const outputs = await w.outputs('s');
    const after = Date.now();

    assert.deepEqual(outputs.dates, ['2024-03-11', 5, 2024, '2024-02-11T20:00:00+00:00']);
    assert.deepEqual(outputs.tag_set, ['b', 'a', 'c', 'd']);
    assert.deepEqual(outputs.names, ['web-1', 'web-2', 'web-3']);
    assert.deepEqual(outputs.numbers, [2.67, 1024, 8, '0xff', [6, 14, 10]]);
    assert.deepEqual(outputs.traversal, ['a', 'b', 'c', 'd']);
    assert.equal(outputs.branch, 'medium');
    // now() reads the clock when the output is resolved: between the two reads around it.
    const at = Date.parse(String(outputs.evaluated_at));
    assert.match(String(outputs.evaluated_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    assert.ok(at >= before - 1000 && at <= after + 1000, `${String(outputs.evaluated_at)} is not now`);
    // Outputs are resolved when read, as in Heat: a later read sees a later time.
    const again = Date.parse(String((await w.outputs('s')).evaluated_at));
    assert.ok(again > at, 'now() is evaluated again at every read');
  });

  it('an endless generator in an output fails the output with the steps error, not the engine', async () => {
    const w = new Workdir({
      't.yaml': `heat_template_version: 2016-10-14
resources:
  r: {type: ${T}, properties: {value: x}}
outputs:
  endless: {value: {yaql: {expression: 'sequence($.data.start.len()).select($ * 2)', data: {start: {get_attr: [r, output]}}}}}
  fine: {value: {yaql: {expression: 'sequence($.data.start.len()).select($ * 2).take(2)', data: {start: {get_attr: [r, output]}}}}}
`,
    });
    await w.ok(['stack', 'create', 's', '-t', 't.yaml', '--wait']);
    const all = await w.json<Record<string, { output_value: unknown; output_error?: string }>>([
      'stack',
      'output',
      'show',
      's',
      '--all',
    ]);
    assert.deepEqual(all.fine?.output_value, [2, 4]);
    assert.equal(all.endless?.output_value, undefined);
    assert.match(String(all.endless?.output_error), /exceeded the limit of 1000000 steps/);
  });
});
