import { Type } from '@sinclair/typebox';
import type { StackActivity, StackProgressCounts, StackRecord } from '../../store/contract.js';
import { redactorFor } from '../../views/redact.js';
import { heatTime } from '../../views/time.js';
import { type Api, baseOf } from '../context.js';
import type { ApiDeps } from '../deps.js';
import { stackByIdentity } from '../stack-access.js';
import { eventView } from '../views/event.js';
import { WatchHub } from '../watch-hub.js';
import { StackParams } from './params.js';

const WatchQuery = Type.Object(
  {
    /** The store id of the last event the client has: the stream starts after it (else at the newest). */
    after: Type.Optional(Type.Integer({ minimum: 0 })),
    /** How long the stream stays open; the client reconnects (and is authenticated again) after. */
    max_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 600 })),
  },
  { additionalProperties: true },
);

/** A stream lives a minute by default: a revoked token stops seeing changes by its next reconnect. */
const DEFAULT_SECONDS = 60;
/** Events sent per read: a burst of thousands goes out in pages, the loop free between them. */
const PAGE = 200;
/** Running and failed resource names sent with the progress. */
const ACTIVITY = 5;
/** A comment line now and then keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;

/**
 * `GET /v1/{project}/stacks/{name}/{id}/watch`: Server-Sent Events of a stack for the web console.
 * `progress` (status, reason, progress counts, running and failed names) when it changes, and
 * `event` (Heat's event view; the SSE id is the store's event id) for each new event. The route is
 * under /v1/{project}, so it is authenticated (X-Auth-Token) and tenant-scoped as every API route;
 * the console reads it with fetch, which can send the header, and so no token ever travels in a
 * URL (logs, history). A `retry`-less, bounded stream: the client reconnects with `after`.
 */
export function registerWatchRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  const store = engine.deps.store;
  const hub = new WatchHub(store);
  app.addHook('onClose', async () => hub.close());

  app.get(
    '/stacks/:stack_name/:stack_id/watch',
    { schema: { params: StackParams, querystring: WatchQuery, tags: ['stacks'] } },
    async (request, reply) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const lastEventId = Number(request.headers['last-event-id']);
      let cursor =
        request.query.after ??
        (Number.isSafeInteger(lastEventId) && lastEventId >= 0
          ? lastEventId
          : await store.read((tx) => tx.events.latestId(stack.id)));
      const [base, redact] = [baseOf(request), await redactorFor(engine, stack)];
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-openstack-request-id': request.id,
      });
      let closed = false;
      let lastProgress = '';

      const send = (event: string, data: unknown, eventId?: number) =>
        raw.write(
          `${eventId === undefined ? '' : `id: ${eventId}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
        );

      async function progress(): Promise<void> {
        const [row, counts, activity] = await store.read(async (tx) => {
          const current = await tx.stacks.get(stack.id);
          return [current, await tx.stacks.progress(stack.id), await tx.stacks.activity(stack.id, ACTIVITY)];
        });
        if (!row) return;
        const shown = progressView(row, counts, activity);
        const text = JSON.stringify(shown);
        if (text === lastProgress) return;
        lastProgress = text;
        send('progress', shown);
      }

      async function events(): Promise<void> {
        for (;;) {
          const page = await store.read((tx) => tx.events.list(stack.id, { afterId: cursor, limit: PAGE }));
          for (const e of page) send('event', eventView(base, e, stack, redact), e.id);
          if (page.length > 0) cursor = page.at(-1)!.id;
          // A full page: the next one after a turn of the loop, so other requests go between.
          if (page.length < PAGE || closed) return;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }

      let busy = Promise.resolve();
      const update = () => {
        busy = busy.then(async () => {
          if (closed || raw.writableNeedDrain) return;
          await events();
          await progress();
        });
        return busy;
      };
      const seconds = request.query.max_seconds ?? DEFAULT_SECONDS;
      const finish = () => {
        if (closed) return;
        closed = true;
        stop();
        clearTimeout(ends);
        clearInterval(keepalive);
        raw.end();
      };
      const stop = seconds > 0 ? hub.watch(stack.id, () => update().catch(finish)) : () => undefined;
      const ends = setTimeout(finish, seconds * 1000);
      const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS);
      request.raw.on('close', finish);
      await update().catch(finish);
      if (seconds === 0) finish();
    },
  );
}

/** The progress a console shows: the stack's status and what `--wait` counts. */
function progressView(
  row: StackRecord,
  counts: StackProgressCounts | undefined,
  activity: StackActivity,
): Record<string, unknown> {
  return {
    stack_status: `${row.action}_${row.status}`,
    stack_status_reason: row.reason,
    updated_time: heatTime(row.updatedAt ?? row.createdAt),
    counts: counts ?? null,
    activity,
  };
}
