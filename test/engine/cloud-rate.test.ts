import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { cloudRateShare } from '../../src/engine/runtime/cloud-rate.js';
import { detectDrift } from '../../src/engine/reality/drift.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { type CloudRateShare, loadCloudSettings, openCloud, RateLimits } from '../../src/openstack/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from '../sandbox/support.js';
import { Harness } from './harness.js';

/** Remembers every share the engine set. */
class RecordedShares implements CloudRateShare {
  readonly shares: [number, number][] = [];
  setShare(perSecond: number, burst: number): void {
    this.shares.push([perSecond, burst]);
  }
  get last(): [number, number] | undefined {
    return this.shares.at(-1);
  }
}

/** Another engine's heartbeat row, on a host of its own (so only its heartbeat says it is alive). */
async function otherEngine(h: Harness, engineId: string): Promise<void> {
  const now = h.clock.now();
  await h.deps.store.tx((tx) =>
    tx.services.heartbeat({ engineId, host: 'elsewhere', pid: 1, startedAt: now, heartbeatAt: now }),
  );
}

describe('cloud rate limit shared by the engines', () => {
  it('gives each live engine an equal share, refreshed at every heartbeat', async () => {
    const rate = new RecordedShares();
    const h = await Harness.create({ cloudRate: rate, cloudRateLimit: 30 });
    assert.deepEqual(rate.last, [30, 30], 'alone, an engine takes the whole limit (burst: 1 s worth)');

    await otherEngine(h, 'engine-2');
    await h.engine.heartbeat(true);
    assert.deepEqual(rate.last, [15, 15]);
    await otherEngine(h, 'engine-3');
    await h.engine.heartbeat(true);
    assert.deepEqual(rate.last, [10, 10]);

    // The others stop beating: once presumed dead, their shares come back.
    h.clock.t += h.deps.settings.engineDeadAfterMs + 1;
    await h.engine.heartbeat(true);
    assert.deepEqual(rate.last, [30, 30]);
  });

  it('shares the burst too, never below one request, and sets nothing limited at 0', () => {
    assert.deepEqual(cloudRateShare({ cloudRateLimit: 10, cloudRateBurst: 4 }, 2), {
      perSecond: 5,
      burst: 2,
    });
    assert.deepEqual(cloudRateShare({ cloudRateLimit: 10, cloudRateBurst: 4 }, 8), {
      perSecond: 1.25,
      burst: 1,
    });
    assert.deepEqual(cloudRateShare({ cloudRateLimit: 0, cloudRateBurst: 4 }, 2), { perSecond: 0, burst: 0 });
    assert.deepEqual(cloudRateShare({}, 1), { perSecond: 0, burst: 0 });
  });

  it('keeps a drift detection against the sandbox within the limit, counted on the sandbox side', async () => {
    const RATE = 20;
    const BURST = 5;
    const NETS = 40;
    const { app } = createSandbox();
    const arrivals: number[] = [];
    app.addHook('onRequest', async (request) => {
      if (request.url.startsWith('/network/')) arrivals.push(performance.now());
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const limits = new RateLimits();
    const cloud = openCloud(
      loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${port}`), searchPath: [] }),
      {
        rateLimits: limits,
      },
    );
    try {
      // Created without a limit, so that only the detection is paced.
      const h = await Harness.create({ openstack: () => cloud, cloudRate: limits });
      const resources = Array.from({ length: NETS }, (_, i) => `  net${i}: {type: OS::Neutron::Net}`);
      await h.create('s', `heat_template_version: 2018-08-31\nresources:\n${resources.join('\n')}\n`);
      await h.settle();
      assert.equal(await h.status('s'), 'CREATE_COMPLETE');

      h.deps.settings.cloudRateLimit = RATE;
      h.deps.settings.cloudRateBurst = BURST;
      await h.engine.heartbeat(true);
      assert.deepEqual(limits.share, { perSecond: RATE, burst: BURST });
      // The bucket starts full (a burst is allowed) from the first call.
      arrivals.length = 0;
      const started = performance.now();
      const summary = await detectDrift(h.deps, (await findStack(h.deps, 'p', 's')).id);
      const elapsed = performance.now() - started;
      assert.equal(summary.counts.IN_SYNC, NETS);
      assert.equal(arrivals.length, NETS, 'one GET per network');

      // Within any stretch of time, no more than the burst plus what the rate earns in it (one
      // more for timer rounding at the stretch's ends). Calls sent at their paced times can reach
      // the sandbox bunched when a loaded machine delays them: JITTER_MS of delay is forgiven (an
      // unlimited client would still be caught: 40 calls land within a few tens of ms).
      const JITTER_MS = 150;
      for (let i = 0; i < arrivals.length; i++) {
        for (let j = i; j < arrivals.length; j++) {
          const allowed = BURST + (RATE * (arrivals[j]! - arrivals[i]! + JITTER_MS)) / 1000 + 1;
          assert.ok(
            j - i + 1 <= allowed,
            `${j - i + 1} calls in ${(arrivals[j]! - arrivals[i]!).toFixed(0)} ms`,
          );
        }
      }
      const least = ((NETS - BURST) / RATE) * 1000;
      assert.ok(elapsed >= least - 50, `${NETS} calls took ${elapsed.toFixed(0)} ms, less than ${least} ms`);
    } finally {
      await cloud.close();
      await app.close();
    }
  });
});
