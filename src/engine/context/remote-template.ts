import type { NestedPlugin } from '../../resources/nested-type.js';
import { ResourceFailure } from '../../resources/contract.js';
import type { Value } from '../../template/functions/types.js';
import type { EngineDeps } from '../core/deps.js';

/**
 * A nested-stack type's remote template (AWS::CloudFormation::Stack's TemplateURL), fetched as
 * Heat's engine fetches it (heat/common/urlfetch.py): http and https only, at most
 * max_template_size bytes, within Heat's template_fetch_timeout default.
 */

const FETCH_TIMEOUT_MS = 60_000;

/** Heat's URLFetchError: why a template could not be fetched. */
class FetchError extends Error {}

/** Heat's allowed_schemes: the URL, or a FetchError naming its scheme. */
function allowedUrl(url: string): URL {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const scheme = parsed?.protocol.replace(/:$/, '') ?? /^([A-Za-z][\w+.-]*):/.exec(url)?.[1] ?? '';
  if (!parsed || (scheme !== 'http' && scheme !== 'https'))
    throw new FetchError(`Invalid URL scheme ${scheme}`);
  return parsed;
}

/** The text at `url` (http or https), or a FetchError in Heat's words. */
export async function fetchRemoteTemplate(url: string, maxBytes: number): Promise<string> {
  const parsed = allowedUrl(url);
  const failed = () => new FetchError(`Failed to retrieve template from ${url}`);
  let response: Response;
  try {
    response = await fetch(parsed, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  } catch {
    throw failed();
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw failed();
  }
  // Read in chunks and stop at the limit: a Content-Length can lie.
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await response.body.cancel().catch(() => undefined);
        throw new FetchError(`Template exceeds maximum allowed size (${maxBytes} bytes)`);
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw failed();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The parent's files with the plugin's remote template added when it names one the files lack
 * (fetched through `deps.fetchTemplate`, else over the network). A failure is the resource's,
 * in Heat's words: `Could not fetch remote template '<url>': <why>`.
 */
export async function withRemoteTemplate(
  deps: Pick<EngineDeps, 'fetchTemplate' | 'settings'>,
  plugin: NestedPlugin,
  properties: Record<string, Value>,
  files: Readonly<Record<string, string>>,
): Promise<Readonly<Record<string, string>>> {
  const url = plugin.nested.remoteTemplate?.(properties);
  if (url === undefined || Object.hasOwn(files, url)) return files;
  const maxBytes = deps.settings.limits.maxDocumentBytes;
  try {
    allowedUrl(url);
    const text = await (deps.fetchTemplate ?? ((u: string) => fetchRemoteTemplate(u, maxBytes)))(url);
    return { ...files, [url]: text };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ResourceFailure(`Could not fetch remote template '${url}': ${why}`, {
      heatClass: 'ValueError',
    });
  }
}
