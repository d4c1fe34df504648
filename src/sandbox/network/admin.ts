import type { AdminAction } from '../admin.js';
import { ApiError } from '../errors.js';
import { KIND, type Network, type Port } from './model.js';
import { deleteNetwork } from './networks.js';
import { deletePort, updatePort } from './ports.js';

/**
 * Out-of-band changes to the network, as an operator or another tool would make them behind the
 * orchestrator's back: `POST /admin/port/<id>/set`, `/admin/port/<id>/delete`,
 * `/admin/network/<id>/delete`.
 */

function found<T>(value: T | undefined, what: string, id: string): T {
  if (value === undefined) throw new ApiError(404, `${what} ${id} could not be found.`);
  return value;
}

export const networkAdminActions: readonly AdminAction[] = [
  {
    kind: 'port',
    action: 'set',
    run(ctx, id, body) {
      const port = found(ctx.state.get<Port>(KIND.port, id), 'Port', id);
      return { port: updatePort(ctx, port, body) };
    },
  },
  {
    kind: 'port',
    action: 'delete',
    run(ctx, id) {
      // Even a router's interface: this is what goes wrong behind the API's back.
      deletePort(ctx, found(ctx.state.get<Port>(KIND.port, id), 'Port', id));
      return { deleted: id };
    },
  },
  {
    kind: 'network',
    action: 'delete',
    run(ctx, id) {
      const network = found(ctx.state.get<Network>(KIND.network, id), 'Network', id);
      // Out of band the ports go too, as when an operator purges a network.
      ctx.state.transaction(() => {
        for (const port of ctx.state.list<Port>(KIND.port)) {
          if (port.network_id === id) deletePort(ctx, port);
        }
        deleteNetwork(ctx, network);
      });
      return { deleted: id };
    },
  },
];
