import { createHash, generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.js';
import { ApiError, badRequest, conflict } from '../errors.js';
import type { SandboxObject } from '../state.js';
import { atLeast } from './microversion.js';
import { bodyObject, invalidInput, isAdmin, isoTime, member, nextLinks, page } from './common.js';

/**
 * Nova key pairs: a user's own (not the project's), imported from a public key or generated here,
 * in which case the private key is in the create answer and never again.
 */

interface Keypair extends SandboxObject {
  name: string;
  userId: string;
  public_key: string;
  fingerprint: string;
  type: 'ssh' | 'x509';
  created_at: string;
  /** Nova shows an integer id in a key pair's own view. */
  serial: number;
}

const stateId = (userId: string, name: string) => `${userId}/${name}`;

/** An SSH string field: 32-bit length, then the bytes. */
function sshString(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH mpint: big-endian, with a leading zero byte when the top bit is set. */
const mpint = (base64url: string) => {
  const bytes = Buffer.from(base64url, 'base64url');
  return sshString((bytes[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.of(0), bytes]) : bytes);
};

/** A new RSA key pair, as Nova generates one: OpenSSH public key, PEM private key. */
function generate(name: string): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([sshString(Buffer.from('ssh-rsa')), mpint(jwk.e!), mpint(jwk.n!)]);
  return {
    publicKey: `ssh-rsa ${blob.toString('base64')} Generated-by-Nova ${name}`.trim(),
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
  };
}

/** The fingerprint Nova shows: MD5 of the key blob (SSH) or SHA-1 of the certificate (x509), hex pairs. */
function fingerprint(publicKey: string, type: 'ssh' | 'x509'): string {
  let blob: Buffer;
  if (type === 'x509') {
    const body = publicKey.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    blob = Buffer.from(body, 'base64');
    if (blob.length === 0) throw badRequest('Keypair data is invalid: failed to generate fingerprint');
    return createHash('sha1').update(blob).digest('hex').match(/../g)!.join(':');
  }
  const [kind, data] = publicKey.trim().split(/\s+/);
  blob = Buffer.from(data ?? '', 'base64');
  // The blob starts with its own key type: a cheap check that this is an OpenSSH public key.
  const named = blob.length > 4 ? blob.subarray(4, 4 + blob.readUInt32BE(0)).toString() : '';
  if (!kind || named !== kind) throw badRequest('Keypair data is invalid: failed to generate fingerprint');
  return createHash('md5').update(blob).digest('hex').match(/../g)!.join(':');
}

function view(request: FastifyRequest, keypair: Keypair, full: boolean): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    name: keypair.name,
    public_key: keypair.public_key,
    fingerprint: keypair.fingerprint,
  };
  if (full) shown.user_id = keypair.userId;
  if (atLeast(request, 2)) shown.type = keypair.type;
  return shown;
}

/** Whose key pairs a request means: the caller's, or (admins, 2.10+) `user_id`'s. */
function userOf(request: FastifyRequest, given: unknown): string {
  if (given === undefined || given === null || !atLeast(request, 10)) return request.caller.userId;
  if (String(given) !== request.caller.userId && !isAdmin(request.caller)) {
    throw new ApiError(403, "Policy doesn't allow os_compute_api:os-keypairs:create to be performed.");
  }
  return String(given);
}

/** A key pair of the user, or Nova's 404. */
export function findKeypair(ctx: SandboxContext, userId: string, name: string): Keypair | undefined {
  return ctx.state.get<Keypair>('keypair', stateId(userId, name));
}

function getKeypair(ctx: SandboxContext, userId: string, name: string): Keypair {
  const keypair = findKeypair(ctx, userId, name);
  if (!keypair) throw new ApiError(404, `Keypair ${name} not found for user ${userId}`);
  return keypair;
}

function create(ctx: SandboxContext, request: FastifyRequest) {
  const body = member(bodyObject(request), 'keypair');
  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 255 || !/^[\w .@-]+$/.test(name)) {
    throw name === undefined
      ? invalidInput('keypair', body, "'name' is a required property")
      : badRequest(
          'Keypair data is invalid: Keypair name contains unsafe characters or is not between 1 and 255 characters long',
        );
  }
  const type = body.type === undefined || !atLeast(request, 2) ? 'ssh' : body.type;
  if (type !== 'ssh' && type !== 'x509') throw invalidInput('type', type, "is not one of ['ssh', 'x509']");
  const userId = userOf(request, body.user_id);
  let publicKey = body.public_key;
  let privateKey: string | undefined;
  if (publicKey === undefined || publicKey === null) {
    if (atLeast(request, 92)) throw invalidInput('keypair', body, "'public_key' is a required property");
    ({ publicKey, privateKey } = generate(name));
  }
  if (typeof publicKey !== 'string') throw invalidInput('public_key', publicKey, "is not of type 'string'");
  const keypair: Keypair = {
    id: stateId(userId, name),
    name,
    userId,
    public_key: publicKey,
    fingerprint: fingerprint(publicKey, type),
    type,
    created_at: isoTime(ctx.now()),
    serial: 0,
  };
  ctx.state.transaction(() => {
    if (findKeypair(ctx, userId, name)) throw conflict(`Key pair '${name}' already exists.`);
    const quota = ctx.noise().quotas.key_pairs;
    const mine = ctx.state.list<Keypair>('keypair').filter((k) => k.userId === userId);
    if (quota >= 0 && mine.length >= quota) throw new ApiError(403, 'Quota exceeded, too many key pairs.');
    keypair.serial = ctx.state.count('keypair') + 1;
    ctx.state.put('keypair', request.caller.projectId, keypair);
  });
  return { keypair: { ...view(request, keypair, true), ...(privateKey ? { private_key: privateKey } : {}) } };
}

export function registerKeypairs(app: FastifyInstance, ctx: SandboxContext): void {
  type ByName = { Params: { name: string }; Querystring: { user_id?: string } };
  app.get('/os-keypairs', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = userOf(request, query.user_id);
    const mine = ctx.state.list<Keypair>('keypair').filter((k) => k.userId === userId);
    const paged = atLeast(request, 35) ? page(mine, query, (k) => k.name) : { items: mine, limit: undefined };
    const next = nextLinks(ctx, request, 'os-keypairs', paged.items, paged.limit, (k) => (k as Keypair).name);
    return {
      keypairs: paged.items.map((k) => ({ keypair: view(request, k, false) })),
      ...(next ? { keypairs_links: next } : {}),
    };
  });
  app.post('/os-keypairs', async (request, reply) =>
    reply.code(atLeast(request, 2) ? 201 : 200).send(create(ctx, request)),
  );
  app.get<ByName>('/os-keypairs/:name', async (request) => {
    const keypair = getKeypair(ctx, userOf(request, request.query.user_id), request.params.name);
    return {
      keypair: {
        ...view(request, keypair, true),
        created_at: keypair.created_at,
        updated_at: null,
        deleted: false,
        deleted_at: null,
        id: keypair.serial,
      },
    };
  });
  app.delete<ByName>('/os-keypairs/:name', async (request, reply) => {
    const keypair = getKeypair(ctx, userOf(request, request.query.user_id), request.params.name);
    ctx.state.delete('keypair', keypair.id);
    return reply.code(atLeast(request, 2) ? 204 : 202).send();
  });
}
