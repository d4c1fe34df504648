import type { Command } from 'commander';
import type { Config } from '../../config/index.js';
import { engineAlive, removeDeadEngines } from '../../engine/runtime/liveness.js';
import type { ServiceRecord, Store } from '../../store/contract.js';
import { cliConfig, type GlobalOptions, openConfiguredStore } from '../embedded.js';
import { columnOption } from '../columns.js';
import { show } from '../output.js';

type Print = (s: string) => void;

/**
 * `hearth manage service list|clean`: the engines registered in the store's services table (Heat's
 * `heat-manage service list|clean`). An engine is dead once its heartbeat is older than
 * engine_dead_after_ms (or, on this host, once its process is gone).
 */
export function registerServiceCommands(manage: Command, program: Command, print: Print): void {
  const service = manage.command('service').description('Engines registered in the store');
  const withStore = async <T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> => {
    const global = program.opts<GlobalOptions>();
    const config = cliConfig(global);
    const store = await openConfiguredStore(config, global, { migrate: false });
    try {
      // A read of an empty database must not create a schema in it (it may be the wrong one).
      if ((await store.schemaVersion()) === 0) {
        throw new Error('the store has no schema yet (run `hearth manage db sync`)');
      }
      return await fn(store, config);
    } finally {
      await store.close();
    }
  };

  service
    .command('list')
    .description('List engines: host, pid, start, last heartbeat, and whether they are alive')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .addOption(columnOption())
    .action(async (opts: { format: string }) => {
      const rows = await withStore(async (store, config) => {
        const services = await store.tx((tx) => tx.services.list());
        const now = Date.now();
        return services.map((s) => serviceRow(s, now, config.engine_dead_after_ms));
      });
      show(print, opts, rows);
    });

  service
    .command('clean')
    .description('Remove dead engines and release the work they had claimed')
    .action(async () => {
      const removed = await withStore((store, config) => {
        const now = Date.now();
        return store.tx((tx) => removeDeadEngines(tx, now, config.engine_dead_after_ms));
      });
      if (removed.length === 0) print('no dead engines\n');
      for (const { service: s, releasedWork } of removed) {
        print(
          `removed engine ${s.engineId} (host ${s.host}, pid ${s.pid}, last heartbeat ` +
            `${new Date(s.heartbeatAt).toISOString()}); released ${releasedWork} claimed work item(s)\n`,
        );
      }
    });
}

function serviceRow(s: ServiceRecord, now: number, deadAfterMs: number): Record<string, unknown> {
  return {
    engine_id: s.engineId,
    host: s.host,
    pid: s.pid,
    started_at: new Date(s.startedAt).toISOString(),
    last_heartbeat: new Date(s.heartbeatAt).toISOString(),
    age_seconds: Math.round((now - s.heartbeatAt) / 100) / 10,
    status: engineAlive(s, now, deadAfterMs) ? 'alive' : 'dead',
  };
}
