import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ApiDeps } from './deps.js';
import type { Api } from './context.js';

const REQUEST_LABELS = ['method', 'route', 'status'] as const;

/** Seconds, for request latencies and units of work alike. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `GET /metrics` in Prometheus' text format, with the server's own registry (never prom-client's
 * global one: several servers in one process, as tests build them, keep their own counts).
 *
 * Requests are labelled by route pattern (`/v1/:project_id/stacks/:stack_name/:stack_id`), never
 * by URL, so no project or stack name becomes a label. The engine's figures are read at scrape
 * time in one transaction of index-only counts; units of work are counted as the engine's worker
 * in this process reports them.
 */
export function registerMetrics(app: Api, deps: ApiDeps): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'hearth_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: REQUEST_LABELS,
    registers,
  });
  const latency = new Histogram({
    name: 'hearth_http_request_duration_seconds',
    help: 'Time from a request to its response, by method, route pattern and status',
    labelNames: REQUEST_LABELS,
    buckets: BUCKETS,
    registers,
  });
  app.addHook('onResponse', async (request, reply) => {
    // Requests no route matched share one label: their URLs are anyone's choice.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  const units = new Counter({
    name: 'hearth_work_units_total',
    help: "Units of work this process's engine ran, by kind",
    labelNames: ['kind'],
    registers,
  });
  const failedUnits = new Counter({
    name: 'hearth_work_units_failed_total',
    help: 'Units of work that ended in an error (each is retried), by kind',
    labelNames: ['kind'],
    registers,
  });
  const unitTime = new Histogram({
    name: 'hearth_work_unit_duration_seconds',
    help: 'Time a unit of work took (units run as a batch share its time evenly), by kind',
    labelNames: ['kind'],
    buckets: BUCKETS,
    registers,
  });
  const stopObserving = deps.engine.worker.observe((kind, ok, ms) => {
    units.inc({ kind });
    if (!ok) failedUnits.inc({ kind });
    unitTime.observe({ kind }, ms / 1000);
  });
  app.addHook('onClose', async () => {
    stopObserving();
  });

  const queue = new Gauge({
    name: 'hearth_work_queue_items',
    help: 'Units of work queued: due (claimable now), claimed (running), scheduled (a later time or an event)',
    labelNames: ['state'],
    registers,
  });
  const nextDue = new Gauge({
    name: 'hearth_work_queue_next_due_timestamp_seconds',
    help: 'When the earliest queued unit became or becomes claimable (+Inf when the queue is empty)',
    registers,
  });
  const stacks = new Gauge({
    name: 'hearth_stacks',
    help: 'Stacks not deleted (nested ones included), by action and status',
    labelNames: ['action', 'status'],
    registers,
  });
  const heartbeats = new Gauge({
    name: 'hearth_engine_heartbeat_timestamp_seconds',
    help: 'Last heartbeat of each engine registered in the store',
    labelNames: ['engine_id'],
    registers,
  });

  // Counted in the store by whichever engine observed: every process exports the same figures.
  const observer = (what: string, help: string) =>
    new Gauge({ name: `hearth_observer_${what}`, help, labelNames: ['project_id'], registers });
  const observed = {
    checks: observer(
      'checks',
      'Live-state reads of resources by the observer, per project, since the database began',
    ),
    drifts: observer(
      'drifts',
      'Observations that found a resource drifted (MODIFIED, DELETED or ERROR), per project',
    ),
    heals: observer('heals', 'Heal traversals the observer started, per project'),
  };

  /** The engine's figures as the store has them now (gauges replaced at once: no stale labels). */
  async function readEngine(): Promise<void> {
    const { store, clock } = deps.engine.deps;
    const now = clock.now();
    const figures = await store.tx(async (tx) => ({
      byStatus: await tx.stacks.countByStatus(),
      work: await tx.work.stats(now),
      services: await tx.services.list(),
      observer: await tx.observerCounts.list(),
    }));
    for (const gauge of Object.values(observed)) gauge.reset();
    for (const { projectId, checks, drifts, heals } of figures.observer) {
      observed.checks.set({ project_id: projectId }, checks);
      observed.drifts.set({ project_id: projectId }, drifts);
      observed.heals.set({ project_id: projectId }, heals);
    }
    stacks.reset();
    for (const { action, status, count } of figures.byStatus) stacks.set({ action, status }, count);
    queue.reset();
    queue.set({ state: 'due' }, figures.work.due);
    queue.set({ state: 'claimed' }, figures.work.claimed);
    queue.set({ state: 'scheduled' }, figures.work.scheduled);
    // An empty queue has nothing due, ever: `time() - next` stays negative, no lag alert fires.
    const next = figures.work.nextAvailableAt;
    nextDue.set(next === undefined ? Infinity : next / 1000);
    heartbeats.reset();
    for (const s of figures.services) heartbeats.set({ engine_id: s.engineId }, s.heartbeatAt / 1000);
  }

  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
    await readEngine();
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
