import type { JsonObject } from '../../util/json.js';

/**
 * How a guest finds its agent's settings at first boot, as os-collect-config does: the server's
 * user_data is a multipart MIME message (Heat's build_userdata) whose `cfn-init-data` part holds
 * the server's metadata as JSON, `os-collect-config` included. Only what that needs is parsed:
 * headers, multipart boundaries (nested too), 7bit/base64/quoted-printable bodies.
 */

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(text: string): Part {
  const normalized = text.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Continuation lines (starting with blanks) belong to the header before them.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** A header's parameter (`boundary`, `filename`), quoted or not. */
function parameter(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  const match = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(
    header,
  );
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return part.body;
}

/** The leaf parts of a MIME message, depth first. */
function leaves(part: Part, depth = 0): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = parameter(type, 'boundary');
  if (!/^multipart\//i.test(type) || boundary === undefined || depth > 5) return [part];
  const delimiter = `--${boundary}`;
  const found: Part[] = [];
  const chunks = `\n${part.body}`.split(`\n${delimiter}`);
  // chunks[0] is the preamble; a chunk starting with `--` is the epilogue after the close.
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith('--')) break;
    found.push(...leaves(splitPart(chunk.replace(/^[ \t]*\n/, '')), depth + 1));
  }
  return found;
}

function isInitData(part: Part): boolean {
  const disposition = part.headers.get('content-disposition');
  if (parameter(disposition, 'filename') === 'cfn-init-data') return true;
  return /^text\/x-cfninitdata/i.test(part.headers.get('content-type') ?? '') && !disposition;
}

/**
 * The metadata a server booted with: the JSON of its user_data's `cfn-init-data` part, or
 * undefined when it has none (user_data absent, RAW, not MIME, or the part is not a JSON object).
 */
export function initData(userData: string | null | undefined): JsonObject | undefined {
  if (!userData) return undefined;
  const text = Buffer.from(userData.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (!/content-type:/i.test(text)) return undefined;
  for (const part of leaves(splitPart(text))) {
    if (!isInitData(part)) continue;
    try {
      const value: unknown = JSON.parse(decodeBody(part));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The `x-cfninitdata` parts of a server's user_data by file name (`cfn-userdata`,
 * `cfn-metadata-server`, `cfn-boto-cfg`...), as cloud-init's part handler writes them to
 * /var/lib/heat-cfntools; empty when the user data is not MIME.
 */
export function cfnDataParts(userData: string | null | undefined): Map<string, string> {
  const parts = new Map<string, string>();
  if (!userData) return parts;
  const text = Buffer.from(userData.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (!/content-type:/i.test(text)) return parts;
  for (const part of leaves(splitPart(text))) {
    const name = parameter(part.headers.get('content-disposition'), 'filename');
    if (name !== undefined && /^text\/x-cfninitdata/i.test(part.headers.get('content-type') ?? '')) {
      parts.set(name, decodeBody(part));
    }
  }
  return parts;
}

/** The `os-collect-config` section of a metadata document, if it has one. */
export function collectConfig(metadata: JsonObject | undefined): JsonObject | undefined {
  const occ = metadata?.['os-collect-config'];
  return typeof occ === 'object' && occ !== null && !Array.isArray(occ) ? (occ as JsonObject) : undefined;
}
