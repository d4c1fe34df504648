import { isNotFound } from '../../../openstack/index.js';
import { type DocPath, TemplateError } from '../../../template/errors.js';
import { UNKNOWN, type Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import type { PluginContext } from '../../contract.js';
import { deleteOrRetry, failure, pollingAction, realityOf } from '../common.js';
import { liveRef, PORT_REFS, ROUTER_REFS, SUBNET_REFS } from './live-refs.js';

/**
 * A router's interface on a subnet or a port, as OS::Neutron::RouterInterface. Its physical id is
 * Heat's: `<router id>:subnet_id=<id>` or `<router id>:port_id=<id>`.
 */

type Key = 'subnet_id' | 'port_id';
interface Interface {
  router: string;
  key: Key;
  value: string;
}
type Port = JsonObject & { id: string; device_id: string; fixed_ips: { subnet_id: string }[] };

/** The newer property, else the hidden older one (`subnet`, else `subnet_id`). */
const either = (properties: Record<string, Value>, name: string, older: string): Value =>
  properties[name] ?? properties[older] ?? null;

function parse(physicalId: string): Interface {
  const tokens = physicalId.replace('=', ':').split(':');
  // Heat's oldest form was `<router>:<subnet>`.
  if (tokens.length === 2) tokens.splice(1, 0, 'subnet_id');
  const [router, key, value] = tokens as [string, Key, string];
  return { router, key, value };
}

/** The router's ports (any device owner: DVR and HA routers name theirs differently). */
async function routerPorts(ctx: PluginContext, routerId: string): Promise<Port[]> {
  const r = await ctx
    .openstack()
    .request<{ ports: Port[] }>('network', 'GET', '/ports', undefined, { query: { device_id: routerId } });
  return r.body.ports;
}

/** The router's port that is this interface, if it has one. */
async function findInterface(ctx: PluginContext, i: Interface): Promise<Port | undefined> {
  const ports = await routerPorts(ctx, i.router);
  return i.key === 'port_id'
    ? ports.find((p) => p.id === i.value)
    : ports.find((p) => p.fixed_ips.some((ip) => ip.subnet_id === i.value));
}

async function remove(ctx: PluginContext, attempt = 1) {
  if (!ctx.physicalId) return { done: true };
  const i = parse(ctx.physicalId);
  return deleteOrRetry(
    () =>
      ctx
        .openstack()
        .request('network', 'PUT', `/routers/${i.router}/remove_router_interface`, { [i.key]: i.value }),
    'the router interface',
    attempt,
  );
}

const hidden = (version: string, message: string) => ({ status: 'HIDDEN' as const, version, message });

export const neutronRouterInterfacePlugin: CatalogPlugin = {
  type: 'OS::Neutron::RouterInterface',
  description:
    'A resource for managing Neutron router interfaces. Router interfaces associate routers with existing subnets or ports.',
  properties: {
    router: P.string({
      description: 'The router.',
      required: true,
      constraints: [C.custom('neutron.router')],
    }),
    router_id: P.string({
      description: 'ID of the router.',
      replaces: 'router',
      supportStatus: hidden('6.0.0', 'Use property router.'),
      constraints: [C.custom('neutron.router')],
    }),
    subnet_id: P.string({
      replaces: 'subnet',
      supportStatus: hidden('5.0.0', 'Use property subnet.'),
      constraints: [C.custom('neutron.subnet')],
    }),
    subnet: P.string({
      description: 'The subnet, either subnet or port should be specified.',
      constraints: [C.custom('neutron.subnet')],
    }),
    port_id: P.string({
      description: 'The port id, either subnet or port_id should be specified.',
      replaces: 'port',
      supportStatus: hidden('6.0.0', 'Use property port.'),
      constraints: [C.custom('neutron.port')],
    }),
    port: P.string({
      description: 'The port, either subnet or port should be specified.',
      supportStatus: { version: '2015.1' },
      constraints: [C.custom('neutron.port')],
    }),
  },
  attributes: {},

  validate(properties: Record<string, Value>, path: DocPath): void {
    const subnetValue = either(properties, 'subnet', 'subnet_id');
    const portValue = either(properties, 'port', 'port_id');
    // A value not known yet (a parameter without one, at template validation) may be null.
    if (subnetValue === UNKNOWN || portValue === UNKNOWN) return;
    const subnet = subnetValue !== null;
    const port = portValue !== null;
    if (subnet && port) {
      throw new TemplateError(
        'property',
        'Cannot define the following properties at the same time: subnet, port.',
        path,
      );
    }
    if (!subnet && !port) {
      throw new TemplateError(
        'property',
        'At least one of the following properties must be specified: subnet, port.',
        path,
      );
    }
  },

  async create(ctx, properties) {
    const cloud = ctx.openstack();
    const find = async (path: string, key: string, ref: Value) =>
      (await cloud.findByNameOrId('network', path, key, ref as string)).id;
    try {
      const router = await find('/routers', 'routers', either(properties, 'router', 'router_id'));
      const subnet = either(properties, 'subnet', 'subnet_id');
      const i: Interface =
        subnet !== null
          ? { router, key: 'subnet_id', value: await find('/subnets', 'subnets', subnet) }
          : {
              router,
              key: 'port_id',
              value: await find('/ports', 'ports', either(properties, 'port', 'port_id')),
            };
      // Adding it twice is refused ("already has a port on subnet"): a create run again after a
      // crash finds the interface its first run added.
      if ((await findInterface(ctx, i)) === undefined) {
        await cloud.request('network', 'PUT', `/routers/${router}/add_router_interface`, {
          [i.key]: i.value,
        });
      }
      return { physicalId: `${i.router}:${i.key}=${i.value}` };
    } catch (error) {
      throw failure('adding the router interface', error);
    }
  },

  // A 404 (the router or the interface gone) is done; a 409 (a floating IP still needs it) is polled.
  async delete(ctx) {
    return pollingAction(await remove(ctx));
  },

  async checkDeleteComplete(ctx, progress) {
    return remove(ctx, (progress as { attempt: number }).attempt);
  },

  async getReality(ctx) {
    return realityOf(async () => {
      if (!ctx.physicalId) return undefined;
      const i = parse(ctx.physicalId);
      // The router itself gone is a 404: gone too.
      await ctx.openstack().request('network', 'GET', `/routers/${i.router}`);
      if ((await findInterface(ctx, i)) === undefined) return undefined;
      const stored = ctx.storedProperties ?? {};
      const [key, refs] =
        i.key === 'subnet_id' ? (['subnet', SUBNET_REFS] as const) : (['port', PORT_REFS] as const);
      return {
        router: await liveRef(ctx, stored.router, i.router, ROUTER_REFS),
        [key]: await liveRef(ctx, stored[key], i.value, refs),
      };
    });
  },

  async attribute(ctx, name) {
    if (name !== 'show' || !ctx.physicalId) return null;
    try {
      return ((await findInterface(ctx, parse(ctx.physicalId))) ?? null) as Value;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  },
};
