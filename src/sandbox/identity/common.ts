import type { FastifyRequest } from 'fastify';
import type { Caller, SandboxContext } from '../app.js';
import { ApiError } from '../errors.js';

/** What Keystone's routes share: reading bodies, the caller, and Keystone's refusals. */

export type Body = Record<string, unknown>;
export const object = (value: unknown): Body | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : undefined;

export const unauthorized = () => new ApiError(401, 'The request you have made requires authentication.');
export const forbidden = (action: string) =>
  new ApiError(403, `You are not authorized to perform the requested action: ${action}.`);

/** The caller of a route that needs a token (kept on the request, for the calls log). */
export function requireCaller(ctx: SandboxContext, request: FastifyRequest): Caller {
  const token = request.headers['x-auth-token'];
  const caller = typeof token === 'string' ? ctx.caller(token) : undefined;
  if (!caller) throw unauthorized();
  request.caller = caller;
  return caller;
}

export const isAdmin = (caller: Caller) => caller.roles.includes('admin');

/** The caller, who must be an admin (Keystone's identity:<action> policy). */
export function requireAdmin(ctx: SandboxContext, request: FastifyRequest, action: string): Caller {
  const caller = requireCaller(ctx, request);
  if (!isAdmin(caller)) throw forbidden(`identity:${action}`);
  return caller;
}
