// The engine's layer rules of .dependency-cruiser.cjs (docs/architecture.md, "The engine's
// layers") catch an upward import and a cycle: each case cruises a small tree of its own.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

const ROOT = resolve(import.meta.dirname, '../..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[];
};
const dirs: string[] = [];

after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The rules broken by a tree of modules, each `path: [paths it imports]`, as `rule from → to`. */
async function violations(tree: Record<string, string[]>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-layers-'));
  dirs.push(dir);
  for (const [path, imports] of Object.entries(tree)) {
    const lines = imports.map((to, i) => {
      const relative = join(
        ...dirname(path)
          .split('/')
          .map(() => '..'),
        to,
      );
      return `import { x as x${i} } from './${relative}';`;
    });
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), `${lines.join('\n')}\nexport const x = 1;\n`);
  }
  const result = await cruise(['src'], {
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name} ${v.from} → ${v.to}`).sort();
}

/** A tree as the engine is laid out, every layer importing the ones below it. */
const LAYERED: Record<string, string[]> = {
  'src/engine/core/traversal.js': ['src/engine/core/plan.js'],
  'src/engine/core/plan.js': [],
  'src/engine/runtime/worker.js': ['src/engine/core/plan.js'],
  'src/engine/context/node-work.js': ['src/engine/core/plan.js'],
  'src/engine/nodes/update-node.js': ['src/engine/context/node-work.js', 'src/engine/core/traversal.js'],
  'src/engine/legacy/run.js': ['src/engine/nodes/update-node.js', 'src/engine/runtime/worker.js'],
  'src/engine/operations/update.js': ['src/engine/legacy/run.js', 'src/engine/nodes/update-node.js'],
  'src/engine/reality/observer.js': ['src/engine/operations/update.js'],
  'src/engine/engine.js': ['src/engine/runtime/worker.js', 'src/engine/reality/observer.js'],
};

/** LAYERED with `from` importing `to` as well. */
function withImport(from: string, to: string): Record<string, string[]> {
  return { ...LAYERED, [from]: [...(LAYERED[from] ?? []), to] };
}

describe('the engine layer rules (.dependency-cruiser.cjs)', () => {
  it('accept the layers importing downward', async () => {
    assert.deepEqual(await violations(LAYERED), []);
  });

  it('refuse the core importing any other folder of the engine', async () => {
    assert.deepEqual(
      await violations({
        ...LAYERED,
        'src/engine/core/plan.js': ['src/engine/context/peers.js'],
        'src/engine/context/peers.js': [],
      }),
      ['engine-core-alone src/engine/core/plan.js → src/engine/context/peers.js'],
    );
  });

  it('refuse the runtime importing what a unit means (a node)', async () => {
    assert.deepEqual(
      await violations(withImport('src/engine/runtime/worker.js', 'src/engine/nodes/update-node.js')),
      ['engine-runtime-knows-no-meaning src/engine/runtime/worker.js → src/engine/nodes/update-node.js'],
    );
  });

  it('refuse a node importing an operation, and an operation importing the observer', async () => {
    assert.deepEqual(
      await violations({
        ...withImport('src/engine/nodes/update-node.js', 'src/engine/operations/queries.js'),
        'src/engine/operations/queries.js': [],
      }),
      ['engine-nodes-below-operations src/engine/nodes/update-node.js → src/engine/operations/queries.js'],
    );
    assert.deepEqual(
      await violations({ ...LAYERED, 'src/engine/operations/create.js': ['src/engine/reality/observer.js'] }),
      ['engine-operations-below-reality src/engine/operations/create.js → src/engine/reality/observer.js'],
    );
  });

  it('refuse a layer importing the facade', async () => {
    // One violation per import: the layer's own rule names it before the facade rule would.
    const found = await violations({ ...LAYERED, 'src/engine/reality/drift.js': ['src/engine/engine.js'] });
    assert.deepEqual(found, [
      'engine-reality-on-operations src/engine/reality/drift.js → src/engine/engine.js',
    ]);
  });

  it('refuse a cycle inside one layer', async () => {
    const found = await violations({
      ...LAYERED,
      'src/engine/nodes/a.js': ['src/engine/nodes/b.js'],
      'src/engine/nodes/b.js': ['src/engine/nodes/a.js'],
    });
    // A cycle is reported once, at the import that closes it.
    assert.equal(found.length, 1);
    assert.match(found[0]!, /^no-cycle src\/engine\/nodes\/[ab][.]js → src\/engine\/nodes\/[ab][.]js$/);
  });
});
