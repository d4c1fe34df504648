import type { ConfigInput, SoftwareConfigRecord } from '../../software/contract.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import { ResourceFailure } from '../contract.js';

/**
 * What a software deployment derives from its config for one action (Heat's
 * SoftwareDeployment._build_derived_config_params): the config's inputs with this deployment's
 * values, the `deploy_*` inputs its agent needs to signal back, and (StructuredDeployment) the
 * config with `get_input` replaced. Pure: the plugins feed it what they read.
 */

export const DEPLOY_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'SUSPEND', 'RESUME'] as const;
export type DeployAction = (typeof DEPLOY_ACTIONS)[number];

export const SIGNAL_TRANSPORTS = [
  'CFN_SIGNAL',
  'TEMP_URL_SIGNAL',
  'HEAT_SIGNAL',
  'NO_SIGNAL',
  'ZAQAR_SIGNAL',
];

/** The config a deployment applies, as it reads it (a config it names, or none). */
export type SourceConfig = Pick<
  SoftwareConfigRecord,
  'group' | 'config' | 'inputs' | 'outputs' | 'options'
> & {
  name?: string;
};

export const EMPTY_SOURCE: SourceConfig = {
  group: 'Heat::Ungrouped',
  config: null,
  inputs: [],
  outputs: [],
  options: null,
};

/**
 * Whether `action` runs the config: a `component` config says per config which actions it has
 * (the deployment's `actions` are not consulted, as in Heat); any other runs for `actions`.
 */
export function actionRuns(source: SourceConfig, action: string, actions: readonly string[]): boolean {
  if (source.group !== 'component') return actions.includes(action);
  const configs = isPlainObject(source.config) ? source.config.configs : undefined;
  if (!Array.isArray(configs)) return false;
  return configs.some((c) => isPlainObject(c) && Array.isArray(c.actions) && c.actions.includes(action));
}

/** How the agent signals back: the values the deploy_* inputs take for a transport. */
export interface SignalInputs {
  transport: string;
  /** CFN_SIGNAL / TEMP_URL_SIGNAL: the pre-signed URL the agent POSTs or PUTs its outputs to. */
  signalUrl?: string;
  /** HEAT_SIGNAL, ZAQAR_SIGNAL: Keystone-style credentials (the API's resource signal route, its Zaqar subset). */
  auth?: { authUrl: string; userId: string; password: string; projectId: string; regionName?: string };
  /** ZAQAR_SIGNAL: the queue the agent posts its outputs to. */
  queueId?: string;
}

export interface DerivedInputsSpec {
  action: string;
  serverId: string;
  inputValues: JsonObject;
  /** `<stack name>/<stack id>`. */
  stackPath: string;
  resourceName: string;
  signal: SignalInputs;
}

function input(name: string, value: Json, description: string): ConfigInput {
  return { name, type: 'String', description, replace_on_change: false, value };
}

/** Heat's _build_derived_inputs: declared inputs with values, undeclared values, then deploy_*. */
export function derivedInputs(source: SourceConfig, spec: DerivedInputsSpec): ConfigInput[] {
  const values = new Map(Object.entries(spec.inputValues));
  const out: ConfigInput[] = [];
  for (const declared of source.inputs) {
    const value = values.has(declared.name) ? values.get(declared.name)! : (declared.default ?? null);
    values.delete(declared.name);
    const { value: _old, ...rest } = declared;
    out.push({ ...rest, value });
  }
  for (const [name, value] of values) out.push({ name, type: 'String', replace_on_change: false, value });
  out.push(input('deploy_server_id', spec.serverId, 'ID of the server being deployed to'));
  out.push(input('deploy_action', spec.action, 'Name of the current action being deployed'));
  out.push(input('deploy_stack_id', spec.stackPath, 'ID of the stack this deployment belongs to'));
  out.push(input('deploy_resource_name', spec.resourceName, 'Name of this deployment resource in the stack'));
  out.push(
    input(
      'deploy_signal_transport',
      spec.signal.transport,
      'How the server should signal to heat with the deployment output values.',
    ),
  );
  const { signal } = spec;
  if ((signal.transport === 'CFN_SIGNAL' || signal.transport === 'TEMP_URL_SIGNAL') && signal.signalUrl) {
    out.push(input('deploy_signal_id', signal.signalUrl, 'ID of signal to use for signaling output values'));
    const verb = signal.transport === 'CFN_SIGNAL' ? 'POST' : 'PUT';
    out.push(input('deploy_signal_verb', verb, 'HTTP verb to use for signaling output values'));
  } else if ((signal.transport === 'HEAT_SIGNAL' || signal.transport === 'ZAQAR_SIGNAL') && signal.auth) {
    const a = signal.auth;
    out.push(input('deploy_auth_url', a.authUrl, 'URL for API authentication'));
    out.push(input('deploy_username', a.userId, 'Username for API authentication'));
    out.push(input('deploy_user_id', a.userId, 'User ID for API authentication'));
    out.push(input('deploy_password', a.password, 'Password for API authentication'));
    out.push(input('deploy_project_id', a.projectId, 'ID of project for API authentication'));
    if (a.regionName)
      out.push(input('deploy_region_name', a.regionName, 'Region name for API authentication'));
  }
  if (signal.transport === 'ZAQAR_SIGNAL' && signal.queueId) {
    out.push(input('deploy_queue_id', signal.queueId, 'ID of queue to use for signaling output values'));
  }
  return out;
}

/** The single argument of `{<inputKey>: "<name>"}`, or undefined when the snippet is not that. */
function inputKeyArg(snippet: JsonObject, inputKey: string): string | undefined {
  const keys = Object.keys(snippet);
  if (keys.length !== 1 || keys[0] !== inputKey) return undefined;
  const arg = snippet[inputKey];
  return typeof arg === 'string' ? arg : undefined;
}

/**
 * StructuredDeployment's substitution (Heat's StructuredDeployment.parse): every
 * `{<inputKey>: name}` becomes the input's value; a name without an input is null (LAX) or an
 * error (STRICT, Heat's UserParameterMissing).
 */
export function substituteInputs(
  snippet: Json,
  inputs: ReadonlyMap<string, Json>,
  inputKey: string,
  validate: 'LAX' | 'STRICT' = 'LAX',
): Json {
  if (Array.isArray(snippet)) return snippet.map((v) => substituteInputs(v, inputs, inputKey, validate));
  if (!isPlainObject(snippet)) return snippet;
  const arg = inputKeyArg(snippet, inputKey);
  if (arg !== undefined) {
    if (validate === 'STRICT' && !inputs.has(arg)) {
      throw new ResourceFailure(`The Parameter (${arg}) was not provided.`, {
        heatClass: 'UserParameterMissing',
      });
    }
    return inputs.get(arg) ?? null;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(snippet))
    setOwn(out, k, substituteInputs(v, inputs, inputKey, validate));
  return out;
}

/** A derived config as the service stores it (id given by the caller). */
export type DerivedConfig = Pick<
  SoftwareConfigRecord,
  'name' | 'group' | 'config' | 'inputs' | 'outputs' | 'options'
>;

export interface DerivedConfigSpec extends DerivedInputsSpec {
  /** The deployment's `name` property; else the source's name; else `fallbackName`. */
  name?: string | null;
  fallbackName: string;
  /** StructuredDeployment: substitute inputs into the config (input_key, input_values_validate). */
  structured?: { inputKey: string; validate: 'LAX' | 'STRICT' };
}

/** Heat's _build_derived_config_params. */
export function derivedConfig(source: SourceConfig, spec: DerivedConfigSpec): DerivedConfig {
  const inputs = derivedInputs(source, spec);
  let config: Json = source.config;
  if (spec.structured) {
    const values = new Map(inputs.map((i) => [i.name, i.value ?? null] as [string, Json]));
    config = substituteInputs(source.config, values, spec.structured.inputKey, spec.structured.validate);
  }
  const empty = spec.structured ? {} : '';
  return {
    name: spec.name || source.name || spec.fallbackName,
    group: source.group || 'Heat::Ungrouped',
    config: isEmptyConfig(config) ? empty : config,
    inputs,
    outputs: source.outputs,
    options: source.options,
  };
}

/** Python's falsiness of a config (`derived_config or self.empty_config()`). */
function isEmptyConfig(config: Json): boolean {
  if (config === null || config === '' || config === false || config === 0) return true;
  if (Array.isArray(config)) return config.length === 0;
  return isPlainObject(config) && Object.keys(config).length === 0;
}

/**
 * The input whose change replaces the deployment (Heat's handle_update): a `replace_on_change`
 * input whose value differs from the one the previous derived config had. Undefined: none.
 */
export function replacingInput(
  previous: readonly ConfigInput[],
  next: readonly ConfigInput[],
): string | undefined {
  const old = new Map(previous.map((i) => [i.name, i]));
  for (const inp of next) {
    const before = old.get(inp.name);
    if (!inp.replace_on_change || !before) continue;
    if (JSON.stringify(inp.value ?? null) !== JSON.stringify(before.value ?? null)) return inp.name;
  }
  return undefined;
}
