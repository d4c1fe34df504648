import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * Nova's microversions: a client asks for one with `OpenStack-API-Version: compute 2.N` (or the
 * older `X-OpenStack-Nova-API-Version: 2.N`); no header means 2.1. Every answer says which
 * version it was served at, and some fields appear or change shape from a version on.
 */

export const MIN_VERSION = '2.1';
export const MAX_VERSION = '2.96';
const MAX_MINOR = Number(MAX_VERSION.split('.')[1]);

const served = new WeakMap<FastifyRequest, number>();

/** The minor number of the microversion the request is served at (2.47 -> 47). */
export function minor(request: FastifyRequest): number {
  return served.get(request) ?? 1;
}

/** Whether the request is served at `2.<atLeast>` or later. */
export function atLeast(request: FastifyRequest, atLeastMinor: number): boolean {
  return minor(request) >= atLeastMinor;
}

function requested(request: FastifyRequest): string | undefined {
  const modern = request.headers['openstack-api-version'];
  if (typeof modern === 'string') {
    // The header may name several services: "compute 2.60, volume 3.1".
    for (const part of modern.split(',')) {
      const [service, version] = part.trim().split(/\s+/);
      if (service?.toLowerCase() === 'compute' && version) return version;
    }
  }
  const legacy = request.headers['x-openstack-nova-api-version'];
  return typeof legacy === 'string' ? legacy.trim() : undefined;
}

function parse(version: string): number {
  if (version.toLowerCase() === 'latest') return MAX_MINOR;
  const match = /^(\d+)\.(\d+)$/.exec(version);
  if (!match)
    throw new ApiError(
      400,
      `API Version String ${version} is of invalid format. Must be of format MajorNum.MinorNum.`,
    );
  const [major, minorNumber] = [Number(match[1]), Number(match[2])];
  if (major !== 2 || minorNumber < 1 || minorNumber > MAX_MINOR) {
    throw new ApiError(
      406,
      `Version ${version} is not supported by the API. Minimum is ${MIN_VERSION} and maximum is ${MAX_VERSION}.`,
    );
  }
  return minorNumber;
}

/** Reads each request's microversion and stamps every answer with it. */
export function negotiateMicroversions(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const wanted = requested(request);
    served.set(request, 1);
    if (wanted !== undefined) served.set(request, parse(wanted));
  });
  app.addHook('onSend', async (request, reply) => {
    const version = `2.${minor(request)}`;
    reply.header('OpenStack-API-Version', `compute ${version}`);
    reply.header('X-OpenStack-Nova-API-Version', version);
    reply.header('Vary', 'OpenStack-API-Version, X-OpenStack-Nova-API-Version');
  });
}
