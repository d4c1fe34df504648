import { isPlainObject, type Json } from '../util/json.js';
import {
  type Environment,
  isTemplateType,
  mergeEnvironments,
  parseEnvironment,
  registryTemplateUrls,
  resolveTemplateUrl,
} from './environment/index.js';
import { TemplateError } from './errors.js';
import { DEFAULT_LIMITS, type TemplateLimits } from './limits.js';
import { parseSource } from './source.js';

/** Reads a file by its `file://` URL (or another scheme the caller supports). */
export type FileReader = (url: string) => string;

/** Everything a stack operation sends: the template, the merged environment and the files map. */
export interface StackInput {
  url: string;
  text: string;
  environment: Environment;
  files: Record<string, string>;
}

/** `file:///abs/path` for a local path (relative paths are taken from `cwd`). */
export function toFileUrl(path: string, cwd: string = process.cwd()): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path;
  return resolveTemplateUrl(`file://${cwd.endsWith('/') ? cwd : `${cwd}/`}`, path);
}

/**
 * Gathers a template, its environments and every file they refer to (nested templates, get_file
 * contents, registry templates) into a files map keyed by absolute URL, as the Heat client does
 * before it sends a stack to the API.
 */
export function loadStackInput(
  templatePath: string,
  environmentPaths: readonly string[],
  read: FileReader,
  limits: TemplateLimits = DEFAULT_LIMITS,
): StackInput {
  const url = toFileUrl(templatePath);
  const text = readOrFail(read, url, templatePath);
  const { environment, files } = loadEnvironments(environmentPaths, read, limits);
  collectReferencedFiles(url, text, files, read, limits);
  return { url, text, environment, files };
}

/**
 * The environments alone, merged in order, with the files their registries name (what a command
 * that takes no template file, `stack adopt`, sends).
 */
export function loadEnvironments(
  environmentPaths: readonly string[],
  read: FileReader,
  limits: TemplateLimits = DEFAULT_LIMITS,
): Pick<StackInput, 'environment' | 'files'> {
  const files: Record<string, string> = {};
  const environments: Environment[] = [];
  for (const path of environmentPaths) {
    const envUrl = toFileUrl(path);
    const env = parseEnvironment(envUrl, readOrFail(read, envUrl, path), limits);
    environments.push(env);
    for (const target of registryTemplateUrls(env)) collectTemplate(target, files, read, limits);
  }
  return { environment: mergeEnvironments(environments), files };
}

function readOrFail(read: FileReader, url: string, shown: string): string {
  try {
    return read(url);
  } catch (err) {
    throw new TemplateError('reference', `cannot read "${shown}": ${(err as Error).message}`);
  }
}

function collectTemplate(
  url: string,
  files: Record<string, string>,
  read: FileReader,
  limits: TemplateLimits,
): void {
  if (Object.hasOwn(files, url)) return;
  const text = readOrFail(read, url, url);
  files[url] = text;
  collectReferencedFiles(url, text, files, read, limits);
}

/** Walks a template's raw data for template-resource types and get_file paths. */
function collectReferencedFiles(
  url: string,
  text: string,
  files: Record<string, string>,
  read: FileReader,
  limits: TemplateLimits,
): void {
  const doc = parseSource(url, text, limits);
  // A CloudFormation-format template names its resources' types under `Resources`/`Type`.
  const cfn = isPlainObject(doc.data) && !Object.hasOwn(doc.data, 'heat_template_version');
  const resources = isPlainObject(doc.data) ? doc.data[cfn ? 'Resources' : 'resources'] : undefined;
  if (isPlainObject(resources)) {
    for (const body of Object.values(resources)) {
      const type = isPlainObject(body) ? body[cfn ? 'Type' : 'type'] : undefined;
      if (typeof type === 'string' && isTemplateType(type)) {
        collectTemplate(resolveTemplateUrl(url, type), files, read, limits);
      }
    }
  }
  const stack: Json[] = [doc.data];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else if (isPlainObject(node)) {
      const keys = Object.keys(node);
      if (keys.length === 1 && keys[0] === 'get_file' && typeof node.get_file === 'string') {
        const fileUrl = resolveTemplateUrl(url, node.get_file);
        if (!Object.hasOwn(files, fileUrl)) files[fileUrl] = readOrFail(read, fileUrl, node.get_file);
      } else {
        for (const value of Object.values(node)) stack.push(value as Json);
      }
    }
  }
}

export { mergeEnvironments };
