import type { AdoptRequest } from '../../engine/operations/adopt.js';
import { parseAdoptData } from '../../engine/context/adopt-document.js';
import { OperationError } from '../../engine/core/errors.js';
import type { Json } from '../../util/json.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { checkNewStack, type CreateBody, observeOf, tagList, timeoutOf } from './stack-body.js';
import { requestEnvironment, requestFiles, type TemplateFields } from './template-input.js';

/**
 * A create body with `adopt_stack_data` (Heat's adopt) as the engine's adopt request. The
 * template comes from the document; `environment`, `environment_files`, `parameters` and `files`
 * are the request's own, over the document's (openstackclient sends the document's files along).
 */
export async function adoptRequest(
  deps: ApiDeps,
  projectId: string,
  body: CreateBody,
): Promise<AdoptRequest> {
  const settings = deps.engine.deps.settings;
  if (settings.enableStackAdopt !== true) throw badRequest('Stack Adopt is not supported.', 'NotSupported');
  const name = await checkNewStack(deps, projectId, body.stack_name);
  const data = body.adopt_stack_data;
  let document: Json;
  try {
    document = typeof data === 'string' ? parseAdoptData(data, settings.limits) : (data as Json);
  } catch (err) {
    if (err instanceof OperationError) throw badRequest(err.message);
    throw err;
  }
  const fields = body as TemplateFields;
  const files = requestFiles(fields);
  return {
    name,
    projectId,
    document,
    environment: requestEnvironment(fields, files, settings.limits),
    files,
    timeoutMins: timeoutOf(body.timeout_mins) ?? timeoutOf(body.timeout, 'timeout') ?? null,
    disableRollback: body.disable_rollback ?? true,
    tags: tagList(body.tags) ?? [],
    observe: observeOf(body) ?? null,
  };
}
