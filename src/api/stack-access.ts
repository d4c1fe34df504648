import type { FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.js';
import type { StackRecord } from '../store/contract.js';
import { stackNotFound } from './errors.js';

/**
 * A stack of the request's project by name or id, as Heat finds one for `/stacks/{name}`. Another
 * project's stack, a deleted one and one that does not exist all answer the same 404.
 */
export async function stackByNameOrId(
  engine: Engine,
  request: FastifyRequest,
  nameOrId: string,
): Promise<StackRecord> {
  const project = request.identity.projectId;
  const found = await engine.deps.store.read(async (tx) => {
    const byName = await tx.stacks.findByName(project, nameOrId);
    if (byName) return byName;
    return tx.stacks.get(nameOrId);
  });
  if (!found || found.projectId !== project || found.deletedAt) throw stackNotFound(nameOrId);
  return found;
}

/** The stack `/stacks/{name}/{id}` names: the id must be the request project's, and carry that name. */
export async function stackByIdentity(
  engine: Engine,
  request: FastifyRequest,
  name: string,
  id: string,
): Promise<StackRecord> {
  const found = await engine.deps.store.read((tx) => tx.stacks.get(id));
  if (
    !found ||
    found.projectId !== request.identity.projectId ||
    found.deletedAt ||
    (found.name !== name && found.id !== name)
  ) {
    throw stackNotFound(`${name}/${id}`);
  }
  return found;
}
