// The import rules of src/ (.dependency-cruiser.cjs, `npm run check:imports`) as they judge a small
// tree made for the test: each arrow the layering forbids, and a cycle, is reported by its rule;
// the arrows it allows are not. Run with the project's own configuration and depcruise binary.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
  include: ['src'],
});

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

const trees: string[] = [];
after(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

/** A tree of `src/` files, each importing the files it names; returns the violations reported. */
function cruise(imports: Record<string, string[]>): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-layers-'));
  trees.push(dir);
  writeFileSync(join(dir, 'tsconfig.json'), TSCONFIG);
  for (const [file, targets] of Object.entries(imports)) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    const lines = targets.map((target, i) => {
      const relative = posix.relative(posix.dirname(file), target);
      const path = relative.startsWith('.') ? relative : `./${relative}`;
      return `import { value as v${i} } from '${path.replace(/\.ts$/, '.js')}';\nexport const use${i} = v${i};`;
    });
    writeFileSync(join(dir, file), [...lines, 'export const value = 1;', ''].join('\n'));
  }
  const run = spawnSync(
    process.execPath,
    [DEPCRUISE, 'src', '--config', CONFIG, '--no-ignore-known', '--output-type', 'json'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.ok(run.stdout, `depcruise printed nothing (status ${run.status}): ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations;
}

/** `rule: from → to` for each violation, sorted: what a failing check prints, in short. */
function arrows(violations: Violation[]): string[] {
  return [...new Set(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`))].sort();
}

describe('import rules of src/', () => {
  it('allow the layering docs/architecture.md draws', () => {
    const violations = cruise({
      'src/util/json.ts': [],
      'src/template/types.ts': ['src/util/json.ts'],
      'src/store/contract.ts': ['src/util/json.ts'],
      'src/store/postgres/driver.ts': ['src/store/contract.ts', 'src/util/json.ts'],
      'src/resources/contract.ts': ['src/template/types.ts'],
      'src/engine/engine.ts': ['src/store/contract.ts', 'src/resources/contract.ts'],
      'src/views/drift.ts': ['src/engine/engine.ts'],
      'src/api/views/stack.ts': ['src/views/drift.ts'],
      'src/api/server.ts': ['src/api/views/stack.ts', 'src/engine/engine.ts'],
      'src/cli/backend.ts': ['src/views/drift.ts', 'src/engine/engine.ts'],
      'src/cli/serve.ts': ['src/api/server.ts', 'src/cli/backend.ts'],
    });
    assert.deepEqual(arrows(violations), []);
  });

  it('report each arrow against the layering, and a cycle, by its rule', () => {
    const violations = cruise({
      'src/util/json.ts': [],
      // A cycle of two template files (reported once, at the arrow that closes it).
      'src/template/a.ts': ['src/template/b.ts'],
      'src/template/b.ts': ['src/template/a.ts'],
      'src/store/contract.ts': [],
      'src/store/postgres/errors.ts': [],
      // A resource type reaching a store backend.
      'src/resources/reality/postgres.ts': ['src/store/postgres/errors.ts'],
      // The engine reaching up to a view.
      'src/engine/engine.ts': ['src/store/contract.ts', 'src/views/drift.ts'],
      // A shared view reaching up to the API.
      'src/views/drift.ts': ['src/api/views/common.ts'],
      'src/api/views/common.ts': [],
      // The CLI reaching into the API's own views.
      'src/cli/backends/embedded.ts': ['src/api/views/common.ts', 'src/engine/engine.ts'],
    });
    assert.deepEqual(arrows(violations), [
      'cli-api-entry-points-only: src/cli/backends/embedded.ts → src/api/views/common.ts',
      'engine-not-frontends: src/engine/engine.ts → src/views/drift.ts',
      'no-cycle: src/template/a.ts → src/template/b.ts',
      'resources-not-store: src/resources/reality/postgres.ts → src/store/postgres/errors.ts',
      'store-backends-behind-contract: src/resources/reality/postgres.ts → src/store/postgres/errors.ts',
      'views-below-frontends: src/views/drift.ts → src/api/views/common.ts',
    ]);
  });
});
