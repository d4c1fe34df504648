/**
 * What the sandbox's APIs ask of each other, as the real services call each other's APIs: Nova
 * asks Neutron for a server's ports and addresses, and Cinder to attach volumes. The network and
 * volume modules implement these; the compute module is given them (index.ts wires them), so
 * each module can be tested with a fake of the others.
 */

/** One NIC of a server create request (Nova's `networks` items). */
export interface NicRequest {
  /** An existing port to bind to the server. */
  portId?: string;
  /** A network to make a new port on. */
  networkId?: string;
  /** The fixed IP the new port should get on that network. */
  fixedIp?: string;
  /** The security groups (ids) of the new port; absent: the project's default group. */
  securityGroups?: string[];
}

/** An address as Nova shows it in a server's `addresses`, by network name. */
export interface ServerAddress {
  addr: string;
  version: 4 | 6;
  'OS-EXT-IPS:type': 'fixed' | 'floating';
  'OS-EXT-IPS-MAC:mac_addr': string;
}

export interface PortBinder {
  /**
   * Binds a NIC to the server: the given port (which must be unbound and the project's), or a new
   * port on the given network (Nova's own, deleted with the server). Throws an ApiError (400, 404
   * or 409, Nova's answers) when it cannot.
   */
  bind(projectId: string, serverId: string, nic: NicRequest): { portId: string };
  /** Unbinds one port of the server (deleted if `bind` created it); 404 when it is not the server's. */
  unbind(serverId: string, portId: string): void;
  /** Unbinds every port of the server; deletes the ones `bind` created. */
  unbindAll(serverId: string): void;
  /** The server's addresses by network name, fixed and floating, in the order its ports were bound. */
  addresses(serverId: string): Record<string, ServerAddress[]>;
  /**
   * Whether Nova can make a server's port on the network: Neutron applies security groups only to
   * a port with an address, so a network with port security needs a subnet (Nova's
   * SecurityGroupCannotBeApplied). An unknown network is `bind`'s to refuse.
   */
  securable(networkId: string): boolean;
  /** The network a server gets when the request names none: the project's only network, if it has one. */
  defaultNetwork(projectId: string): string | undefined;
  /**
   * The ids of the project's security groups a server create names (by name, or id), as Nova
   * resolves them through Neutron: 400 for one not found, 409 for a name several groups have.
   */
  securityGroupIds(projectId: string, refs: readonly string[]): string[];
  /** The names of the security groups of the server's ports (an unnamed one by id), each once. */
  securityGroupNames(serverId: string): string[];
}

/** A volume attached to a server, as Nova's os-volume_attachments shows it. */
export interface VolumeAttachment {
  id: string;
  volumeId: string;
  serverId: string;
  device: string;
}

export interface VolumeBinder {
  /**
   * Attaches the project's volume to the server (the volume must be `available`); `device` is
   * chosen (`/dev/vdb`, `/dev/vdc`...) when not given. Throws an ApiError (400 or 404) otherwise.
   */
  attach(projectId: string, volumeId: string, serverId: string, device?: string): VolumeAttachment;
  /** Detaches the volume from the server (it becomes `available`); 404 when it is not attached there. */
  detach(projectId: string, volumeId: string, serverId: string): void;
  /** The volumes attached to the server. */
  attachmentsOf(serverId: string): VolumeAttachment[];
  /** Detaches every volume of a server being deleted. */
  detachAll(serverId: string): void;
}

/** The guest agents (agent/): Nova tells them of each new server, whose user_data may start one. */
export interface AgentBinder {
  serverCreated(server: { id: string; userData: string | null }): void;
}
