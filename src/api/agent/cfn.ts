import { createHmac, timingSafeEqual } from 'node:crypto';
import { type JsonObject, pyJsonDumps } from '../../util/json.js';

/**
 * Hearth's slice of Heat's CloudFormation-compatible API (heat/api/cfn): what os-collect-config's
 * cfn collector calls, DescribeStackResource signed with EC2 signature version 2 (keystoneclient's
 * Ec2Signer: HmacSHA256 over verb, host, path and the sorted query), answered in Heat's XML (the
 * metadata as JSON text inside it) or JSON when asked.
 */

/** Python's urllib.parse.quote(s, safe='-_~'): RFC 3986 unreserved characters stay, the rest %XX. */
function quote(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The version 2 signature of a request (Signature itself excluded), in base64. */
export function ec2SignatureV2(
  secret: string,
  request: { verb: string; host: string; path: string; params: Readonly<Record<string, string>> },
): string {
  const { params } = request;
  const query = Object.keys(params)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${quote(key)}=${quote(params[key]!)}`)
    .join('&');
  const algorithm = params.SignatureMethod === 'HmacSHA1' ? 'sha1' : 'sha256';
  return createHmac(algorithm, secret)
    .update(`${request.verb}\n${request.host}\n${request.path}\n${query}`)
    .digest('base64');
}

/**
 * Whether `given` signs the request for one of the hosts and paths it may have been signed with
 * (the Host header with and without its port, as Keystone's check allows; the path asked and the
 * one the public URL gives).
 */
export function ec2SignatureMatches(
  secret: string,
  given: string,
  request: {
    verb: string;
    hosts: readonly string[];
    paths: readonly string[];
    params: Record<string, string>;
  },
): boolean {
  const want = Buffer.from(given);
  for (const host of new Set(request.hosts.flatMap((h) => [h, h.replace(/:\d+$/, '')]))) {
    for (const path of new Set(request.paths)) {
      const expected = Buffer.from(
        ec2SignatureV2(secret, { verb: request.verb, host, path, params: request.params }),
      );
      if (expected.length === want.length && timingSafeEqual(expected, want)) return true;
    }
  }
  return false;
}

const escapeXml = (text: string): string =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** Heat's AWS keys whose values are JSON text inside the XML. */
const JSON_ONLY_KEYS = new Set(['TemplateBody', 'Metadata']);

/** Heat's XMLResponseSerializer: dict keys as elements, list items as <member>, leaves as text. */
function element(name: string, value: unknown): string {
  let inner: string;
  if (JSON_ONLY_KEYS.has(name)) {
    const empty =
      value === null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
    inner = empty ? '' : escapeXml(pyJsonDumps(value as JsonObject));
  } else if (Array.isArray(value)) inner = value.map((v) => element('member', v)).join('');
  else if (value && typeof value === 'object')
    inner = Object.entries(value)
      .map(([k, v]) => element(k, v))
      .join('');
  else inner = escapeXml(value === null || value === undefined ? 'None' : String(value));
  return `<${name}>${inner}</${name}>`;
}

/** An AWS response document (`<Action>Response` → `<Action>Result` → result) as Heat's XML. */
export function cfnXml(document: JsonObject): string {
  const [root, value] = Object.entries(document)[0]!;
  return element(root, value);
}

/** Heat's CFN error body (heat/api/aws/exception.py: an ErrorResponse with the AWS error code). */
export function cfnErrorXml(code: string, message: string, type = 'Sender'): string {
  return cfnXml({ ErrorResponse: { Error: { Type: type, Code: code, Message: message } } });
}
