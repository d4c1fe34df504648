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
import { parseSource, type SourceDocument, sourceFormat } from './source.js';

/** Reads a file by its `file://` URL (or another scheme the caller supports). */
export type FileReader = (url: string) => string;

/** Everything a stack operation sends: the template, the merged environment and the files map. */
export interface StackInput {
  url: string;
  text: string;
  environment: Environment;
  files: Record<string, string>;
  /** `text` as the loader parsed it: the engine binds this rather than parsing the text again. */
  parsed?: SourceDocument;
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
  /**
   * Not parsed when its text shows it refers to no file (an update's: the engine parses only
   * what changed, engine/operations/partial-bind.ts); otherwise parsed and handed over.
   */
  lazy = false,
): StackInput {
  const url = toFileUrl(templatePath);
  const text = readOrFail(read, url, templatePath);
  const { environment, files } = loadEnvironments(environmentPaths, read, limits);
  if (lazy && refersToNoFile(text)) return { url, text, environment, files };
  const parsed = collectReferencedFiles(url, text, files, read, limits);
  return { url, text, environment, files, parsed };
}

/**
 * A HOT YAML text that surely names no file: no `get_file` (nor escapes that could spell it),
 * and every `type:` value a plain type, not a template (isTemplateType). Anything unsure: false.
 */
export function refersToNoFile(text: string): boolean {
  if (sourceFormat(text) !== 'yaml' || !text.includes('heat_template_version')) return false;
  if (text.includes('get_file') || text.includes('\\')) return false;
  const types = /\btype\b["']?[ ]*:[ ]*/g;
  const end = /[,}\]\n#]/g;
  // A big template names a few types many times: each distinct value is judged once.
  const judged = new Set<string>();
  for (let m = types.exec(text); m; m = types.exec(text)) {
    const at = types.lastIndex;
    const quote = text[at];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, at + 1);
      if (close < 0) return false;
      value = text.slice(at + 1, close);
    } else {
      end.lastIndex = at;
      const found = end.exec(text);
      value = text.slice(at, found ? found.index : text.length).trim();
    }
    if (judged.has(value)) continue;
    if (value === '' || /^[|>[{&*!]/.test(value) || isTemplateType(value)) return false;
    judged.add(value);
  }
  return true;
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

/** Walks a template's raw data for template-resource types and get_file paths; returns it parsed. */
function collectReferencedFiles(
  url: string,
  text: string,
  files: Record<string, string>,
  read: FileReader,
  limits: TemplateLimits,
): SourceDocument {
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
  // A `get_file` key is written out in the text, unless spelled with escapes (JSON's \u, YAML's
  // double quotes): without either, the walk of a big document is saved.
  if (text.includes('get_file') || text.includes('\\')) collectFiles(url, doc.data, files, read);
  return doc;
}

function collectFiles(url: string, data: Json, files: Record<string, string>, read: FileReader): void {
  const stack: Json[] = [data];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else if (isPlainObject(node)) {
      const path = node.get_file;
      if (typeof path === 'string' && Object.hasOwn(node, 'get_file') && Object.keys(node).length === 1) {
        const fileUrl = resolveTemplateUrl(url, path);
        if (!Object.hasOwn(files, fileUrl)) files[fileUrl] = readOrFail(read, fileUrl, path);
      } else {
        for (const key in node) stack.push(node[key] as Json);
      }
    }
  }
}

export { mergeEnvironments };
