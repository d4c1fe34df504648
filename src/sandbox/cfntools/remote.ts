import type { Json, JsonObject } from '../../util/json.js';
import { ec2Signature } from '../agent/collectors.js';
import { HTTP_TIMEOUT_MS, shownUrl } from '../agent/http.js';

/**
 * What heat-cfntools send over the network. DescribeStackResource (Metadata.remote_metadata): boto's
 * CloudFormation client at the host of `cfn-boto-cfg`'s `cfn_region_endpoint`, the port of
 * `cfn-metadata-server` (default 8000), path `/v1/`, plain HTTP, a GET signed with EC2 signature v2
 * (what Hearth's CFN API checks), JSON asked for. cfn-signal: curl's PUT of the JSON body with no
 * Content-Type, whose exit status is 0 whatever the HTTP status (no --fail).
 */

/** The CFN API's base URL as heat-cfntools derive it from the boot files. */
export function cfnEndpoint(
  metadataServer: string | undefined,
  botoCfg: string | undefined,
): string | undefined {
  let server: URL;
  try {
    server = new URL((metadataServer ?? '').trim());
  } catch {
    return undefined;
  }
  // The port of the URL (heat-cfntools meant to read it, and fall back on 8000).
  const port = server.port === '' ? 8000 : Number(server.port);
  const hostname = /^\s*cfn_region_endpoint\s*=\s*(\S+)/m.exec(botoCfg ?? '')?.[1] ?? server.hostname;
  return `http://${hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname}:${port}/v1/`;
}

/** The resource's metadata through the CFN API (errors as boto raises them: a status and message). */
export async function describeMetadata(
  endpoint: string,
  accessKey: string,
  secretKey: string,
  stack: string,
  resource: string,
): Promise<Json> {
  const url = new URL(endpoint);
  const params: Record<string, string> = {
    Action: 'DescribeStackResource',
    ContentType: 'JSON',
    StackName: stack,
    LogicalResourceId: resource,
    AWSAccessKeyId: accessKey,
    SignatureVersion: '2',
    SignatureMethod: 'HmacSHA256',
    Timestamp: new Date().toISOString(),
    Version: '2010-05-15',
  };
  params.Signature = ec2Signature(secretKey, 'GET', url.host, url.pathname, params);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  const text = await response.text();
  if (!response.ok) {
    let message = text.slice(0, 300);
    try {
      const error = (JSON.parse(text) as { ErrorResponse?: { Error?: { Code?: string; Message?: string } } })
        .ErrorResponse?.Error;
      if (error) message = `${error.Code ?? ''}: ${error.Message ?? ''}`;
    } catch {
      // not JSON: the text as it came
    }
    throw new Error(`DescribeStackResource ${shownUrl(endpoint)}: ${response.status} ${message}`);
  }
  const detail = (JSON.parse(text) as JsonObject).DescribeStackResourceResponse as JsonObject | undefined;
  const found = ((detail?.DescribeStackResourceResult as JsonObject | undefined)?.StackResourceDetail ??
    {}) as JsonObject;
  const metadata = found.Metadata;
  return typeof metadata === 'string' ? (JSON.parse(metadata) as Json) : (metadata ?? null);
}

/** heat-cfntools' credential file: `AWSAccessKeyId=...` and `AWSSecretKey=...` lines. */
export function parseCredentials(text: string): { accessKey?: string; secretKey?: string } {
  const found: { accessKey?: string; secretKey?: string } = {};
  for (const line of text.split('\n')) {
    const key = /^AWSAccessKeyId *= *(.*)$/.exec(line)?.[1];
    const secret = /^AWSSecretKey *= *(.*)$/.exec(line)?.[1];
    if (key !== undefined) found.accessKey = key;
    if (secret !== undefined) found.secretKey = secret;
  }
  return found;
}

export interface SignalOutcome {
  /** curl's exit status: 0 once an answer came, 7 when no connection, 28 on the timeout, 3 a bad URL. */
  exit: number;
  httpStatus: number | null;
  error: string | null;
}

/** cfn-signal's curl: `PUT` with the body and no Content-Type header. */
export async function putSignal(url: string, body: JsonObject): Promise<SignalOutcome> {
  try {
    new URL(url);
  } catch {
    return { exit: 3, httpStatus: null, error: `malformed URL ${shownUrl(url)}` };
  }
  try {
    // A byte body: fetch adds no Content-Type (curl -H 'Content-Type:').
    const response = await fetch(url, {
      method: 'PUT',
      body: new Uint8Array(Buffer.from(JSON.stringify(body))),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const text = await response.text().catch(() => '');
    return {
      exit: 0,
      httpStatus: response.status,
      error: response.ok ? null : `${response.status} ${text.slice(0, 300)}`,
    };
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return { exit: timedOut ? 28 : 7, httpStatus: null, error: (error as Error).message };
  }
}
