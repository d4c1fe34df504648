import type { JsonObject } from '../../util/json.js';
import { inputValues, type DeployedConfig } from './hooks.js';
import { keystone, request, type Session, zaqarHeaders } from './http.js';

/**
 * heat-config-notify: sends a config's result back by the deployment's signal transport, read
 * from its derived inputs: `deploy_signal_id` (CFN_SIGNAL: POST, TEMP_URL_SIGNAL: PUT, the verb in
 * `deploy_signal_verb`), `deploy_queue_id` (ZAQAR_SIGNAL: Keystone v3 with the deploy_* user, then
 * a message posted to the queue at the catalog's `messaging` endpoint), `deploy_auth_url`
 * (HEAT_SIGNAL: the same login, then the orchestration API's resource signal), or nothing
 * (NO_SIGNAL). One attempt: the agent retries.
 */

export type SignalTransport = 'CFN_SIGNAL' | 'TEMP_URL_SIGNAL' | 'HEAT_SIGNAL' | 'ZAQAR_SIGNAL' | 'NO_SIGNAL';

export function signalTransport(config: DeployedConfig): SignalTransport {
  const inputs = inputValues(config);
  if (typeof inputs.deploy_signal_id === 'string' && inputs.deploy_signal_id !== '') {
    return String(inputs.deploy_signal_verb ?? 'POST').toUpperCase() === 'PUT'
      ? 'TEMP_URL_SIGNAL'
      : 'CFN_SIGNAL';
  }
  if (inputs.deploy_queue_id !== undefined && inputs.deploy_queue_id !== null) return 'ZAQAR_SIGNAL';
  if (typeof inputs.deploy_auth_url === 'string') return 'HEAT_SIGNAL';
  return 'NO_SIGNAL';
}

export async function notify(config: DeployedConfig, result: JsonObject): Promise<void> {
  const inputs = inputValues(config);
  const body = JSON.stringify(result);
  const transport = signalTransport(config);
  if (transport === 'CFN_SIGNAL' || transport === 'TEMP_URL_SIGNAL') {
    await request(String(inputs.deploy_signal_id), {
      method: transport === 'TEMP_URL_SIGNAL' ? 'PUT' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    return;
  }
  if (transport === 'ZAQAR_SIGNAL' || transport === 'HEAT_SIGNAL') {
    const session = await keystone(
      String(inputs.deploy_auth_url),
      String(inputs.deploy_user_id ?? inputs.deploy_username),
      String(inputs.deploy_password),
      String(inputs.deploy_project_id),
    );
    const region = typeof inputs.deploy_region_name === 'string' ? inputs.deploy_region_name : null;
    if (transport === 'ZAQAR_SIGNAL') await postToQueue(session, region, inputs, result);
    else await signalResource(session, region, inputs, body);
  }
}

/** zaqarclient's queue.post({'body': ..., 'ttl': 600}) as heat-config-notify sends it. */
async function postToQueue(
  session: Session,
  region: string | null,
  inputs: JsonObject,
  result: JsonObject,
): Promise<void> {
  const endpoint = session.endpoint('messaging', region);
  const queue = encodeURIComponent(String(inputs.deploy_queue_id));
  await request(`${endpoint}/v2/queues/${queue}/messages`, {
    method: 'POST',
    headers: zaqarHeaders(session, String(inputs.deploy_project_id)),
    body: JSON.stringify({ messages: [{ body: result, ttl: 600 }] }),
  });
}

async function signalResource(
  session: Session,
  region: string | null,
  inputs: JsonObject,
  body: string,
): Promise<void> {
  const endpoint = session.endpoint('orchestration', region);
  const stack = String(inputs.deploy_stack_id).split('/').map(encodeURIComponent).join('/');
  const resource = encodeURIComponent(String(inputs.deploy_resource_name));
  await request(`${endpoint}/stacks/${stack}/resources/${resource}/signal`, {
    method: 'POST',
    headers: { 'X-Auth-Token': session.token, 'Content-Type': 'application/json' },
    body,
  });
}
