import { isNotFound, OpenStackError } from '../../../openstack/index.js';
import { type PluginContext, type PollResult, ResourceInError } from '../../contract.js';
import { failure } from '../common.js';
import { action, compute, getServer, POLL_MS, type Server, statusOf } from './compute.js';

/** Deleting a server: sent (again while Nova refuses it for now), then polled until Nova has none. */

/** How often a delete that left the server in ERROR is sent again before the delete fails. */
const DELETE_ERROR_RETRIES = 3;
const DELETE_CONFLICT_ATTEMPTS = 60;

export type DeleteProgress = { id: string; sent: boolean; attempt: number; errors: number };

export async function sendDelete(ctx: PluginContext, progress: DeleteProgress): Promise<PollResult> {
  try {
    await ctx.openstack().request('compute', 'DELETE', `/servers/${progress.id}`, undefined, compute());
  } catch (error) {
    if (isNotFound(error)) return { done: true };
    // A task under way (a build, a resize) refuses the delete for now.
    if (
      error instanceof OpenStackError &&
      error.status === 409 &&
      progress.attempt < DELETE_CONFLICT_ATTEMPTS
    ) {
      return {
        done: false,
        progress: { ...progress, sent: false, attempt: progress.attempt + 1 },
        pollAfterMs: POLL_MS,
      };
    }
    throw failure('deleting the server', error);
  }
  return { done: false, progress: { ...progress, sent: true }, pollAfterMs: POLL_MS };
}

/** Polls a server being deleted until Nova no longer has it (Heat's check_delete_server_complete). */
export async function checkDeleted(ctx: PluginContext, progress: DeleteProgress): Promise<PollResult> {
  if (!progress.sent) return sendDelete(ctx, progress);
  let server: Server;
  try {
    server = await getServer(ctx, progress.id);
  } catch (error) {
    if (isNotFound(error)) return { done: true };
    throw failure('deleting the server', error);
  }
  const status = statusOf(server);
  const again = { done: false, progress, pollAfterMs: POLL_MS };
  if (status === 'DELETED' || server['OS-EXT-STS:task_state'] === 'deleting')
    return status === 'DELETED' ? { done: true } : again;
  if (status === 'SOFT_DELETED') {
    await action(ctx, progress.id, { forceDelete: null });
    return again;
  }
  if (status === 'ERROR') {
    if (progress.errors >= DELETE_ERROR_RETRIES) {
      throw new ResourceInError(
        `Server ${server.name} delete failed: (${server.fault?.code ?? 'None'}) ${server.fault?.message ?? 'Unknown'}`,
      );
    }
    return sendDelete(ctx, { ...progress, errors: progress.errors + 1 });
  }
  return again;
}
