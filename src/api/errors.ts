import { AuthenticationError, AuthenticationUnavailableError } from '../auth/identity.js';
import { IdentityError } from '../auth/standalone.js';
import { TrustError } from '../auth/trusts.js';
import { OperationError } from '../engine/core/errors.js';
import { ConflictError } from '../engine/core/errors.js';
import { SoftwareInputError } from '../software/io.js';
import { TemplateError } from '../template/errors.js';

/**
 * Heat's error body (webob's titles and explanations, heat's fault types): what python-heatclient
 * parses to print a failure. Messages are Hearth's own and never carry a traceback.
 */
export interface HeatErrorBody {
  code: number;
  title: string;
  explanation: string;
  error: { message: string; type: string; traceback: null };
}

const STATUS_TEXT: Record<number, [title: string, explanation: string]> = {
  400: [
    'Bad Request',
    'The server could not comply with the request since it is either malformed or otherwise incorrect.',
  ],
  401: [
    'Unauthorized',
    'This server could not verify that you are authorized to access the document you requested.',
  ],
  403: ['Forbidden', 'Access was denied to this resource.'],
  404: ['Not Found', 'The resource could not be found.'],
  405: ['Method Not Allowed', 'The method specified is not allowed for this resource.'],
  409: ['Conflict', 'There was a conflict when trying to complete your request.'],
  413: ['Request Entity Too Large', 'The body of your request was too large for this server.'],
  415: ['Unsupported Media Type', 'The request media type is not supported by this server.'],
  429: ['Too Many Requests', 'The client has sent too many requests in a given amount of time.'],
  500: [
    'Internal Server Error',
    'The server has either erred or is incapable of performing the requested operation.',
  ],
  501: [
    'Not Implemented',
    'The server has either erred or is incapable of performing the requested operation.',
  ],
  503: ['Service Unavailable', 'The server is currently unavailable. Please try again at a later time.'],
};

/** An error the API answers with a given status and Heat fault type. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, type = 'HTTPBadRequest') => new HttpError(400, type, message);
export const notFound = (message: string, type = 'EntityNotFound') => new HttpError(404, type, message);

export function stackNotFound(nameOrId: string): HttpError {
  return notFound(`The Stack (${nameOrId}) could not be found.`);
}

export function heatErrorBody(status: number, type: string, message: string): HeatErrorBody {
  const [title, explanation] = STATUS_TEXT[status] ?? STATUS_TEXT[status >= 500 ? 500 : 400]!;
  return { code: status, title, explanation, error: { message, type, traceback: null } };
}

/** Heat's fault type for a template error of each kind (what heatclient shows before the message). */
function templateErrorType(error: TemplateError): string {
  if (error.kind === 'version') return 'InvalidTemplateVersion';
  if (error.kind === 'limit') return 'RequestLimitExceeded';
  return 'StackValidationFailed';
}

const OPERATION_ERRORS = {
  not_found: [404, 'EntityNotFound'],
  conflict: [409, 'ActionInProgress'],
  invalid: [400, 'StackValidationFailed'],
} as const;

/**
 * Maps any error to the status and type the API answers with. Unknown errors are 500s whose
 * message is generic: internal details stay in the log.
 */
export function classify(err: unknown): { status: number; type: string; message: string; internal: boolean } {
  if (err instanceof HttpError)
    return { status: err.status, type: err.type, message: err.message, internal: false };
  if (err instanceof AuthenticationError) {
    return { status: 401, type: 'HTTPUnauthorized', message: err.message, internal: false };
  }
  if (err instanceof AuthenticationUnavailableError) {
    return { status: 503, type: 'HTTPServiceUnavailable', message: err.message, internal: false };
  }
  if (err instanceof TrustError) {
    const type = err.status === 403 ? 'Forbidden' : 'HTTPBadRequest';
    return { status: err.status, type, message: err.message, internal: false };
  }
  if (err instanceof IdentityError)
    return { status: 400, type: 'HTTPBadRequest', message: err.message, internal: false };
  if (err instanceof TemplateError) {
    return { status: 400, type: templateErrorType(err), message: err.message, internal: false };
  }
  if (err instanceof OperationError) {
    const [status, type] = OPERATION_ERRORS[err.code];
    return { status, type, message: err.message, internal: false };
  }
  if (err instanceof SoftwareInputError)
    return { status: 400, type: err.type, message: err.message, internal: false };
  if (err instanceof ConflictError) {
    return { status: 409, type: 'ActionInProgress', message: err.message, internal: false };
  }
  const fastify = err as { statusCode?: number; code?: string; message?: string; validation?: unknown };
  if (typeof fastify.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const type = fastify.statusCode === 413 ? 'RequestLimitExceeded' : 'HTTPBadRequest';
    return { status: fastify.statusCode, type, message: fastify.message ?? 'bad request', internal: false };
  }
  return {
    status: 500,
    type: 'InternalServerError',
    message: 'The server could not complete the request; the error is in its log.',
    internal: true,
  };
}
