import { type Environment, mergeEnvironments, parseEnvironment } from '../../template/environment/index.js';
import { isTemplateError } from '../../template/errors.js';
import type { TemplateLimits } from '../../template/limits.js';
import { parseSource } from '../../template/source.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import { OperationError } from '../core/errors.js';
import type { TemplateInput } from '../core/requests.js';

/*
 * The adopt document (`stack adopt`): what Heat's `stack abandon` prints, and Hearth's too
 * (abandon.ts). Its template, environment and files make the new stack; its `resources` give
 * each resource's physical id and data, a nested stack's entry being a document of its own.
 * Everything is checked before anything is written, so a malformed document is a clear error.
 */

/** A checked adopt document. */
export interface AdoptDocument {
  /** The template's text (the document holds it parsed; a string is taken as written). */
  template: string;
  environment: JsonObject;
  files: Record<string, string>;
  /** Each resource's entry, by name. */
  resources: Record<string, JsonObject>;
}

/** Heat's wording for a document it cannot use. */
export function invalidAdoptData(why: string): OperationError {
  return new OperationError(`Invalid adopt data: ${why}`, 'invalid');
}

/** The document from its text (JSON, or YAML as Heat's simple_parse also takes). */
export function parseAdoptData(text: string, limits: TemplateLimits): Json {
  try {
    return parseSource('adopt data', text, limits).data as Json;
  } catch (err) {
    if (isTemplateError(err)) throw invalidAdoptData(err.message);
    throw err;
  }
}

/** Checks a parsed document; throws an OperationError naming the first thing wrong. */
export function readAdoptDocument(value: unknown): AdoptDocument {
  if (!isPlainObject(value)) {
    throw invalidAdoptData('the document must be an object (what `stack abandon` prints)');
  }
  const template = value.template;
  if (template === undefined || template === null) throw invalidAdoptData('the document has no "template"');
  if (typeof template !== 'string' && !isPlainObject(template)) {
    throw invalidAdoptData('"template" must be an object');
  }
  const environment = value.environment ?? {};
  if (!isPlainObject(environment)) throw invalidAdoptData('"environment" must be an object');
  const files = value.files ?? {};
  if (!isPlainObject(files)) throw invalidAdoptData('"files" must be an object');
  for (const [name, text] of Object.entries(files)) {
    if (typeof text !== 'string') throw invalidAdoptData(`"files.${name}" must be a string`);
  }
  return {
    template: typeof template === 'string' ? template : JSON.stringify(template),
    environment: environment as JsonObject,
    files: files as Record<string, string>,
    resources: readResources(value.resources, 'resources'),
  };
}

/** A document's `resources` (absent: none), every entry checked, nested documents' too. */
function readResources(value: unknown, path: string): Record<string, JsonObject> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw invalidAdoptData(`"${path}" must be an object`);
  for (const [name, entry] of Object.entries(value)) {
    const at = `${path}.${name}`;
    if (!isPlainObject(entry)) throw invalidAdoptData(`"${at}" must be an object`);
    const id = entry.resource_id;
    if (id !== undefined && id !== null && typeof id !== 'string') {
      throw invalidAdoptData(`"${at}.resource_id" must be a string`);
    }
    const data = entry.resource_data;
    if (data !== undefined && data !== null && !isPlainObject(data)) {
      throw invalidAdoptData(`"${at}.resource_data" must be an object`);
    }
    // A nested stack's entry is a document of its own.
    if (entry.resources !== undefined) readResources(entry.resources, `${at}.resources`);
  }
  return value as Record<string, JsonObject>;
}

/** A nested stack's entry: its own resources, when it is one. */
export function nestedResources(entry: JsonObject | undefined): Record<string, JsonObject> | undefined {
  const resources = entry?.resources;
  return isPlainObject(resources) ? (resources as Record<string, JsonObject>) : undefined;
}

/**
 * The template input of the adopted stack: the document's template and files; its environment
 * under the request's (`-e`, `--parameter`), so the stack keeps the parameters it was made with
 * unless told otherwise (Heat takes only the parameters from the document).
 */
export function adoptTemplateInput(
  doc: AdoptDocument,
  request: { environment?: Environment | undefined; files?: Record<string, string> | undefined },
  limits: TemplateLimits,
): TemplateInput {
  let own: Environment;
  try {
    own = parseEnvironment('adopt data environment', JSON.stringify(doc.environment), limits);
  } catch (err) {
    if (isTemplateError(err)) throw invalidAdoptData(`environment: ${err.message}`);
    throw err;
  }
  const files = { ...doc.files, ...request.files };
  return {
    url: templateUrlFor(files),
    text: doc.template,
    files,
    environment: request.environment ? mergeEnvironments([own, request.environment]) : own,
  };
}

const ROOT = 'file:///';

/**
 * Where the template is taken to be: the document does not say, and its references to other
 * files may be relative (Hearth's own abandon keeps the template as written). The deepest
 * directory holding every `file:` entry of the files map makes such references meet their files;
 * absolute ones (Heat's) resolve anyway.
 */
export function templateUrlFor(files: Record<string, string>): string {
  const dirs = Object.keys(files)
    .filter((key) => key.startsWith(ROOT))
    .map((key) => key.slice(0, key.lastIndexOf('/') + 1));
  let common = dirs[0] ?? ROOT;
  for (const dir of dirs) {
    while (!dir.startsWith(common)) common = common.slice(0, common.lastIndexOf('/', common.length - 2) + 1);
  }
  return `${common.length < ROOT.length ? ROOT : common}template`;
}
