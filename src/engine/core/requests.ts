import type { ObservePolicy, StackCredentials } from '../../store/contract.js';
import type { Environment } from '../../template/environment/index.js';
import type { SourceDocument } from '../../template/source.js';
import type { Json } from '../../util/json.js';
import type { CredentialSource } from './deps.js';

/* What a client asks of the engine: a template as sent, a create, an update. */

/** A template as a client sends it: the document, its URL, its environment and files. */
export interface TemplateInput {
  url: string;
  text: string;
  files: Record<string, string>;
  environment: Environment;
  /** `text` parsed already (by the CLI's loader, or the API's body parser): bound without a second parse. */
  parsed?: SourceDocument;
}

export interface CreateRequest {
  name: string;
  projectId: string;
  template: TemplateInput;
  timeoutMins?: number | null;
  /** Heat's default: a failed create or update is not rolled back. */
  disableRollback?: boolean;
  tags?: string[];
  /** Continuous observation (observer.ts); absent: off. */
  observe?: ObservePolicy | null;
  /**
   * Whose credentials the stack's cloud calls use (absent: the deployment's login, as the embedded
   * CLI's); a source makes them once the template is valid (a Keystone trust).
   */
  credentials?: StackCredentials | CredentialSource;
}

export interface UpdateRequest {
  /** The new template; absent (`--existing`), the stored one with `parameters` merged in. */
  template?: TemplateInput;
  parameters?: Record<string, Json>;
  disableRollback?: boolean;
  timeoutMins?: number | null;
  /** New tags for the stack; absent, they stay. */
  tags?: string[];
  /**
   * Decide every resource's action from its live state (Heat's `converge`; converge.ts); the
   * `observe_on_update` setting makes it the default.
   */
  converge?: boolean;
  /** Starts, changes (a policy) or stops (null) the stack's observation; absent, it stays. */
  observe?: ObservePolicy | null;
}
