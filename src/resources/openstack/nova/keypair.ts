import { isNotFound, OpenStackError } from '../../../openstack/index.js';
import type { Value } from '../../../template/functions/types.js';
import { attr, C, P } from '../../../template/properties/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { type PluginContext, type RealityState, ResourceFailure } from '../../contract.js';
import { failure } from '../common.js';
import { oncePerContext } from '../polling.js';

/**
 * A Nova key pair, as OS::Nova::KeyPair. Its physical id is its name (unique per user), so a
 * create run again after a crash finds it by name; it is taken as ours only when it holds the
 * public key the template imports. A generated key cannot be told apart from another user's
 * key of the same name (its private key was only in the lost answer): that is a failure.
 */

type Keypair = JsonObject & { name: string; public_key: string; type?: string };

/** 2.10: `type` (2.2) and an admin's `user_id`. */
const MICROVERSION = '2.10';

function userQuery(ctx: PluginContext): { user_id?: string } {
  const user = (ctx.data.user_id ?? ctx.storedProperties?.user ?? null) as string | null;
  return user ? { user_id: user } : {};
}

async function show(ctx: PluginContext, name: string, query = userQuery(ctx)): Promise<Keypair> {
  const r = await ctx
    .openstack()
    .request<{ keypair: Keypair }>('compute', 'GET', `/os-keypairs/${encodeURIComponent(name)}`, undefined, {
      query,
      microversion: MICROVERSION,
    });
  return r.body.keypair;
}

/** A public key's identity: type and key data (an SSH key's comment does not count). */
function keyData(key: string): string {
  return key.includes('-----BEGIN') ? key.replace(/\s+/g, '') : key.trim().split(/\s+/).slice(0, 2).join(' ');
}

export const novaKeyPairPlugin: CatalogPlugin = {
  type: 'OS::Nova::KeyPair',
  description:
    'A resource for creating Nova key pairs. A keypair is a ssh key that can be injected into a server on launch.',
  supportStatus: { version: '2014.1' },
  properties: {
    name: P.string({
      description: 'The name of the key pair.',
      required: true,
      constraints: [C.length({ min: 1, max: 255 })],
    }),
    save_private_key: P.boolean({
      description: 'True if the system should remember a generated private key; False otherwise.',
      default: false,
    }),
    public_key: P.string({
      description:
        'The optional public key. This allows users to supply the public key from a pre-existing key pair. If not supplied, a new key pair will be generated.',
    }),
    type: P.string({
      description: 'Keypair type. Supported since Nova api version 2.2.',
      constraints: [C.allowedValues(['ssh', 'x509'])],
      supportStatus: { version: '8.0.0' },
    }),
    user: P.string({
      description:
        'ID or name of user to whom to add key-pair. The usage of this property is limited to being used by administrators only. Supported since Nova api version 2.10.',
      constraints: [C.custom('keystone.user')],
      supportStatus: { version: '9.0.0' },
    }),
  },
  attributes: {
    public_key: attr('The public key.', 'string'),
    private_key: attr('The private key if it has been saved.', 'string'),
    show: attr('Detailed information about resource.', 'map'),
  },

  async create(ctx, properties) {
    const name = properties.name as string;
    const publicKey = (properties.public_key as string | null) || null;
    const user = (properties.user as string | null) ?? null;
    const keypair: JsonObject = { name };
    if (publicKey) keypair.public_key = publicKey;
    if (properties.type) keypair.type = properties.type as string;
    if (user) keypair.user_id = user;
    const data: JsonObject = user ? { user_id: user } : {};
    try {
      const made = await ctx
        .openstack()
        .request<{ keypair: Keypair & { private_key?: string } }>(
          'compute',
          'POST',
          '/os-keypairs',
          { keypair },
          { microversion: MICROVERSION },
        );
      const privateKey = made.body.keypair.private_key;
      if (properties.save_private_key && privateKey) data.private_key = privateKey;
      return { physicalId: name, data };
    } catch (error) {
      if (!(error instanceof OpenStackError && error.status === 409)) {
        throw failure(`creating the key pair ${name}`, error);
      }
    }
    // The name is taken: ours (made by a run that crashed) only if it holds the same public key.
    const existing = await show(ctx, name, user ? { user_id: user } : {}).catch((error: unknown) => {
      throw failure(`creating the key pair ${name}`, error);
    });
    if (publicKey && keyData(existing.public_key) === keyData(publicKey)) return { physicalId: name, data };
    throw new ResourceFailure(
      `Key pair '${name}' already exists${user ? ` for user ${user}` : ''}` +
        (publicKey ? ' with another public key' : ' (a generated key cannot be adopted)'),
    );
  },

  async delete(ctx) {
    if (!ctx.physicalId) return {};
    try {
      await ctx
        .openstack()
        .request('compute', 'DELETE', `/os-keypairs/${encodeURIComponent(ctx.physicalId)}`, undefined, {
          query: userQuery(ctx),
          microversion: MICROVERSION,
        });
    } catch (error) {
      if (!isNotFound(error)) throw failure(`deleting the key pair ${ctx.physicalId}`, error);
    }
    return {};
  },

  async check(ctx) {
    await show(ctx, ctx.physicalId!).catch((error: unknown) => {
      throw failure(`checking the key pair ${ctx.physicalId}`, error);
    });
  },

  async getReality(ctx): Promise<RealityState> {
    if (!ctx.physicalId) return { state: 'gone' };
    try {
      const k = await show(ctx, ctx.physicalId);
      const stored = ctx.storedProperties ?? {};
      const properties: Record<string, Value> = { name: k.name };
      // Only what the template chose: a generated key or Nova's default type is no drift.
      if (stored.public_key) properties.public_key = k.public_key;
      if (stored.type) properties.type = k.type ?? null;
      return { state: 'present', properties };
    } catch (error) {
      if (isNotFound(error)) return { state: 'gone' };
      throw error;
    }
  },

  async attribute(ctx, name, properties) {
    if (name === 'private_key') {
      return properties.save_private_key ? ((ctx.data.private_key as string | undefined) ?? '') : '';
    }
    if (name === 'public_key' && properties.public_key) return properties.public_key;
    if (!ctx.physicalId) return null;
    const k = await oncePerContext(ctx, 'keypair', () => show(ctx, ctx.physicalId!));
    if (name === 'show') return k as Value;
    return (k[name] ?? null) as Value;
  },
};
