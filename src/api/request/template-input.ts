import type { TemplateInput } from '../../engine/core/requests.js';
import {
  type Environment,
  mergeEnvironments,
  parseEnvironment,
  resolveTemplateUrl,
} from '../../template/environment/index.js';
import type { TemplateLimits } from '../../template/limits.js';
import { SourceDocument } from '../../template/source.js';
import { isPlainObject, type Json, type JsonObject } from '../../util/json.js';
import { stringifyJsonSteps } from '../../util/json-sliced.js';
import { runSliced } from '../../util/loop-slice.js';
import { badRequest } from '../errors.js';

/**
 * Where a template sent inline lives. heatclient sends absolute `file://` URLs for everything it
 * read; a bare name (`member.yaml`, from a hand-written request) is taken relative to this, both
 * in the template and as a key of `files`, so the two meet.
 */
const INLINE_BASE = 'file:///';

/** The template-bearing fields of a create, update, preview or validate body (Heat's names). */
export interface TemplateFields {
  template?: unknown;
  template_url?: unknown;
  files?: unknown;
  environment?: unknown;
  environment_files?: unknown;
  parameters?: unknown;
}

/** A request's `files`, keyed by absolute URL. */
export function requestFiles(fields: TemplateFields): Record<string, string> {
  return stringMap(fields.files, 'files');
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value as Json)) throw badRequest(`"${field}" must be an object`);
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(value as JsonObject)) {
    if (typeof text !== 'string') throw badRequest(`"${field}.${key}" must be a string`);
    out[resolveTemplateUrl(INLINE_BASE, key)] = text;
  }
  return out;
}

function jsonMap(value: unknown, field: string): Record<string, Json> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value as Json)) throw badRequest(`"${field}" must be an object`);
  return { ...(value as JsonObject) };
}

/**
 * The document text of `template`: heatclient sends the parsed template, others may send text.
 * A parsed one is also handed on (`parsed`), so the engine binds it without parsing the text
 * again, unless the text would not read back equal (a -0 or a number too big for a double).
 */
async function templateText(
  fields: TemplateFields,
  url: string,
): Promise<Pick<TemplateInput, 'text' | 'parsed'>> {
  if (fields.template_url !== undefined && fields.template === undefined) {
    throw badRequest('template_url is not supported: send the template itself in "template"');
  }
  const template = fields.template;
  if (template === undefined || template === null) throw badRequest('No template specified');
  if (typeof template === 'string') return { text: template };
  if (!isPlainObject(template as Json)) throw badRequest('"template" must be an object or a string');
  // In slices: a 200,000-resource template is 7 MB of text, a fifth of a second written at once.
  const written = { lossy: false };
  const text = await runSliced(stringifyJsonSteps(template, written));
  return written.lossy ? { text } : { text, parsed: new SourceDocument(url, text, 'json', template as Json) };
}

/**
 * The environment a request describes, merged as Heat's API does: each of `environment_files`
 * (their texts are in `files`) in order, then `environment`, then `parameters` over all.
 */
export function requestEnvironment(
  fields: TemplateFields,
  files: Record<string, string>,
  limits: TemplateLimits,
): Environment {
  const layers: Environment[] = [];
  const envFiles = fields.environment_files ?? [];
  if (!Array.isArray(envFiles) || envFiles.some((f) => typeof f !== 'string')) {
    throw badRequest('"environment_files" must be a list of file names');
  }
  for (const name of envFiles as string[]) {
    const url = resolveTemplateUrl(INLINE_BASE, name);
    const text = files[url];
    if (text === undefined) throw badRequest(`environment file "${name}" is not in "files"`);
    layers.push(parseEnvironment(url, text, limits));
  }
  const environment = fields.environment;
  if (environment !== undefined && environment !== null) {
    if (typeof environment === 'string') {
      layers.push(parseEnvironment(`${INLINE_BASE}environment`, environment, limits));
    } else if (isPlainObject(environment as Json)) {
      layers.push(parseEnvironment(`${INLINE_BASE}environment`, JSON.stringify(environment), limits));
    } else {
      throw badRequest('"environment" must be an object or a string');
    }
  }
  const merged = mergeEnvironments(layers);
  const parameters = jsonMap(fields.parameters, 'parameters');
  return Object.keys(parameters).length === 0
    ? merged
    : { ...merged, parameters: { ...merged.parameters, ...parameters } };
}

/** A request's template, files and environment, as the engine's operations take them. */
export async function templateInput(fields: TemplateFields, limits: TemplateLimits): Promise<TemplateInput> {
  const url = `${INLINE_BASE}template`;
  const template = await templateText(fields, url);
  const files = stringMap(fields.files, 'files');
  return {
    url,
    ...template,
    files,
    environment: requestEnvironment(fields, files, limits),
  };
}
