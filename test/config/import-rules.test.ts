import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const run = promisify(execFile);

/** Runs the project's import rules over a tree of the given files; the violations it reports. */
async function violations(dir: string, files: Record<string, string>): Promise<string[]> {
  rmSync(join(dir, 'src'), { recursive: true, force: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    await run(DEPCRUISE, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
      cwd: dir,
    });
    return [];
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? '';
    const found = [...out.matchAll(/error ([a-z-]+): (\S+) → *\n?\s*(\S+)?/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.ok(found.length > 0, `depcruise failed without a violation: ${String(error)}`);
    return found;
  }
}

// The rules `npm run check` applies to src/ (.dependency-cruiser.cjs), tried on small trees: the
// check must fail when a cycle or an import against the layers comes in.
describe('the import rules of src/ (npm run check:imports)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-import-rules-'));
  copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('passes imports that point down the layers', async () => {
    assert.deepEqual(
      await violations(dir, {
        'src/engine/engine.ts': "import { parse } from '../template/parse.js';\nexport const e = parse;\n",
        'src/template/parse.ts': "import { own } from '../util/own.js';\nexport const parse = own;\n",
        'src/util/own.ts': 'export const own = 1;\n',
        'src/cli/main.ts': "import { e } from '../engine/engine.js';\nexport const m = e;\n",
      }),
      [],
    );
  });

  it('fails on an import cycle, type-only imports included', async () => {
    const found = await violations(dir, {
      'src/graph/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'src/graph/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
    });
    assert.ok(
      found.some((v) => v.startsWith('no-cycle src/graph/')),
      found.join('\n'),
    );
  });

  it('fails on a foundation importing the engine, the API or the CLI', async () => {
    const found = await violations(dir, {
      'src/engine/engine.ts': 'export const e = 1;\n',
      'src/template/parse.ts': "import { e } from '../engine/engine.js';\nexport const p = e;\n",
      'src/resources/plugin.ts': "import { s } from '../store/contract.js';\nexport const r = s;\n",
      'src/store/contract.ts': 'export const s = 1;\n',
    });
    assert.ok(found.includes('foundations-stay-below src/template/parse.ts'), found.join('\n'));
    assert.ok(found.includes('resources-not-store src/resources/plugin.ts'), found.join('\n'));
  });

  it('fails on the CLI reaching into the API, or anything but the store opening a backend', async () => {
    const found = await violations(dir, {
      'src/api/views/drift.ts': 'export const v = 1;\n',
      'src/api/server.ts': 'export const s = 1;\n',
      'src/cli/print.ts':
        "import { v } from '../api/views/drift.js';\nimport { s } from '../api/server.js';\nexport const p = [v, s];\n",
      'src/store/postgres/pool.ts': 'export const pool = 1;\n',
      'src/engine/x.ts': "import { pool } from '../store/postgres/pool.js';\nexport const x = pool;\n",
    });
    assert.deepEqual(
      found.filter((v) => v.startsWith('cli-api')),
      ['cli-api-entry-points-only src/cli/print.ts'],
    );
    assert.ok(found.includes('store-backends-behind-contract src/engine/x.ts'), found.join('\n'));
  });
});
