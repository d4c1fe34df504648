import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MIGRATIONS, migrate, SCHEMA_VERSION, SqlStore } from '../../src/store/sql/index.js';
import type { SqlDriver } from '../../src/store/sql/driver.js';
import { STACKS } from '../../src/store/sql/tables.js';
import { stack } from './fixtures.js';

/** Stack columns added after schema 11. */
const LATER_STACK_COLUMNS = new Set(['observe', 'credentials']);

/**
 * Upgrading keeps data: a database made by an older Hearth (schema 11), with a stack and its
 * templates in it, is upgraded in place; the rows are all there, new columns filled from them.
 */
export function migrationTests(newDriver: () => SqlDriver | Promise<SqlDriver>): void {
  /** A store whose schema stopped at `version`, as a database of that time holds it. */
  async function storeAt(version: number): Promise<{ driver: SqlDriver; store: SqlStore }> {
    const driver = await newDriver();
    assert.equal(
      await migrate(
        driver,
        MIGRATIONS.filter((m) => m.version <= version),
      ),
      version,
    );
    return { driver, store: new SqlStore(driver) };
  }

  it('applies a new step in order, and a failing step leaves nothing behind', async () => {
    const driver = await newDriver();
    try {
      await migrate(driver);
      const next = SCHEMA_VERSION + 1;
      const broken = [
        {
          version: next,
          description: 'broken',
          statements: () => ['CREATE TABLE half_done (x INTEGER)', 'CREATE TABLE half_done (x INTEGER)'],
        },
      ];
      await assert.rejects(migrate(driver, broken), /already exists/);
      await assert.rejects(driver.query('SELECT COUNT(*) FROM half_done'), /half_done/);
      const good = [
        { version: next, description: 'add', statements: () => ['CREATE TABLE added (x INTEGER)'] },
      ];
      assert.equal(await migrate(driver, good), next);
      assert.equal(await migrate(driver, good), next);
      await assert.rejects(migrate(driver), /newer than this Hearth knows/);
    } finally {
      await driver.close();
    }
  });

  it('upgrades a database of schema 11 in place, losing nothing and filling the new columns', async () => {
    const { driver, store } = await storeAt(11);
    try {
      // What schema 11 held: a template row had no root stack.
      const s = stack({ id: 'child', rootId: 'root', templateId: 'tpl-new', prevTemplateId: 'tpl-old' });
      // Its columns then (later schemas added some).
      const kept = STACKS.columnNames
        .map((c, i) => [c, i] as const)
        .filter(([c]) => !LATER_STACK_COLUMNS.has(c));
      const values = STACKS.encode(s);
      await driver.query(
        `INSERT INTO stacks (${kept.map(([c]) => c).join(', ')}) VALUES (${kept.map((_, i) => `$${i + 1}`).join(', ')})`,
        kept.map(([, i]) => values[i]!),
      );
      for (const id of ['tpl-new', 'tpl-old', 'tpl-orphan']) {
        await driver.query(
          `INSERT INTO templates (id, template, url, files, environment, created_at)
           VALUES ($1, 'heat_template_version: 2018-08-31', 'file:///t.yaml', '{}', '{}', 5)`,
          [id],
        );
      }
      assert.equal(await migrate(driver), SCHEMA_VERSION);
      const upgraded = await store.tx((tx) => tx.stacks.get('child'));
      assert.deepEqual(upgraded?.templateId, 'tpl-new', 'the stack is intact');
      // It was made with the deployment's login: it keeps acting with it.
      assert.deepEqual(upgraded?.credentials, { kind: 'deployment' });
      const rows = await driver.query('SELECT id, root_stack_id FROM templates ORDER BY id');
      const texts = await store.tx(async (tx) =>
        Promise.all(rows.map(async (r) => (await tx.templates.get(r.id as string))?.template)),
      );
      assert.deepEqual(
        rows.map((r, i) => [r.id, r.root_stack_id, texts[i]]),
        [
          ['tpl-new', 'root', 'heat_template_version: 2018-08-31'],
          ['tpl-old', 'root', 'heat_template_version: 2018-08-31'],
          ['tpl-orphan', null, 'heat_template_version: 2018-08-31'],
        ],
      );
    } finally {
      await store.close();
    }
  });

  it('upgrades templates of schema 25 into pieces: texts and digests read back, shared pieces counted once', async () => {
    const { driver, store } = await storeAt(25);
    try {
      const lines = Array.from({ length: 30_000 }, (_, i) => `  r${i}: {type: OS::Heat::None}`);
      const text = `heat_template_version: 2018-08-31\nresources:\n${lines.join('\n')}\n`;
      const rows: [string, string | null, string, string | null][] = [
        ['tpl-a', 'root', text, '{"v":2}'],
        ['tpl-b', 'root', text.replace('r7:', 'r7b:'), null],
        ['tpl-c', null, 'description: Zürich\r\n', null],
        ['tpl-d', 'root', '', '{}'],
      ];
      for (const [id, root, template, digests] of rows) {
        await driver.query(
          `INSERT INTO templates (id, template, url, files, environment, created_at, root_stack_id, digests)
           VALUES ($1, $2, 'file:///t.yaml', '{}', '{}', 5, $3, $4)`,
          [id, template, root, digests],
        );
      }
      assert.equal(await migrate(driver), SCHEMA_VERSION);
      for (const [id, , template, digests] of rows) {
        assert.equal((await store.tx((tx) => tx.templates.get(id)))?.template, template, id);
        assert.equal(await store.tx((tx) => tx.templates.digests(id)), digests ?? undefined, id);
      }
      const kept = await driver.query("SELECT id FROM templates WHERE template <> '' ORDER BY id");
      assert.deepEqual(
        kept.map((r) => r.id),
        ['tpl-c'],
        'long texts left their rows, a short one stays',
      );
      const shared = await store.tx((tx) => tx.templates.footprint('root'));
      assert.ok(shared.chars < 2 * text.length * 0.6, 'the two versions share their pieces');
      for (const [id] of rows) await store.tx((tx) => tx.templates.delete(id));
      const [pieces] = await driver.query('SELECT COUNT(*) AS n FROM template_chunks');
      assert.equal(Number(pieces!.n), 0);
    } finally {
      await store.close();
    }
  });
}
