import { attr, C, P } from '../../template/properties/index.js';
import { type Json, type JsonObject, pyJsonDumps } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import type { PluginContext } from '../contract.js';
import {
  HEAT_WAIT_CONDITION_HANDLE,
  mergeSignal,
  receivedSignals,
  type SignalKeys,
  signalReason,
  type WaitSignal,
} from '../wait-condition-base.js';
import { uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

const TRANSPORTS = [
  'CFN_SIGNAL',
  'TEMP_URL_SIGNAL',
  'HEAT_SIGNAL',
  'NO_SIGNAL',
  'ZAQAR_SIGNAL',
  'TOKEN_SIGNAL',
] as const;

/** The OS::Heat handle's signal keys (the AWS one's are capitalised). */
const KEYS: SignalKeys = { id: 'id', status: 'status', reason: 'reason', data: 'data' };

/**
 * Heat's handle_signal for OS::Heat::WaitConditionHandle: missing fields take their defaults (the
 * id is the signal's sequence number, the status SUCCESS, the reason "Signal <n> received", the
 * data null) before the signal is merged.
 */
export function receiveSignal(
  signals: readonly WaitSignal[],
  details: JsonObject | null,
): { signals: WaitSignal[]; signal: WaitSignal } {
  const number = signals.length + 1;
  const body: JsonObject = {
    reason: `Signal ${number} received`,
    data: null,
    id: number,
    status: 'SUCCESS',
    ...details,
  };
  return mergeSignal(signals, body, KEYS);
}

/** Transports whose client signals the orchestration API with a token. */
function tokenTransport(transport: unknown): boolean {
  return transport === 'TOKEN_SIGNAL' || transport === undefined;
}

/**
 * What a client needs to signal the handle, by transport: `{}` for NO_SIGNAL (as Heat), the
 * endpoint and token for the API's signal route (TOKEN_SIGNAL, HEAT_SIGNAL), the pre-signed URL
 * for CFN_SIGNAL. Swift and Zaqar transports are not offered (null).
 */
function signalDetails(ctx: PluginContext, transport: unknown): string | null {
  if (transport === 'NO_SIGNAL') return '{}';
  const credentials = ctx.signalCredentials();
  if (transport === 'CFN_SIGNAL')
    return credentials ? pyJsonDumps({ alarm_url: credentials.alarmUrl }) : null;
  if (transport === 'HEAT_SIGNAL' || tokenTransport(transport)) {
    return pyJsonDumps({
      stack_id: ctx.stackId,
      resource_name: ctx.resourceName,
      ...(credentials ? { endpoint: credentials.endpoint, token: credentials.token } : {}),
    });
  }
  return null;
}

/** Heat's curl_cli: the command prefix a server's script completes with `--data-binary '<json>'`. */
function curlCommand(endpoint: string, token: string): string {
  return (
    `curl -i -X POST -H 'X-Auth-Token: ${token}' -H 'Content-Type: application/json' ` +
    `-H 'Accept: application/json' ${endpoint}`
  );
}

/**
 * OS::Heat::WaitConditionHandle: receives the signals an OS::Heat::WaitCondition waits for
 * (`hearth stack resource signal`), keeping them in its data, in arrival order by id. It has no
 * dependencies, so that the servers that signal it can reference it. Its state is its row alone.
 *
 * For TOKEN_SIGNAL (the default), `token`, `endpoint` and `curl_cli` let a server signal it through
 * the API's signal route; the token is a signal token (src/auth/signal-tokens.ts) good for this
 * handle only. `hearth stack resource signal` works for every transport. Swift and Zaqar
 * transports are accepted but not offered (their attributes are null).
 */
export const waitConditionHandlePlugin: CatalogPlugin = {
  type: HEAT_WAIT_CONDITION_HANDLE,
  inRow: true,
  description:
    'Resource for managing instance signals. The main points of this resource are: have no ' +
    'dependencies (so the instance can reference it); create credentials to allow for signalling ' +
    'from the instance; handle signals from the instance, validate and store result.',
  supportStatus: { version: '2014.2' },
  properties: {
    signal_transport: P.string({
      description:
        'How the client will signal the wait condition. Signals go through the orchestration ' +
        'API (`stack resource signal`) whatever the transport; NO_SIGNAL is accepted, as in Heat.',
      default: 'TOKEN_SIGNAL',
      constraints: [C.allowedValues([...TRANSPORTS])],
      supportStatus: { version: '6.0.0' },
    }),
  },
  attributes: {
    token: attr(
      'Token for stack-user which can be used for signalling handle when signal_transport is set ' +
        'to TOKEN_SIGNAL. None for all other signal transports (always None until Hearth has a REST API).',
      'string',
    ),
    endpoint: attr(
      'Endpoint/url which can be used for signalling handle when signal_transport is set to ' +
        'TOKEN_SIGNAL. None for all other signal transports.',
      'string',
    ),
    curl_cli: attr(
      'Convenience attribute, provides curl CLI command prefix, which can be used for signalling ' +
        'handle completion or failure when signal_transport is set to TOKEN_SIGNAL. None for all ' +
        'other signal transports.',
      'string',
    ),
    signal: attr(
      'JSON serialized map that includes the endpoint, token and/or other attributes the client ' +
        'must use for signalling this handle.',
      'string',
    ),
  },

  async create(ctx: PluginContext) {
    // Heat's physical id is the handle's stack user; one derived from the key keeps a retry stable.
    return { physicalId: uuidFrom(ctx.idempotencyKey) };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute(ctx, name, properties) {
    if (name === 'signal') return signalDetails(ctx, properties.signal_transport);
    const credentials = tokenTransport(properties.signal_transport) ? ctx.signalCredentials() : undefined;
    if (!credentials) return null;
    if (name === 'token') return credentials.token;
    if (name === 'endpoint') return credentials.endpoint;
    if (name === 'curl_cli') return curlCommand(credentials.endpoint, credentials.token);
    return null;
  },

  async handleSignal(ctx, details) {
    const { signals, signal } = receiveSignal(receivedSignals(ctx.data), details);
    ctx.setData({ signals: signals as unknown as Json });
    return signalReason(signal);
  },
};
