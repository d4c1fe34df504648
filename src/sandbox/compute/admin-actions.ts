import type { AdminAction } from '../admin.js';
import type { SandboxContext } from '../app.js';
import type { PortBinder, VolumeBinder } from '../bindings.js';
import { ApiError, notFound } from '../errors.js';
import { deleteServer, KNOWN_STATUSES, type ServerRecord, settle, withPhases } from './server-state.js';

/**
 * Out-of-band changes to servers, as a cloud operator (or a failing host) makes them:
 * `POST /admin/server/<id>/delete`, `.../error` (optional body {message}), `.../status` ({status}).
 */

export function computeAdminActions(bindings: { ports: PortBinder; volumes: VolumeBinder }): AdminAction[] {
  const live = (ctx: SandboxContext, id: string): ServerRecord => {
    const stored = ctx.state.get<ServerRecord>('server', id);
    const server = stored ? settle({ ctx, ...bindings }, stored) : undefined;
    if (!server || server.deletedAt !== null) throw notFound('Instance', id);
    return server;
  };
  const setPhase = (ctx: SandboxContext, server: ServerRecord, status: string, message?: string) => {
    const now = ctx.now();
    const fault = message === undefined ? {} : { fault: { code: 500, message, details: '', created: now } };
    ctx.state.put('server', server.projectId, withPhases(server, now, [{ at: now, status, ...fault }]));
    return { id: server.id, status };
  };
  return [
    {
      kind: 'server',
      action: 'delete',
      run(ctx, id) {
        deleteServer({ ctx, ...bindings }, live(ctx, id));
        return { id, status: 'DELETED' };
      },
    },
    {
      kind: 'server',
      action: 'error',
      run(ctx, id, body) {
        const message =
          typeof body.message === 'string' ? body.message : `Instance ${id} was set to ERROR out of band.`;
        return setPhase(ctx, live(ctx, id), 'ERROR', message);
      },
    },
    {
      kind: 'server',
      action: 'status',
      run(ctx, id, body) {
        const status = typeof body.status === 'string' ? body.status.toUpperCase() : '';
        if (!KNOWN_STATUSES.includes(status) || status === 'DELETED') {
          throw new ApiError(
            400,
            `status must be one of ${KNOWN_STATUSES.filter((s) => s !== 'DELETED').join(', ')}`,
          );
        }
        const message = status === 'ERROR' ? `Instance ${id} was set to ERROR out of band.` : undefined;
        return setPhase(ctx, live(ctx, id), status, message);
      },
    },
  ];
}
