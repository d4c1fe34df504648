import type { StackRecord } from '../../store/contract.js';
import type { Environment } from '../../template/environment/index.js';
import type { Json } from '../../util/json.js';
import { adoptTemplateInput, readAdoptDocument } from '../context/adopt-document.js';
import { checkAdoptedIds } from '../context/adopt-ownership.js';
import type { EngineDeps } from '../core/deps.js';
import { createStack } from './create.js';
import type { CreateRequest } from '../core/requests.js';
import { OperationError } from '../core/errors.js';
import type { TemplateCache } from '../core/templates.js';

/*
 * `stack adopt` (Heat's adopt): a stack is made from an abandon document without creating any
 * physical resource. The stack starts with action ADOPT and an ADOPT traversal of the document's
 * template: each new row carries its resource's entry of the document (rows.ts), and its update
 * node takes the entry's physical id and data instead of calling the type's create; properties
 * are resolved and stored, attributes computed, as a create does. A nested stack's entry is a
 * document of its own: its child stack is made the same way, with its part of the document
 * (nested.ts). A resource the document does not describe fails, as in Heat: nothing is created.
 */

export interface AdoptRequest extends Omit<CreateRequest, 'template'> {
  /** The adopt document, parsed but not checked yet. */
  document: Json;
  /** The request's environment (`-e`, `--parameter`), over the document's own. */
  environment?: Environment;
  /** The request's files (its environments'), over the document's. */
  files?: Record<string, string>;
}

/** Starts adopting a stack; a malformed document or a disabled adopt is an OperationError. */
export async function adoptStack(
  deps: EngineDeps,
  cache: TemplateCache,
  req: AdoptRequest,
): Promise<StackRecord> {
  if (deps.settings.enableStackAdopt !== true) {
    throw new OperationError('Stack Adopt is not supported.', 'invalid');
  }
  const { document, environment, files, ...rest } = req;
  const doc = readAdoptDocument(document);
  const template = adoptTemplateInput(doc, { environment, files }, deps.settings.limits);
  await checkAdoptedIds(deps, req.projectId, doc.resources);
  return createStack(deps, cache, { ...rest, template }, { resources: doc.resources });
}
