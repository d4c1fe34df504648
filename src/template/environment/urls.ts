import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TemplateError } from '../errors.js';

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const TEMPLATE_EXTENSIONS = ['.yaml', '.yml', '.template', '.json'];

/** `file://...`, `http://...`: a reference that needs no base to be found. */
export function hasUrlScheme(ref: string): boolean {
  return URL_SCHEME.test(ref);
}

/**
 * Whether a resource type (or a registry target) names a template rather than a plugin type: it has
 * a URL scheme, ends in a template extension, or is a path. `::` marks a type name (as the Heat
 * client decides which registry values to fetch), unless a template extension says otherwise.
 */
export function isTemplateType(type: string): boolean {
  if (hasUrlScheme(type)) return true;
  if (TEMPLATE_EXTENSIONS.some((ext) => type.endsWith(ext))) return true;
  return !type.includes('::') && type.includes('/');
}

/**
 * Resolves `ref` the way the Heat client does for environments, nested templates and get_file:
 * a ref with a scheme is absolute; anything else is taken relative to the directory of `base`
 * (the base itself when it ends in `/`), with `.` and `..` normalised. A local base path (absolute
 * or relative to the working directory) gives a `file:///abs/path` URL.
 */
export function resolveTemplateUrl(base: string, ref: string): string {
  if (hasUrlScheme(ref)) return ref;
  const baseUrl = hasUrlScheme(base) ? base : localBaseUrl(base);
  try {
    return new URL(ref, baseUrl).href;
  } catch {
    throw new TemplateError('reference', `cannot resolve "${ref}" relative to "${base}"`);
  }
}

function localBaseUrl(base: string): string {
  const url = pathToFileURL(resolvePath(base)).href;
  // path.resolve drops a trailing slash, which is what marks the base as a directory.
  return base.endsWith('/') && !url.endsWith('/') ? `${url}/` : url;
}

/** A heatclient `base_url` names a directory even without a trailing slash. */
export function directoryBase(baseUrl: string): string {
  return baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
}
