import type { AgentTarget } from '../../auth/agent-credentials.js';
import type { SignalTarget } from '../../auth/signal-tokens.js';
import type { StackUserKeyTarget } from '../../auth/stack-user-keys.js';
import { type Cloud, type CloudRateShare, deferredCloud } from '../../openstack/index.js';
import {
  type AgentCredentials,
  type PluginCatalog,
  type Reality,
  ResourceFailure,
  type SignalCredentials,
  type StackUserKeypair,
} from '../../resources/contract.js';
import type { StackCredentials, StackRecord, Store } from '../../store/contract.js';
import type { TemplateLimits } from '../../template/limits.js';

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
   * Fetches the template a nested-stack type names by URL (AWS::CloudFormation::Stack's
   * TemplateURL); absent: over the network, http and https only (context/remote-template.ts).
   */
  readonly fetchTemplate?: (url: string) => Promise<string>;
  /** The credential of a server's in-guest agent (absent: servers get none). */
  readonly agentCredentials?: (target: AgentTarget) => AgentCredentials;
  /** The keypair of an AWS::IAM::AccessKey (absent: access keys get none). */
  readonly stackUserKeypair?: (target: StackUserKeyTarget) => StackUserKeypair;
  /**
   * The OpenStack cloud a stack's owner acts in, with the owner's credentials (absent: the
   * deployment has none, and the OpenStack types fail with a message saying what to configure).
   * A promise when the credentials must be looked up first; a throw or a rejection says what is
   * missing.
   */
  readonly openstack?: (owner: StackOwner) => Cloud | Promise<Cloud>;
  /**
   * Gives up what an owner's credentials hold once its root stack is deleted (deletes its Keystone
   * trust); absent: nothing to give up.
   */
  readonly releaseCredentials?: (owner: StackOwner) => Promise<void>;
  /**
   * The rate limits of those clouds' requests: each heartbeat sets this engine's share of
   * `cloudRateLimit` (absent: nothing is limited).
   */
  readonly cloudRate?: CloudRateShare;
}

/** Who a stack's cloud calls act for: its project and the credentials its root recorded. */
export interface StackOwner {
  readonly projectId: string;
  readonly credentials: StackCredentials;
}

/**
 * Credentials made for a new stack once its request is known valid, before anything is stored (a
 * Keystone trust): `discard` undoes them when the create is refused after all.
 */
export interface CredentialSource {
  obtain(): Promise<StackCredentials>;
  discard(credentials: StackCredentials): Promise<void>;
}

export const DEPLOYMENT: StackCredentials = { kind: 'deployment' };

/** The owner of a stored stack (a row without credentials predates them: the deployment's login). */
export function ownerOf(stack: Pick<StackRecord, 'projectId' | 'credentials'>): StackOwner {
  return { projectId: stack.projectId, credentials: stack.credentials ?? DEPLOYMENT };
}

const NO_CLOUD =
  'no OpenStack cloud is configured: set openstack_cloud (a cloud of clouds.yaml), OS_CLOUD, or the OS_AUTH_URL family of variables';

/** Opening a cloud makes no call: what fails is its configuration, which a retry won't fix. */
function unusable(error: unknown): ResourceFailure {
  if (error instanceof ResourceFailure) return error;
  return new ResourceFailure(`the OpenStack cloud cannot be used: ${(error as Error).message}`);
}

/**
 * The cloud of a stack's owner (stored or not yet: `{ projectId, credentials }` of the request),
 * with the owner's credentials; rejects with a ResourceFailure saying what to configure.
 */
export async function openstackFor(deps: EngineDeps, owner: StackOwner): Promise<Cloud> {
  if (!deps.openstack) throw new ResourceFailure(NO_CLOUD);
  try {
    return inOwnersRegion(await deps.openstack(owner), owner);
  } catch (error) {
    throw unusable(error);
  }
}

/**
 * The owner's login in the region its stack records (a stack made in another region by
 * OS::Heat::Stack): the same credentials, that region's endpoints.
 */
function inOwnersRegion(cloud: Cloud, owner: StackOwner): Cloud {
  const region = owner.credentials.region;
  return region === undefined ? cloud : cloud.inRegion(region);
}

/** openstackFor for a plugin's context, which wants the cloud at once: its calls wait for it. */
export function cloudOf(deps: EngineDeps, owner: StackOwner): Cloud {
  if (!deps.openstack) throw new ResourceFailure(NO_CLOUD);
  let opened: Cloud | Promise<Cloud>;
  try {
    opened = deps.openstack(owner);
  } catch (error) {
    throw unusable(error);
  }
  if (!(opened instanceof Promise)) return inOwnersRegion(opened, owner);
  return deferredCloud(
    opened.then(
      (cloud) => inOwnersRegion(cloud, owner),
      (error: unknown) => {
        throw unusable(error);
      },
    ),
  );
}

export interface HealBounds {
  /** Heals of one resource before the observer gives up (default 3). */
  limit: number;
  /** In sync this long after its last heal, a resource's count starts again (default one hour). */
  windowMs: number;
}
