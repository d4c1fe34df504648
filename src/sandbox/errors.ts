import type { FastifyReply } from 'fastify';

/**
 * Errors in each API's own wire format: clients (openstacksdk, the openstack CLI, Hearth's
 * plugins) read the message from where their service puts it.
 */

/** Thrown by a route handler; the app answers it in the format of the service the route is in. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Neutron's error type, e.g. NetworkNotFound. */
    readonly type?: string,
    /** Headers to send with the error (Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export type ServiceName =
  'identity' | 'compute' | 'network' | 'volume' | 'image' | 'object-store' | 'alarming' | 'admin';

/** Nova's and Cinder's fault names by status. */
const FAULTS: Record<number, string> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'itemNotFound',
  409: 'conflictingRequest',
  413: 'overLimit',
  429: 'overLimit',
  500: 'computeFault',
  503: 'serviceUnavailable',
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function errorBody(service: ServiceName, error: ApiError): unknown {
  switch (service) {
    case 'identity':
      return {
        error: { code: error.status, title: TITLES[error.status] ?? 'Error', message: error.message },
      };
    case 'network':
      return {
        NeutronError: {
          type: error.type ?? TITLES[error.status] ?? 'Error',
          message: error.message,
          detail: '',
        },
      };
    case 'image':
      // Glance answers with a short text document; clients show its body.
      return `${error.status} ${TITLES[error.status] ?? 'Error'}\n\n${error.message}\n`;
    case 'object-store':
      // Swift's errors are a line of HTML.
      return `<html><h1>${TITLES[error.status] ?? 'Error'}</h1><p>${error.message}</p></html>`;
    case 'alarming':
      // Aodh (WSME): the message under error_message.faultstring.
      return {
        error_message: {
          faultcode: error.status < 500 ? 'Client' : 'Server',
          faultstring: error.message,
          debuginfo: null,
        },
      };
    default: {
      const fault = FAULTS[error.status] ?? 'computeFault';
      return { [fault]: { code: error.status, message: error.message } };
    }
  }
}

export function sendError(reply: FastifyReply, service: ServiceName, error: ApiError): FastifyReply {
  const body = errorBody(service, error);
  reply.code(error.status).headers(error.headers);
  if (typeof body === 'string') {
    reply.type(service === 'object-store' ? 'text/html; charset=UTF-8' : 'text/plain; charset=utf-8');
  }
  return reply.send(body);
}

export const notFound = (what: string, id: string, type?: string) =>
  new ApiError(404, `${what} ${id} could not be found.`, type);
export const badRequest = (message: string, type = 'BadRequest') => new ApiError(400, message, type);
export const conflict = (message: string, type = 'Conflict') => new ApiError(409, message, type);
