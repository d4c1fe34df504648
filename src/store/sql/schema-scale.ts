import type { Migration } from './migration.js';
import { moveTemplateTexts } from './template-text.js';

/** The scale core's schema steps (issue 27): progress counts, diff-planned updates, the create path, template pieces, direct dependents. */
export const SCALE_MIGRATIONS: readonly Migration[] = [
  {
    version: 23,
    description:
      "progress of an operation: a traversal's node count beside what remains, so a poll reads one row per stack, not every sync point",
    statements: () => [
      'ALTER TABLE traversals ADD COLUMN nodes BIGINT NOT NULL DEFAULT 0',
      'UPDATE traversals SET nodes = (SELECT COUNT(*) FROM sync_points p WHERE p.traversal_id = traversals.id)',
    ],
  },
  {
    version: 24,
    description:
      "updates planned from a diff: templates' per-resource digests; a stack's unsettled rows (partial index: a settled row is not in it, so an update finds the few that need a node, and a purge its deleted rows, without a scan)",
    statements: () => [
      'ALTER TABLE templates ADD COLUMN digests TEXT',
      // The predicate is tables.ts's UNSETTLED, word for word (queries repeat it to use the index).
      `CREATE INDEX resources_unsettled ON resources (stack_id) WHERE (status <> 'COMPLETE' OR action IN ('INIT', 'DELETE') OR unhealthy <> 0 OR engine_id IS NOT NULL OR replaced_by IS NOT NULL OR physical_id IS NULL)`,
    ],
  },
  {
    version: 25,
    description:
      'the create path: work indexes on claimed_by and waiting_for partial (unclaimed, unparked items are not in them); sync_points and sync_inputs WITHOUT ROWID on SQLite (one B-tree per table, not two)',
    statements: (d) => [
      'DROP INDEX work_claimed_by',
      'CREATE INDEX work_claimed_by ON work (claimed_by) WHERE claimed_by IS NOT NULL',
      'DROP INDEX work_by_waiting',
      'CREATE INDEX work_by_waiting ON work (waiting_for) WHERE waiting_for IS NOT NULL',
      // PostgreSQL's tables are heaps either way; SQLite's keyed by a text key pay a rowid table
      // plus an index for every row write and lookup.
      ...(d.name === 'sqlite'
        ? [
            `CREATE TABLE sync_points_keyed (
              traversal_id TEXT NOT NULL,
              node TEXT NOT NULL,
              stack_id TEXT NOT NULL,
              root_stack_id TEXT NOT NULL,
              waiting BIGINT NOT NULL,
              dependents TEXT NOT NULL,
              done INTEGER NOT NULL,
              PRIMARY KEY (traversal_id, node)
            ) WITHOUT ROWID`,
            `INSERT INTO sync_points_keyed (traversal_id, node, stack_id, root_stack_id, waiting, dependents, done)
              SELECT traversal_id, node, stack_id, root_stack_id, waiting, dependents, done FROM sync_points`,
            'DROP TABLE sync_points',
            'ALTER TABLE sync_points_keyed RENAME TO sync_points',
            `CREATE TABLE sync_inputs_keyed (
              traversal_id TEXT NOT NULL,
              node TEXT NOT NULL,
              from_node TEXT NOT NULL,
              root_stack_id TEXT NOT NULL,
              data TEXT,
              PRIMARY KEY (traversal_id, node, from_node)
            ) WITHOUT ROWID`,
            `INSERT INTO sync_inputs_keyed (traversal_id, node, from_node, root_stack_id, data)
              SELECT traversal_id, node, from_node, root_stack_id, data FROM sync_inputs`,
            'DROP TABLE sync_inputs',
            'ALTER TABLE sync_inputs_keyed RENAME TO sync_inputs',
          ]
        : []),
    ],
  },
  {
    version: 26,
    description:
      "templates' texts and digests stored in pieces, each distinct piece once per stack tree (deflated, by its hash, counted by the templates naming it): a new version writes only the pieces that changed",
    statements: (d) => [
      `CREATE TABLE template_chunks (
        root_stack_id TEXT NOT NULL,
        hash TEXT NOT NULL,
        body ${d.name === 'sqlite' ? 'BLOB' : 'BYTEA'} NOT NULL,
        chars BIGINT NOT NULL,
        PRIMARY KEY (root_stack_id, hash)
      )`,
      // The counts apart from the bodies: a count changed rewrites a small row, not a piece.
      `CREATE TABLE template_chunk_refs (
        root_stack_id TEXT NOT NULL,
        hash TEXT NOT NULL,
        refs BIGINT NOT NULL,
        PRIMARY KEY (root_stack_id, hash)
      )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''}`,
      // The pieces' hashes in order, comma-separated; NULL: the row holds its text (older rows).
      'ALTER TABLE templates ADD COLUMN text_chunks TEXT',
      'ALTER TABLE templates ADD COLUMN digest_chunks TEXT',
    ],
    after: moveTemplateTexts,
  },
  {
    version: 27,
    description:
      "direct dependents: a node's dependents that wait on it alone come first in its list, counted by sync_points.direct; such a dependent is enqueued with its one input in work.inputs (no input row, no countdown)",
    statements: () => [
      'ALTER TABLE sync_points ADD COLUMN direct BIGINT NOT NULL DEFAULT 0',
      // JSON of the inputs a unit carries; NULL: read them from sync_inputs. A reschedule keeps them.
      'ALTER TABLE work ADD COLUMN inputs TEXT',
    ],
  },
  {
    version: 28,
    description:
      'resources_by_stack dropped: a prefix of resources_by_stack_name (stack_id, name), written by every row insert',
    statements: () => ['DROP INDEX IF EXISTS resources_by_stack'],
  },
];
