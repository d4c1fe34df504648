import type { EngineDeps, EngineSettings } from '../core/deps.js';

/**
 * This engine's share of the deployment's cloud rate limit (`cloud_rate_limit`,
 * `cloud_rate_burst`): an equal part for each live engine. The heartbeat, which counts the live
 * engines anyway, pushes it into the limiter of the engine's clouds.
 */
export function cloudRateShare(
  settings: Pick<EngineSettings, 'cloudRateLimit' | 'cloudRateBurst'>,
  liveEngines: number,
): { perSecond: number; burst: number } {
  const limit = settings.cloudRateLimit ?? 0;
  if (limit <= 0) return { perSecond: 0, burst: 0 };
  const engines = Math.max(1, liveEngines);
  const burst = settings.cloudRateBurst || limit;
  // A bucket smaller than one token would never let a request through.
  return { perSecond: limit / engines, burst: Math.max(1, burst / engines) };
}

/** Tells the limiter this engine's share, given how many engines (itself included) are alive. */
export function shareCloudRate(deps: Pick<EngineDeps, 'cloudRate' | 'settings'>, liveEngines: number): void {
  if (!deps.cloudRate) return;
  const { perSecond, burst } = cloudRateShare(deps.settings, liveEngines);
  deps.cloudRate.setShare(perSecond, burst);
}
