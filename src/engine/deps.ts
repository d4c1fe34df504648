import type { SignalTarget } from '../auth/signal-tokens.js';
import type { Cloud, CloudRateShare } from '../openstack/index.js';
import {
  type PluginCatalog,
  type Reality,
  ResourceFailure,
  type SignalCredentials,
} from '../resources/contract.js';
import type { Store } from '../store/contract.js';
import type { TemplateLimits } from '../template/limits.js';
import type { HealBounds } from './heal-policy.js';

/** Time source: real in production, stepped by hand in the deterministic test harness. */
export interface Clock {
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

/** Tunables of the engine, from the configuration (Heat's option names where Heat has one). */
export interface EngineSettings {
  /** How long a claimed unit of work stays ours before another engine may take it over. */
  workLeaseMs: number;
  /** Interval between the engine's heartbeats, which renew the leases of the units it runs (default 1000). */
  heartbeatIntervalMs?: number;
  /** An engine whose heartbeat is older than this is presumed dead (its locks may be stolen). */
  engineDeadAfterMs: number;
  /** On SIGTERM, how long running units may finish before their claims are handed back (default 20000). */
  shutdownTimeoutMs?: number;
  /** Retries of a failed create/delete before the resource fails (Heat: action_retry_limit). */
  actionRetryLimit: number;
  /**
   * Scale of the backoff between those retries: retry n waits 2^n times this, plus up to twice
   * this of jitter. Default 1000, Heat's (in seconds); tests make it small.
   */
  actionRetryBackoffMs?: number;
  /** Default stack timeout in seconds (Heat: stack_action_timeout). */
  stackActionTimeout: number;
  /** Delay before a node retries when another engine holds its resource's lock. */
  lockRetryMs: number;
  /** Units of work claimed and run at once (update nodes among them are batched). */
  workBatchSize?: number;
  /** Resources whose live state drift detection reads at once (default 16). */
  driftConcurrency?: number;
  /** New stacks run under the convergence engine; false: the legacy engine (sticky per stack). */
  convergenceEngine?: boolean;
  /** Updating a legacy stack migrates it (and its nested stacks) to convergence first. */
  convergenceMigrateOnUpdate?: boolean;
  /** `stack adopt` is allowed (Heat: enable_stack_adopt; absent: refused, as Heat). */
  enableStackAdopt?: boolean;
  /** Every update decides from resources' live state, as `--converge` does (Heat: observe_on_update). */
  observeOnUpdate?: boolean;
  /** How often the observer may heal one resource (heal-policy.ts; default 3 heals, a one-hour window). */
  healBounds?: HealBounds;
  /** Requests per second to each cloud endpoint for the whole deployment (0 or absent: unlimited). */
  cloudRateLimit?: number;
  /** The deployment's burst per endpoint (0 or absent: one second's worth). */
  cloudRateBurst?: number;
  limits: TemplateLimits;
}

/** Everything the engine's units of work need: passed in, never imported, so tests can swap any part. */
export interface EngineDeps {
  readonly store: Store;
  readonly plugins: PluginCatalog;
  readonly reality: Reality;
  readonly clock: Clock;
  readonly engineId: string;
  readonly settings: EngineSettings;
  readonly random: () => number;
  /** Credentials for signalling a resource from outside (absent: resources get none). */
  readonly signalCredentials?: (target: SignalTarget & { stackName: string }) => SignalCredentials;
  /**
   * The OpenStack cloud of a project's stacks (absent: the deployment has none, and the OpenStack
   * types fail with a message saying what to configure). One cloud per deployment for now: the
   * project is there for per-project credentials.
   */
  readonly openstack?: (projectId: string) => Cloud;
  /**
   * The rate limits of those clouds' requests: each heartbeat sets this engine's share of
   * `cloudRateLimit` (absent: nothing is limited).
   */
  readonly cloudRate?: CloudRateShare;
}

/** The cloud of a project's stacks, or a resource failure saying how to configure one. */
export function cloudOf(deps: EngineDeps, projectId: string): Cloud {
  if (!deps.openstack) {
    throw new ResourceFailure(
      'no OpenStack cloud is configured: set openstack_cloud (a cloud of clouds.yaml), OS_CLOUD, or the OS_AUTH_URL family of variables',
    );
  }
  try {
    return deps.openstack(projectId);
  } catch (error) {
    // Opening a cloud makes no call: what fails here is its configuration, which a retry won't fix.
    if (error instanceof ResourceFailure) throw error;
    throw new ResourceFailure(`the OpenStack cloud cannot be used: ${(error as Error).message}`);
  }
}
