import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T, Workdir } from './workdir.js';

// An update of one resource of a few thousand through the CLI (operations/partial-bind.ts): the
// template is not parsed by the CLI, the engine binds the changed chunk and its dependents, and
// a later process (stack show) binds the whole template to show the outputs.

/** Chains of ten, each resource joining its value to the one before it; an output reads r2009. */
function chains(n: number, changed: Record<number, string> = {}): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    const own = changed[i] ?? `v${i}`;
    const value = i % 10 === 0 ? own : `{list_join: ['-', [${own}, {get_attr: [r${i - 1}, output]}]]}`;
    lines.push(`  r${i}: {type: ${T}, properties: {value: ${value}}}`);
  }
  lines.push('outputs:', '  last: {value: {get_attr: [r2009, output]}}');
  return `${lines.join('\n')}\n`;
}

describe('an update of one resource through the CLI', () => {
  it('changes it and its dependents; a new process shows the outputs; a bad reference is refused', async () => {
    const n = 3_000;
    const w = new Workdir({ 'a.yaml': chains(n), 'b.yaml': chains(n, { 2005: 'changed' }) });
    await w.ok(['stack', 'create', 's', '-t', 'a.yaml', '--wait'], 180_000);
    const before = await w.ids('s');
    await w.ok(['stack', 'update', 's', '-t', 'b.yaml', '--wait'], 180_000);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
    assert.equal(
      (await w.outputs('s')).last,
      'v2009-v2008-v2007-v2006-changed-v2004-v2003-v2002-v2001-v2000',
    );
    assert.equal(await w.attribute('s', 'r2004'), 'v2004-v2003-v2002-v2001-v2000');
    assert.deepEqual(await w.ids('s'), before, 'updated in place, none replaced');
    // A changed resource naming one that is gone: refused, the stack as it was.
    w.write('c.yaml', chains(n, { 17: '{get_attr: [nothere, output]}' }));
    const refused = await w.run(['stack', 'update', 's', '-t', 'c.yaml', '--wait'], 180_000);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /nothere/);
    assert.equal(await w.status('s'), 'UPDATE_COMPLETE');
  });
});
