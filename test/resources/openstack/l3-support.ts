// The sandbox cloud in-process for the router and floating IP types' tests, with the private
// network they attach to: a network, a subnet and a port on it, made through the Neutron API.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type Cloud, loadCloudSettings, openCloud } from '../../../src/openstack/index.js';
import type { ResourcePlugin } from '../../../src/resources/contract.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../sandbox/support.js';
import { FakeResource } from '../helpers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = any;

export interface L3Cloud {
  app: FastifyInstance;
  cloud: Cloud;
  publicId: string;
  /** A Neutron call; the answer's body (a failure rejects with the OpenStackError). */
  neutron(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Answer>;
  /** A new network with one subnet on `cidr`. */
  privateNet(name: string, cidr: string): Promise<{ network: string; subnet: string }>;
  port(network: string): Promise<{ id: string; ip: string }>;
  /** A plugin driven through a FakeResource on this cloud. */
  resource(plugin: ResourcePlugin, name: string, key: string): FakeResource;
  close(): Promise<void>;
}

export async function startL3Cloud(): Promise<L3Cloud> {
  const { app } = createSandbox();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port: listening } = app.server.address() as AddressInfo;
  const cloud = openCloud(
    loadCloudSettings({ env: sandboxEnv(`http://127.0.0.1:${listening}`), searchPath: [] }),
  );
  const neutron: L3Cloud['neutron'] = async (method, path, body) =>
    (await cloud.request<Answer>('network', method, path, body)).body;
  const publicId = (await neutron('GET', '/networks?name=public')).networks[0].id as string;
  return {
    app,
    cloud,
    publicId,
    neutron,
    async privateNet(name, cidr) {
      const network = (await neutron('POST', '/networks', { network: { name } })).network.id;
      const subnet = (await neutron('POST', '/subnets', { subnet: { network_id: network, cidr, name } }))
        .subnet.id;
      return { network, subnet };
    },
    async port(network) {
      const p = (await neutron('POST', '/ports', { port: { network_id: network } })).port;
      return { id: p.id, ip: p.fixed_ips[0].ip_address };
    },
    resource(plugin, name, key) {
      const r = new FakeResource(plugin, { name, stackName: 'st', key });
      r.cloud = cloud;
      return r;
    },
    async close() {
      await cloud.close();
      await app.close();
    },
  };
}
