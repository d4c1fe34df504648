import { posix } from 'node:path';
import { environmentToJSON } from '../template/environment/index.js';
import type { StackInput } from '../template/loader.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../util/json.js';
import type { HeatStackBody } from './types.js';

/**
 * A template read from local files as the fields of a create, update or preview body. The template
 * goes as its text (so the server's errors point at its lines); the files it refers to are keyed
 * by their path relative to the template's directory, which is what the template itself writes:
 * the server reads an inline template as if it were at the root (`file:///template`), so
 * `member.yaml` and `../lib/x.yaml` mean the same file on both sides. The environment's registry
 * targets (absolute after parsing) are written the same way.
 */
export function templateFields(input: StackInput): Pick<HeatStackBody, 'template' | 'files' | 'environment'> {
  const refOf = relativeRefs(input.url);
  const files: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [url, text] of Object.entries(input.files)) {
    const ref = refOf(url);
    const onServer = new URL(ref, 'file:///').href;
    const other = seen.get(onServer);
    if (other !== undefined) {
      throw new Error(`"${other}" and "${url}" would be the same file on the server; move one of them`);
    }
    seen.set(onServer, url);
    files[ref] = text;
  }
  const environment = environmentToJSON(input.environment, { encryptedParamNames: false });
  const registry = environment.resource_registry;
  if (registry !== undefined) environment.resource_registry = mapStrings(registry, refOf);
  return { template: input.text, files, environment };
}

/** Local `file://` URLs as paths relative to the template's directory; other URLs unchanged. */
function relativeRefs(templateUrl: string): (url: string) => string {
  if (!templateUrl.startsWith('file:')) return (url) => url;
  const dir = posix.dirname(new URL(templateUrl).pathname);
  return (url) => (url.startsWith('file:') ? posix.relative(dir, new URL(url).pathname) || '.' : url);
}

function mapStrings(value: Json, map: (s: string) => string): Json {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (isPlainObject(value)) {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      setOwn(out, key, mapStrings(item as Json, map));
    }
    return out;
  }
  return value;
}
