import { credentialBox } from '../auth/deployment-key.js';
import { KeystoneClient, keystoneSettings } from '../auth/keystone.js';
import { KeystoneTrusts } from '../auth/trusts.js';
import type { Config } from '../config/index.js';
import type { StackOwner } from '../engine/core/deps.js';
import { type Cloud, loadCloudSettings, openCloud, type RateLimits } from '../openstack/index.js';
import { ResourceFailure } from '../resources/contract.js';
import type { Store } from '../store/contract.js';

/**
 * Which cloud login each stack owner's calls use, for every engine process alike (the store says
 * what each stack recorded):
 * - `trust`: a token Hearth's Keystone user gets for the stack's trust (keystone mode);
 * - `project`: the cloud of clouds.yaml the operator gave the project (`hearth manage project
 *   set-cloud`), else the deployment's only if `openstack_cloud_shared` is set;
 * - `deployment`: the configured cloud (openstack_cloud, else OS_CLOUD or OS_*): the embedded CLI
 *   and noauth, one user's own credentials.
 */

export interface OwnerClouds {
  openstack(owner: StackOwner): Cloud | Promise<Cloud>;
  releaseCredentials(owner: StackOwner): Promise<void>;
}

export function ownerClouds(
  config: Config,
  store: Store,
  deploymentKey: Buffer,
  limits: RateLimits,
  env: NodeJS.ProcessEnv = process.env,
): OwnerClouds {
  const box = credentialBox(deploymentKey);
  let deployment: Cloud | undefined;
  const deploymentCloud = () =>
    (deployment ??= openCloud(
      loadCloudSettings(config.openstack_cloud ? { cloud: config.openstack_cloud, env } : { env }),
      { rateLimits: limits },
    ));

  const named = new Map<string, Cloud>();
  // A project's cloud is its clouds.yaml entry alone: OS_* variables of this process (the
  // operator's own login) must not override another project's credentials.
  const namedCloud = (name: string) => {
    let cloud = named.get(name);
    if (!cloud) {
      const only = { OS_CLIENT_CONFIG_FILE: env.OS_CLIENT_CONFIG_FILE };
      cloud = openCloud(loadCloudSettings({ cloud: name, env: only }), { rateLimits: limits });
      named.set(name, cloud);
    }
    return cloud;
  };
  // Asked each time (one read by primary key): `set-cloud` and `--clear` take effect at once.
  const projectCloud = async (projectId: string): Promise<Cloud> => {
    const cloud = await store.tx((tx) => tx.auth.projectCloud(projectId));
    if (typeof cloud === 'string') return namedCloud(cloud);
    if (config.openstack_cloud_shared) return deploymentCloud();
    throw new ResourceFailure(
      `project ${projectId} has no OpenStack cloud: an operator gives it one with ` +
        `"hearth manage project set-cloud ${projectId} --os-cloud NAME" (a cloud of clouds.yaml with the project's own credentials), ` +
        'or shares the deployment’s login with every project (openstack_cloud_shared)',
    );
  };

  let trusts: KeystoneTrusts | undefined;
  const trustsOf = () => {
    if (config.keystone_service_password === '') {
      throw new ResourceFailure(
        'the stack acts through a Keystone trust: this engine needs keystone_url, keystone_service_user and keystone_service_password',
      );
    }
    if (trusts) return trusts;
    const keystone = keystoneSettings(config);
    // This side only opens and deletes trusts: the roles matter when the API makes one.
    trusts = new KeystoneTrusts({ keystone, delegatedRoles: [] }, new KeystoneClient(keystone), {
      rateLimits: limits,
    });
    return trusts;
  };
  const trustId = (owner: StackOwner, sealed: string) => {
    try {
      return box.open(sealed, owner.projectId);
    } catch (error) {
      throw new ResourceFailure(`the stack's Keystone trust cannot be read: ${(error as Error).message}`);
    }
  };

  return {
    openstack(owner) {
      const { credentials } = owner;
      switch (credentials.kind) {
        case 'deployment':
          return deploymentCloud();
        case 'project':
          return projectCloud(owner.projectId);
        case 'trust':
          return trustsOf().cloud(trustId(owner, credentials.sealedTrustId));
      }
    },
    async releaseCredentials(owner) {
      const { credentials } = owner;
      if (credentials.kind !== 'trust') return;
      await trustsOf().delete(trustId(owner, credentials.sealedTrustId));
    },
  };
}
