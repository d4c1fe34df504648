import type { Migration } from './migration.js';
import { SCALE_MIGRATIONS } from './schema-scale.js';

export type { Migration } from './migration.js';

/** Every schema step, in order: the first releases' here, the scale core's in schema-scale.ts. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'stacks, templates, resources, traversals, sync points, events, work queue, services',
    statements: (d) => [
      `CREATE TABLE stacks (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        parent_id TEXT,
        parent_resource TEXT,
        root_stack_id TEXT NOT NULL,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        traversal_id TEXT NOT NULL,
        template_id TEXT,
        prev_template_id TEXT,
        convergence INTEGER NOT NULL,
        timeout_mins INTEGER,
        disable_rollback INTEGER NOT NULL,
        tags TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT,
        deleted_at BIGINT
      )`,
      'CREATE INDEX stacks_by_project_name ON stacks (project_id, name)',
      'CREATE INDEX stacks_by_parent ON stacks (parent_id)',

      `CREATE TABLE templates (
        id TEXT PRIMARY KEY,
        template TEXT NOT NULL,
        url TEXT NOT NULL,
        files TEXT NOT NULL,
        environment TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,

      `CREATE TABLE resources (
        ${d.autoIdColumn},
        uuid TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        physical_id TEXT,
        template_id TEXT,
        properties TEXT,
        attributes TEXT NOT NULL,
        data TEXT NOT NULL,
        progress TEXT,
        requires TEXT NOT NULL,
        replaces BIGINT,
        replaced_by BIGINT,
        engine_id TEXT,
        atomic_key BIGINT NOT NULL,
        unhealthy INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT
      )`,
      'CREATE INDEX resources_by_stack ON resources (stack_id)',

      `CREATE TABLE traversals (
        id TEXT PRIMARY KEY,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        action TEXT NOT NULL,
        template_id TEXT,
        remaining BIGINT NOT NULL,
        created_at BIGINT NOT NULL
      )`,

      // One row per graph node; its predecessors' reports are rows of sync_inputs, so a report
      // is an insert plus a counter decrement — fan-in never rewrites a growing document.
      `CREATE TABLE sync_points (
        traversal_id TEXT NOT NULL,
        node TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        waiting BIGINT NOT NULL,
        dependents TEXT NOT NULL,
        done INTEGER NOT NULL,
        PRIMARY KEY (traversal_id, node)
      )`,
      `CREATE TABLE sync_inputs (
        traversal_id TEXT NOT NULL,
        node TEXT NOT NULL,
        from_node TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        data TEXT,
        PRIMARY KEY (traversal_id, node, from_node)
      )`,

      `CREATE TABLE events (
        ${d.autoIdColumn},
        uuid TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        resource_type TEXT NOT NULL,
        physical_id TEXT,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      'CREATE INDEX events_by_stack ON events (stack_id, id)',

      // available_at is when the item can next be claimed: run_at while unclaimed, the lease's
      // end while claimed. Claiming is then one index range scan, however many items are held.
      // woken_at records a wake that arrived while the item was claimed (see work.ts).
      `CREATE TABLE work (
        ${d.autoIdColumn},
        root_stack_id TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        traversal_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        node TEXT NOT NULL,
        payload TEXT,
        run_at BIGINT NOT NULL,
        available_at BIGINT NOT NULL,
        attempts INTEGER NOT NULL,
        claimed_by TEXT,
        claim_expires BIGINT,
        woken_at BIGINT
      )`,
      'CREATE INDEX work_by_available ON work (available_at, id)',
      'CREATE INDEX work_by_node ON work (traversal_id, node)',
      'CREATE INDEX work_by_stack ON work (stack_id)',

      `CREATE TABLE services (
        engine_id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started_at BIGINT NOT NULL,
        heartbeat_at BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    description: 'work: find the items a dead engine had claimed',
    statements: () => ['CREATE INDEX work_claimed_by ON work (claimed_by)'],
  },
  {
    version: 3,
    description: 'work: items parked until an event (a nested stack finished) wakes them',
    statements: () => [
      'ALTER TABLE work ADD COLUMN waiting_for TEXT',
      'CREATE INDEX work_by_waiting ON work (waiting_for)',
    ],
  },
  {
    version: 4,
    description: 'resources: find one resource of a stack by name (signals) without reading the stack',
    statements: () => ['CREATE INDEX resources_by_stack_name ON resources (stack_id, name)'],
  },
  {
    version: 5,
    description: 'resources: create attempts retried (action_retry_limit), part of the idempotency key',
    statements: () => ['ALTER TABLE resources ADD COLUMN create_retries INTEGER NOT NULL DEFAULT 0'],
  },
  {
    version: 6,
    description: 'resources: find a resource by its physical id (a software config read by its id)',
    statements: () => ['CREATE INDEX resources_by_physical_id ON resources (physical_id)'],
  },
  {
    version: 7,
    description: "work: a resource's queued signals in order (only signal items are indexed)",
    statements: () => ["CREATE INDEX work_signals ON work (node, id) WHERE kind = 'signal'"],
  },
  {
    version: 8,
    description:
      'resources: no index on every physical id (it slowed every create); configs are found among dependencies',
    statements: () => ['DROP INDEX resources_by_physical_id'],
  },
  {
    version: 9,
    description: 'projects, users and API tokens (standalone auth); tokens are stored as hashes only',
    statements: () => [
      `CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      'CREATE UNIQUE INDEX projects_by_name ON projects (name)',
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        roles TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      'CREATE UNIQUE INDEX users_by_project_name ON users (project_id, name)',
      `CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        user_id TEXT NOT NULL,
        expires_at BIGINT,
        created_at BIGINT NOT NULL
      )`,
      'CREATE UNIQUE INDEX api_tokens_by_hash ON api_tokens (token_hash)',
    ],
  },
  {
    version: 10,
    description: 'settings shared by every process of a deployment (e.g. the key signing signal tokens)',
    statements: () => [
      `CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 11,
    description: 'stacks: live stacks counted by action and status from an index (the metrics endpoint)',
    statements: () => ['CREATE INDEX stacks_by_status ON stacks (deleted_at, action, status)'],
  },
  {
    version: 12,
    description:
      'templates: the root stack of the tree they belong to, as every row a traversal reads carries (distribution key)',
    statements: () => [
      'ALTER TABLE templates ADD COLUMN root_stack_id TEXT',
      // Existing rows: from the stacks and traversals that use them, one join each.
      `UPDATE templates SET root_stack_id = s.root_stack_id FROM stacks s
       WHERE s.template_id = templates.id AND templates.root_stack_id IS NULL`,
      `UPDATE templates SET root_stack_id = s.root_stack_id FROM stacks s
       WHERE s.prev_template_id = templates.id AND templates.root_stack_id IS NULL`,
      `UPDATE templates SET root_stack_id = t.root_stack_id FROM traversals t
       WHERE t.template_id = templates.id AND templates.root_stack_id IS NULL`,
    ],
  },
  {
    version: 13,
    description: 'stacks: one live top-level stack per name in a project, whatever transactions interleave',
    statements: () => [
      `CREATE UNIQUE INDEX stacks_live_name ON stacks (project_id, name)
       WHERE deleted_at IS NULL AND parent_id IS NULL`,
    ],
  },
  {
    version: 14,
    description: "resource_drift: each resource's last drift detection result (replaced by the next)",
    statements: () => [
      `CREATE TABLE resource_drift (
        stack_id TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        resource_type TEXT NOT NULL,
        physical_id TEXT,
        status TEXT NOT NULL,
        diff TEXT NOT NULL,
        reason TEXT,
        detected_at BIGINT NOT NULL,
        PRIMARY KEY (stack_id, resource_name)
      )`,
    ],
  },
  {
    version: 15,
    description:
      'converge updates and the observer: a traversal compares with live state, a stack is observed, heals are counted',
    statements: () => [
      'ALTER TABLE traversals ADD COLUMN converge TEXT',
      'ALTER TABLE stacks ADD COLUMN observe TEXT',
      `CREATE TABLE resource_heals (
        stack_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        root_stack_id TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (stack_id, resource_name)
      )`,
      `CREATE TABLE observer_counts (
        project_id TEXT PRIMARY KEY,
        checks BIGINT NOT NULL,
        drifts BIGINT NOT NULL,
        heals BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 16,
    description: 'legacy engine mode: the stack lock an engine holds while it walks a legacy stack',
    statements: () => [
      `CREATE TABLE stack_locks (
        stack_id TEXT PRIMARY KEY,
        engine_id TEXT NOT NULL,
        acquired_at BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 17,
    description:
      'standalone credentials lifecycle: users can be disabled, tokens revoked; tokens found by user',
    statements: () => [
      'ALTER TABLE users ADD COLUMN disabled_at BIGINT',
      'ALTER TABLE api_tokens ADD COLUMN revoked_at BIGINT',
      'CREATE INDEX api_tokens_by_user ON api_tokens (user_id)',
    ],
  },
  {
    version: 18,
    description:
      "owners' credentials: where a stack's cloud calls get theirs (a sealed Keystone trust, the project's cloud, the deployment's), a project's cloud",
    statements: () => [
      'ALTER TABLE stacks ADD COLUMN credentials TEXT',
      // Stacks made before were made with the deployment's login: their resources are in its account.
      `UPDATE stacks SET credentials = '{"kind":"deployment"}'`,
      'ALTER TABLE projects ADD COLUMN os_cloud TEXT',
    ],
  },
  {
    version: 19,
    description: "stack snapshots: a stack's template and its resources' snapshot data (backups, images)",
    statements: () => [
      `CREATE TABLE snapshots (
        id TEXT PRIMARY KEY,
        stack_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        name TEXT,
        status TEXT NOT NULL,
        status_reason TEXT NOT NULL,
        traversal_id TEXT NOT NULL,
        data TEXT,
        deleting INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT
      )`,
      'CREATE INDEX snapshots_by_stack ON snapshots (stack_id)',
    ],
  },
  {
    version: 20,
    description:
      "progress of a stack tree: a root's nested stacks; a stack's running and failed rows (partial indexes: settled rows are not in them)",
    statements: () => [
      'CREATE INDEX stacks_by_root ON stacks (root_stack_id)',
      "CREATE INDEX resources_running ON resources (stack_id) WHERE status = 'IN_PROGRESS'",
      "CREATE INDEX resources_failed ON resources (stack_id) WHERE status = 'FAILED'",
    ],
  },
  {
    version: 21,
    description: "software configs and deployments (Heat's software config service)",
    statements: () => [
      `CREATE TABLE software_configs (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL,
        group_name TEXT NOT NULL,
        config TEXT,
        inputs TEXT NOT NULL,
        outputs TEXT NOT NULL,
        options TEXT,
        created_at BIGINT NOT NULL
      )`,
      'CREATE INDEX software_configs_by_project ON software_configs (project_id, created_at, id)',
      'CREATE INDEX software_configs_by_time ON software_configs (created_at, id)',
      `CREATE TABLE software_deployments (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        config_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        input_values TEXT NOT NULL,
        output_values TEXT NOT NULL,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT
      )`,
      'CREATE INDEX software_deployments_by_server ON software_deployments (server_id)',
      'CREATE INDEX software_deployments_by_project ON software_deployments (project_id)',
      'CREATE INDEX software_deployments_by_config ON software_deployments (config_id)',
    ],
  },
  {
    version: 22,
    description:
      "templates: a nested stack's parent resource facade (resource_facade), recorded by the parent",
    statements: () => ['ALTER TABLE templates ADD COLUMN facade TEXT'],
  },
  ...SCALE_MIGRATIONS,
];
