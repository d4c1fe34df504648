import { type JsonObject, pyJsonDumps } from '../../util/json.js';
import { type MimePart, multipartMessage, parseMultipart } from '../heat/mime-message.js';

/**
 * The user data Heat's build_userdata makes for a server: RAW as given; HEAT_CFNTOOLS and
 * SOFTWARE_CONFIG a multipart MIME message for cloud-init with Heat's boot parts (ours are minimal:
 * there is no heat-cfntools bundle here), the user's data, and for SOFTWARE_CONFIG a `cfn-init-data`
 * part holding the server's metadata as JSON, `os-collect-config` included: what the in-guest agent
 * reads first to learn where to poll.
 */

const CLOUD_CONFIG = `#cloud-config
# Written by Hearth (Heat's boot configuration for servers it configures).
runcmd:
 - setenforce 0 > /dev/null 2>&1 || true
`;

const BOOTHOOK = `#!/bin/bash
# Written by Hearth: make the folder heat-cfntools and os-collect-config read their data from.
mkdir -p /var/lib/heat-cfntools
`;

const PART_HANDLER = `#part-handler
# Written by Hearth: writes the x-cfninitdata parts to /var/lib/heat-cfntools/<filename>.
import os


def list_types():
    return ["text/x-cfninitdata"]


def handle_part(data, ctype, filename, payload):
    if ctype in ("__begin__", "__end__"):
        return
    os.makedirs("/var/lib/heat-cfntools", exist_ok=True)
    with open(os.path.join("/var/lib/heat-cfntools", filename), "w") as out:
        out.write(payload)
`;

const LOG_USERDATA = `#!/bin/sh
# Written by Hearth: runs cfn-userdata, logging what it prints.
[ -x /var/lib/heat-cfntools/cfn-userdata ] && /var/lib/heat-cfntools/cfn-userdata > /var/log/heat-provision.log 2>&1
`;

const bootParts = (): MimePart[] => [
  { text: CLOUD_CONFIG, subtype: 'cloud-config', filename: 'cloud-config' },
  { text: BOOTHOOK, subtype: 'cloud-boothook', filename: 'boothook.sh' },
  { text: PART_HANDLER, subtype: 'part-handler', filename: 'part-handler.py' },
];

/**
 * Where heat-cfntools find the CFN API (Heat's `cfn-metadata-server` and `cfn-boto-cfg` parts):
 * cfn-init and cfn-hup take the port from the first and the host from the second, and ask for
 * path `/v1/` there.
 */
function cfnToolsParts(cfnUrl: string): MimePart[] {
  const url = new URL(cfnUrl);
  const boto = [
    '[Boto]',
    'debug = 0',
    `is_secure = ${url.protocol === 'https:' ? 1 : 0}`,
    'https_validate_certificates = 1',
    'cfn_region_name = heat',
    `cfn_region_endpoint = ${url.hostname}`,
    '',
  ].join('\n');
  return [
    { text: cfnUrl, subtype: 'x-cfninitdata', filename: 'cfn-metadata-server' },
    { text: boto, subtype: 'x-cfninitdata', filename: 'cfn-boto-cfg' },
  ];
}

/**
 * The user data to send for `format`. `metadata` is the server's metadata at create time (SOFTWARE_CONFIG:
 * with `deployments` and `os-collect-config`); `seed` fixes the MIME boundary (a create run again sends
 * the same bytes); `cfnUrl`, the CFN API's URL for heat-cfntools (HEAT_CFNTOOLS only).
 */
export function buildUserData(
  format: string,
  userData: string,
  metadata: JsonObject | undefined,
  seed: string,
  cfnUrl?: string,
): string {
  if (format === 'RAW') return userData;
  const parts = bootParts();
  if (format === 'SOFTWARE_CONFIG') {
    // A multipart message given as user data: its parts join Heat's (as build_userdata does).
    const given = userData === '' ? undefined : parseMultipart(userData);
    if (given) parts.push(...given);
    else parts.push({ text: userData, subtype: '', filename: '' });
  } else {
    parts.push({ text: userData, subtype: 'x-cfninitdata', filename: 'cfn-userdata' });
    parts.push({ text: LOG_USERDATA, subtype: 'x-shellscript', filename: 'loguserdata.py' });
  }
  if (metadata && Object.keys(metadata).length > 0) {
    parts.push({ text: pyJsonDumps(metadata), subtype: 'x-cfninitdata', filename: 'cfn-init-data' });
  }
  if (format === 'HEAT_CFNTOOLS' && cfnUrl !== undefined) parts.push(...cfnToolsParts(cfnUrl));
  return multipartMessage(parts, seed);
}

/** The `cfn-init-data` part of a user data message, parsed (undefined: none, or not JSON). */
export function cfnInitData(userData: string): JsonObject | undefined {
  const part = parseMultipart(userData)?.find((p) => p.filename === 'cfn-init-data');
  if (!part) return undefined;
  try {
    const parsed: unknown = JSON.parse(part.text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}
