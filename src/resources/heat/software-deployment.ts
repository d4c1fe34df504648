import type { Value } from '../../template/functions/types.js';
import type { PropertySchema } from '../../template/properties/index.js';
import type { ImplicitView } from '../../template/types.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import {
  type ActionResult,
  NoActionRequired,
  type PluginContext,
  type PollResult,
  ResourceFailure,
  UpdateReplace,
} from '../contract.js';
import {
  actionRuns,
  derivedConfig,
  EMPTY_SOURCE,
  replacingInput,
  type SignalInputs,
  type SourceConfig,
} from './deployment-config.js';
import {
  DEPLOYMENT_ATTRIBUTES,
  DEPLOYMENT_PROPERTIES,
  OUTPUT_VALUES,
  SERVER_PROPERTY,
  STRUCTURED_PROPERTIES,
} from './deployment-schema.js';
import { physicalResourceName, uuidFrom } from './physical-name.js';
import { zaqarQueueName } from '../server-agent/transport.js';
import { rowReality } from './row-reality.js';

/**
 * The longest a waiting deployment stays parked without looking: a signal to the deployment
 * wakes it at once; this catches outputs that arrive another way (the software deployments API).
 */
const LONGEST_PARK_MS = 5_000;

/** What a deployment's wait carries between polls. */
interface DeployProgress {
  deployment: string;
  action: string;
  /** When the wait began (ms since the epoch): the timeout's reason says how long it waited. */
  since: number;
  /** The server, for a DELETE's wait (which ends when the server is gone). */
  server?: string;
}

/** The config a deployment names, read through the service (Heat's _load_config). */
async function loadSource(ctx: PluginContext, configId: Value | undefined): Promise<SourceConfig> {
  if (typeof configId !== 'string' || configId === '') return EMPTY_SOURCE;
  const stored = await ctx.software.getConfig(configId);
  if (stored) return stored;
  throw new ResourceFailure(`Software config (${configId}) could not be found.`, { heatClass: 'NotFound' });
}

/**
 * The queue a ZAQAR_SIGNAL deployment's agent posts to (Heat's zaqar_signal_queue_id): named from
 * the deployment's id, so every action and every retry of one deployment uses the same queue.
 */
export function signalQueueId(ctx: PluginContext, deploymentId: string): string {
  return zaqarQueueName(ctx.stackName, ctx.resourceName, `signal-queue:${deploymentId}`);
}

/** How the deployment's agent signals back, from the resource's signal credentials. */
function signalInputs(ctx: PluginContext, transport: string, deploymentId: string): SignalInputs {
  const creds = ctx.signalCredentials();
  if (!creds) return { transport };
  if (transport === 'CFN_SIGNAL' || transport === 'TEMP_URL_SIGNAL')
    return { transport, signalUrl: creds.alarmUrl };
  if (transport !== 'HEAT_SIGNAL' && transport !== 'ZAQAR_SIGNAL') return { transport };
  // ZAQAR_SIGNAL logs in as HEAT_SIGNAL does; the catalog names Hearth's Zaqar subset too.
  const base = creds.alarmUrl.slice(0, creds.alarmUrl.lastIndexOf('/v1/signal/'));
  const projectId = decodeURIComponent(creds.endpoint.slice(base.length).split('/')[2] ?? '');
  const userId = creds.token.split('.')[0]!;
  return {
    transport,
    auth: { authUrl: `${base}/agent-identity/v3`, userId, password: creds.token, projectId },
    ...(transport === 'ZAQAR_SIGNAL' ? { queueId: signalQueueId(ctx, deploymentId) } : {}),
  };
}

function stackPath(ctx: PluginContext): string {
  return `${ctx.stackName}/${ctx.stackId}`;
}

function actionsOf(properties: Record<string, Value>): string[] {
  return Array.isArray(properties.actions) ? properties.actions.map(String) : ['CREATE', 'UPDATE'];
}

function inputValuesOf(properties: Record<string, Value>): JsonObject {
  return isPlainObject(properties.input_values) ? (properties.input_values as JsonObject) : {};
}

/** What differs between SoftwareDeployment and StructuredDeployment. */
interface Flavour {
  structured: boolean;
}

function derive(
  ctx: PluginContext,
  properties: Record<string, Value>,
  source: SourceConfig,
  action: string,
  flavour: Flavour,
) {
  const transport = String(properties.signal_transport ?? 'CFN_SIGNAL');
  const deploymentId = ctx.physicalId ?? uuidFrom(ctx.idempotencyKey);
  return derivedConfig(source, {
    action,
    serverId: String(properties.server),
    inputValues: inputValuesOf(properties),
    stackPath: stackPath(ctx),
    resourceName: ctx.resourceName,
    signal: signalInputs(ctx, transport, deploymentId),
    name: typeof properties.name === 'string' ? properties.name : null,
    fallbackName: physicalResourceName(ctx),
    ...(flavour.structured
      ? {
          structured: {
            inputKey: String(properties.input_key ?? 'get_input'),
            validate: properties.input_values_validate === 'STRICT' ? 'STRICT' : 'LAX',
          },
        }
      : {}),
  });
}

/**
 * Runs `action` of the deployment when it is one it runs (Heat's _handle_action): a new derived
 * config, the deployment pointed at it (IN_PROGRESS, or COMPLETE without a signal), the previous
 * derived config deleted. Returns the wait, or nothing to wait for. The derived config's id is
 * stable for one run of the action (a unit run again after a crash makes the same one) and new
 * for the next run (`runs` in the row's data), so an agent applies each run once.
 */
async function runAction(
  ctx: PluginContext,
  properties: Record<string, Value>,
  action: string,
  flavour: Flavour,
  source?: SourceConfig,
): Promise<ActionResult> {
  const id = ctx.physicalId ?? uuidFrom(ctx.idempotencyKey);
  const config = source ?? (await loadSource(ctx, properties.config));
  if (!actionRuns(config, action, actionsOf(properties))) return { physicalId: id };
  const software = ctx.software;
  // A create runs once per idempotency key: its run is the first whatever the row's data says (a
  // create run again once its physical id was recorded finds the same derived config).
  const runs = action === 'CREATE' ? 1 : (typeof ctx.data.runs === 'number' ? ctx.data.runs : 0) + 1;
  const derivedId = uuidFrom(`${ctx.idempotencyKey}:${action}:${runs}`);
  const derived = derive(ctx, properties, config, action, flavour);
  await software.createConfig({ id: derivedId, ...derived });
  const noSignal = properties.signal_transport === 'NO_SIGNAL';
  const state = noSignal
    ? { status: 'COMPLETE' as const, statusReason: 'Not waiting for outputs signal' }
    : { status: 'IN_PROGRESS' as const, statusReason: 'Deploy data available' };
  const inputValues = inputValuesOf(properties);
  const existing = await software.getDeployment(id);
  if (!existing) {
    await software.createDeployment({
      id,
      configId: derivedId,
      serverId: String(properties.server),
      inputValues,
      action,
      ...state,
    });
  } else if (existing.configId !== derivedId) {
    await software.updateDeployment(id, { configId: derivedId, inputValues, action, ...state });
    await software.deleteConfig(existing.configId);
    // Else this run was applied before a crash: its agent may have signalled already, so the
    // deployment is left as it is (set IN_PROGRESS again, it would wait for a signal never resent).
  }
  const queue = derived.inputs.find((i) => i.name === 'deploy_queue_id')?.value;
  const data = {
    runs,
    derived_config: derivedId,
    ...(typeof queue === 'string' ? { signal_queue_id: queue } : {}),
  };
  if (noSignal) return { physicalId: id, data };
  const progress: DeployProgress = { deployment: id, action, since: ctx.now() };
  return {
    physicalId: id,
    data,
    progress: progress as unknown as Json,
    pollAfterMs: 0,
    wakeOnSignalTo: ctx.resourceName,
  };
}

/** One look at the deployment (Heat's _check_complete): its outputs once COMPLETE, or its failure. */
async function poll(ctx: PluginContext, state: Json): Promise<PollResult> {
  const progress = state as unknown as DeployProgress;
  const sd = await ctx.software.getDeployment(progress.deployment);
  if (!sd)
    throw new ResourceFailure(`Deployment (${progress.deployment}) could not be found.`, {
      heatClass: 'NotFound',
    });
  if (sd.status === 'COMPLETE') return { done: true, data: { outputs: sd.outputValues } };
  if (sd.status === 'FAILED') {
    // The outputs are kept with the failure: deploy_status_code and deploy_stderr show what went wrong.
    throw new ResourceFailure(
      `Deployment to server failed: ${sd.statusReason}${stderrNote(sd.outputValues)}`,
      { data: { outputs: sd.outputValues } },
    );
  }
  return { done: false, progress: state, pollAfterMs: LONGEST_PARK_MS, wakeOnSignalTo: ctx.resourceName };
}

/**
 * The tail of what the config wrote to stderr, after a failure's reason: Heat keeps it in
 * deploy_stderr alone, but the reason is where a person reads why a deployment failed (issue 22).
 */
function stderrNote(outputs: JsonObject): string {
  const stderr = typeof outputs.deploy_stderr === 'string' ? outputs.deploy_stderr.trim() : '';
  if (stderr === '') return '';
  return ` (deploy_stderr: ${stderr.length > STDERR_TAIL ? `...${stderr.slice(-STDERR_TAIL)}` : stderr})`;
}

const STDERR_TAIL = 500;

/** Whether the deployment's server is known to be gone (then a DELETE's wait ends). */
async function serverGone(ctx: PluginContext, server: string | undefined): Promise<boolean> {
  if (!server) return true;
  const peer = await ctx.readResource(server);
  if (!peer) return false;
  return peer.physicalId === null || (peer.action === 'DELETE' && peer.status === 'COMPLETE');
}

/** Removes the deployment and its derived config (Heat's _delete_resource); absent is fine. */
async function removeDeployment(ctx: PluginContext): Promise<void> {
  if (ctx.physicalId === null) return;
  const software = ctx.software;
  const sd = await software.getDeployment(ctx.physicalId);
  await software.deleteDeployment(ctx.physicalId);
  if (sd) await software.deleteConfig(sd.configId);
}

/** The deployment types: SoftwareDeployment, and StructuredDeployment (`structured`). */
export function deploymentPlugin(spec: {
  type: string;
  description: string;
  structured: boolean;
}): CatalogPlugin {
  const flavour: Flavour = { structured: spec.structured };
  const properties: Record<string, PropertySchema> = {
    ...DEPLOYMENT_PROPERTIES,
    server: SERVER_PROPERTY,
    ...(spec.structured ? STRUCTURED_PROPERTIES : {}),
  };
  return {
    type: spec.type,
    description: spec.description,
    supportStatus: { version: '2014.1' },
    properties,
    attributes: DEPLOYMENT_ATTRIBUTES,
    crossCheck: serverTakesSoftwareConfig,
    // Any output the config declares is an attribute (Heat checks the name at run time).
    dynamicAttribute: () => true,
    readAttribute: readDeploymentAttribute,

    async create(ctx, props) {
      return runAction(ctx, props, 'CREATE', flavour);
    },
    checkCreateComplete: poll,

    async update(ctx, props) {
      const software = ctx.software;
      const source = await loadSource(ctx, props.config);
      const sd = ctx.physicalId === null ? undefined : await software.getDeployment(ctx.physicalId);
      const previous = sd ? await software.getConfig(sd.configId) : undefined;
      if (previous) {
        const next = derive(ctx, props, source, 'UPDATE', flavour);
        if (replacingInput(previous.inputs, next.inputs) !== undefined) throw new UpdateReplace();
      }
      return runAction(ctx, props, 'UPDATE', flavour, source);
    },
    checkUpdateComplete: poll,

    async delete(ctx) {
      if (ctx.physicalId === null) return {};
      const props = (ctx.storedProperties ?? {}) as Record<string, Value>;
      let started: ActionResult = {};
      try {
        started = await runAction(ctx, props, 'DELETE', flavour);
      } catch (err) {
        // The config is gone: nothing to run (Heat ignores NotFound here).
        if (!(err instanceof ResourceFailure && err.heatClass === 'NotFound')) throw err;
      }
      if (started.progress === undefined) {
        await removeDeployment(ctx);
        return {};
      }
      const progress = { ...(started.progress as JsonObject), server: String(props.server ?? '') };
      return { ...started, progress };
    },
    async checkDeleteComplete(ctx, state) {
      const progress = state as unknown as DeployProgress;
      if (!(await serverGone(ctx, progress.server))) {
        const result = await poll(ctx, state);
        if (!result.done) return result;
      }
      await removeDeployment(ctx);
      return { done: true };
    },

    async suspend(ctx) {
      return runAction(ctx, (ctx.storedProperties ?? {}) as Record<string, Value>, 'SUSPEND', flavour);
    },
    checkSuspendComplete: poll,
    async resume(ctx) {
      return runAction(ctx, (ctx.storedProperties ?? {}) as Record<string, Value>, 'RESUME', flavour);
    },
    checkResumeComplete: poll,

    // Its agent signals the outputs of a SUSPEND or DELETE too (Heat's no_signal_actions = ()).
    noSignalActions: [],
    async handleSignal(ctx, details) {
      if (ctx.physicalId === null) throw new NoActionRequired();
      const reason = await ctx.software.signalDeployment(ctx.physicalId, details);
      if (reason === undefined) throw new NoActionRequired();
      // A change to the row is what wakes the wait parked on this resource's signals.
      ctx.setData({ last_signal: ctx.signalId });
      return reason;
    },

    observes: false,
    getReality: rowReality,

    /** The output values as the wait's end cached them (Heat reads them from the deployment). */
    async attribute(ctx, name) {
      const outputs = isPlainObject(ctx.data.outputs) ? (ctx.data.outputs as JsonObject) : {};
      if (name === OUTPUT_VALUES) return outputs;
      return Object.hasOwn(outputs, name) ? (outputs[name] as Value) : null;
    },

    timeoutReason(action, state, now) {
      const progress = state as unknown as DeployProgress | null;
      if (!progress || typeof progress.since !== 'number') return undefined;
      const waited = Math.max(0, Math.round((now - progress.since) / 1000));
      return (
        `Deployment to server failed: the server's agent did not signal the outputs of ${action} ` +
        `within ${waited} s (deployment ${progress.deployment})`
      );
    },
  };
}

/**
 * Heat's SoftwareDeployment.validate: a server of the same template that the deployment names
 * must have user_data_format SOFTWARE_CONFIG (a Nova server's default is HEAT_CFNTOOLS).
 */
function serverTakesSoftwareConfig(
  self: ImplicitView,
  lookup: (name: string) => ImplicitView | undefined,
): { property: string; message: string } | undefined {
  const ref = self.identity('server');
  if (!ref?.startsWith('resource:')) return undefined;
  const name = ref.slice('resource:'.length);
  const server = lookup(name);
  if (!server) return undefined;
  const written = server.identity('user_data_format');
  const format =
    written === undefined
      ? server.type === 'OS::Nova::Server'
        ? 'HEAT_CFNTOOLS'
        : undefined
      : JSON.parse(written);
  if (!format || format === 'SOFTWARE_CONFIG') return undefined;
  return {
    property: 'server',
    message:
      `Resource ${name}'s property user_data_format should be set to SOFTWARE_CONFIG since there ` +
      'are software deployments on it.',
  };
}

/** An attribute from what a deployment cached: its own, else the output of that name, else null. */
export function readDeploymentAttribute(
  cached: Readonly<Record<string, Json>>,
  name: string | undefined,
): Json | undefined {
  const outputs = isPlainObject(cached[OUTPUT_VALUES]) ? (cached[OUTPUT_VALUES] as JsonObject) : {};
  if (name === undefined) {
    const all: JsonObject = { ...outputs };
    for (const [k, v] of Object.entries(cached)) if (k !== OUTPUT_VALUES) all[k] = v;
    return all;
  }
  if (Object.hasOwn(outputs, name)) return outputs[name]!;
  return Object.hasOwn(cached, name) ? cached[name]! : null;
}

/** OS::Heat::SoftwareDeployment. */
export const softwareDeploymentPlugin = deploymentPlugin({
  type: 'OS::Heat::SoftwareDeployment',
  description:
    'This resource associates a server with some configuration. The configuration is to be ' +
    'deployed to that server. Whenever this resource goes to an IN_PROGRESS state, it creates an ' +
    'ephemeral config that includes the inputs values plus a number of extra inputs which have ' +
    'names prefixed with deploy_; unless signal_transport=NO_SIGNAL, it stays IN_PROGRESS until ' +
    'the server signals it with the output values for that deployment.',
  structured: false,
});
