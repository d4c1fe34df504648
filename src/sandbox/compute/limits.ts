import type { FastifyInstance } from 'fastify';
import type { Compute } from './common.js';
import { AVAILABILITY_ZONE } from './server-create.js';
import { servers } from './server-state.js';

/** /limits (the project's quotas and usage, as the noise knobs set them) and the one availability zone. */

export function registerLimits(app: FastifyInstance, compute: Compute): void {
  app.get('/limits', async (request) => {
    const { quotas } = compute.ctx.noise();
    const live = servers(compute, request.caller.projectId);
    const keypairs = compute.ctx.state
      .list<{ id: string; userId: string }>('keypair')
      .filter((k) => k.userId === request.caller.userId).length;
    return {
      limits: {
        rate: [],
        absolute: {
          maxTotalInstances: quotas.instances,
          maxTotalCores: quotas.cores,
          maxTotalRAMSize: quotas.ram,
          maxTotalKeypairs: quotas.key_pairs,
          maxServerMeta: 128,
          maxImageMeta: 128,
          maxPersonality: 5,
          maxPersonalitySize: 10240,
          maxServerGroups: 10,
          maxServerGroupMembers: 10,
          maxSecurityGroups: quotas.security_group,
          maxSecurityGroupRules: -1,
          maxTotalFloatingIps: quotas.floatingip,
          totalInstancesUsed: live.length,
          totalCoresUsed: live.reduce((n, s) => n + s.flavor.vcpus, 0),
          totalRAMUsed: live.reduce((n, s) => n + s.flavor.ram, 0),
          totalServerGroupsUsed: 0,
          totalSecurityGroupsUsed: 0,
          totalFloatingIpsUsed: 0,
          totalKeyPairsUsed: keypairs,
        },
      },
    };
  });
  app.get('/os-availability-zone', async () => ({
    availabilityZoneInfo: [{ zoneName: AVAILABILITY_ZONE, zoneState: { available: true }, hosts: null }],
  }));
}
