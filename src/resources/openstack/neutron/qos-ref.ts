import type { Value } from '../../../template/functions/types.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';
import { QOS_POLICY_REFS } from './live-refs.js';

/**
 * The `qos_policy` property of OS::Neutron::Net and OS::Neutron::Port, as Heat sends it: the
 * policy found by name or id as `qos_policy_id`; on an update a policy removed (null) is
 * `qos_policy_id: null`, which detaches it.
 */
export async function qosPolicyField(
  ctx: PluginContext,
  properties: Record<string, Value>,
  update: boolean,
): Promise<JsonObject> {
  const ref = properties.qos_policy as string | null | undefined;
  if (!ref) return update ? { qos_policy_id: null } : {};
  const found = await ctx
    .openstack()
    .findByNameOrId('network', QOS_POLICY_REFS.path, QOS_POLICY_REFS.list, ref);
  return { qos_policy_id: found.id };
}
