import type { AgentSigner } from '../auth/agent-credentials.js';
import type { SignalSigner } from '../auth/signal-tokens.js';
import type { StackUserKeys } from '../auth/stack-user-keys.js';
import type { Config } from '../config/options.js';
import type { CredentialSource } from '../engine/core/deps.js';
import type { Engine } from '../engine/engine.js';
import type { Identity } from '../auth/identity.js';
import type { PasswordLogin } from '../auth/keystone.js';
import type { Authenticator } from './authenticator.js';

/** Makes the Keystone trust of a new stack of `identity`, with the request's `token` (credentials.ts). */
export type TrustMaker = (identity: Identity, token: string) => CredentialSource;

/** The API's limits, from the configuration (Heat's option names). */
export type ApiLimits = Pick<
  Config,
  | 'max_json_body_size'
  | 'max_json_body_depth'
  | 'max_stacks_per_tenant'
  | 'api_write_rate_limit'
  | 'api_write_rate_burst'
>;

/** What the routes work with: the engine (its store, plugins and template cache) and the authenticator. */
export interface ApiDeps {
  readonly engine: Engine;
  readonly authenticator: Authenticator;
  readonly limits: ApiLimits;
  /** Verifies signal tokens (handed out in resource attributes); absent, none is accepted. */
  readonly signer?: SignalSigner;
  /** Verifies servers' agent tokens (hagt_); absent, none is accepted. */
  readonly agentSigner?: AgentSigner;
  /** Opens AWS::IAM::AccessKey keypairs (hiak_) on the CFN API; absent, none is accepted. */
  readonly stackUserKeys?: StackUserKeys;
  /** Keystone mode: a user's password login for the web console; absent, the console takes tokens only. */
  readonly passwordLogin?: (
    login: PasswordLogin,
  ) => Promise<{ token: string; projectId: string } | undefined>;
  /** Keystone mode: makes each new stack's trust (credentials.ts); absent, none is made. */
  readonly trusts?: TrustMaker;
}
