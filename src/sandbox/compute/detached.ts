import type { PortBinder, VolumeBinder } from '../bindings.js';
import { ApiError } from '../errors.js';

/**
 * The binders of a sandbox with no Neutron or Cinder wired in: there are no networks to put a
 * port on and no volumes to attach, so servers boot without NICs (`--nic none`, or no network
 * named) and every network or volume they name is not found, as in a cloud that has none.
 * index.ts uses them until the network and volume modules provide the real ones.
 */

export const detachedPorts: PortBinder = {
  bind(_projectId, _serverId, nic) {
    if (nic.portId !== undefined) throw new ApiError(404, `Port id ${nic.portId} could not be found.`);
    throw new ApiError(400, `Network ${nic.networkId ?? ''} could not be found.`);
  },
  unbindAll() {},
  addresses: () => ({}),
  defaultNetwork: () => undefined,
};

export const detachedVolumes: VolumeBinder = {
  attach(_projectId, volumeId) {
    throw new ApiError(404, `Volume ${volumeId} could not be found.`);
  },
  detach(_projectId, volumeId, serverId) {
    throw new ApiError(404, `Volume ${volumeId} is not attached to instance ${serverId}.`);
  },
  attachmentsOf: () => [],
  detachAll() {},
};
