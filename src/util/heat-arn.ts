/**
 * Heat's identifiers printed as ARNs (`arn:openstack:heat::<project>:stacks/<name>/<id>[/<path>]`),
 * what the API's ARN lookups, a nested AWS::CloudFormation::Stack's reference and the pre-signed
 * wait condition URLs carry.
 */

export interface HeatArn {
  project: string;
  name: string;
  id: string;
  /** What follows the id (`/resources/<name>`), or ''; still quoted. */
  path: string;
}

/** Python's urllib.parse.quote(text, safe): RFC 3986 unreserved characters and `safe` stay, the rest %XX. */
export function pyQuote(text: string, safe = '/'): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out +=
      /[A-Za-z0-9_.~-]/.test(c) || (byte < 128 && safe.includes(c))
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Python's urllib.parse.unquote: a malformed escape stays as it is. */
export function pyUnquote(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** Reads a Heat stack ARN as Heat's HeatIdentifier.from_arn does; undefined when `text` is none. */
export function parseHeatArn(text: string): HeatArn | undefined {
  const fields = text.split(':');
  if (fields.length < 6 || fields[0]!.toLowerCase() !== 'arn') return undefined;
  if (fields[1] !== 'openstack' || fields[2] !== 'heat') return undefined;
  const match = /^stacks\/([^/]+)\/([^/]+)(.*)$/s.exec(fields.slice(5).join(':'));
  if (!match) return undefined;
  return {
    project: pyUnquote(fields[4]!),
    name: pyUnquote(match[1]!),
    id: pyUnquote(match[2]!),
    path: match[3]!,
  };
}

/** A stack's ARN (Heat's HeatIdentifier.arn), with `path` (already quoted) after the id. */
export function stackArn(project: string, name: string, id: string, path = ''): string {
  return `arn:openstack:heat::${pyQuote(project, '')}:stacks/${pyQuote(name, '')}/${pyQuote(id, '')}${path}`;
}

/** A resource's ARN (Heat's ResourceIdentifier.arn). */
export function resourceArn(project: string, stackName: string, stackId: string, resource: string): string {
  return stackArn(project, stackName, stackId, `/resources/${pyQuote(resource, '')}`);
}

/** The resource a resource ARN names, or undefined when `arn` names none. */
export function resourceOfArn(arn: HeatArn): string | undefined {
  const match = /^\/resources\/([^/]+)$/.exec(arn.path);
  return match ? pyUnquote(match[1]!) : undefined;
}
