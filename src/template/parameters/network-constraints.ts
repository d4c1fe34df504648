import { isIPv4, isIPv6 } from 'node:net';
import type { Json } from '../../util/json.js';
import type { CustomConstraintValidator } from './types.js';

/*
 * Offline equivalents of Heat's network custom constraints (heat/engine/constraint/
 * common_constraints.py, which use neutron-lib's validators, netaddr and heat.common.netutils).
 * A validator returns undefined for a valid value, else the reason Heat would give.
 */

/** neutron-lib validate_ip_address: canonical dotted quad (no leading zeros) or an IPv6 address. */
function ipAddressError(value: string): string | undefined {
  if (/\s/.test(value)) return `'${value}' is not a valid IP address`;
  if (value.includes(':'))
    return isIPv6(value) && !value.includes('%') ? undefined : `'${value}' is not a valid IP address`;
  return isIPv4(value) ? undefined : `'${value}' is not a valid IP address`;
}

/** neutron-lib validate_subnet: an address, a slash and a prefix length; IPv4 must be written canonically. */
function subnetError(value: string): string | undefined {
  const invalid = `'${value}' is not a valid IP subnet`;
  if (/\s/.test(value)) return invalid;
  const slash = value.indexOf('/');
  const address = slash < 0 ? value : value.slice(0, slash);
  const prefix = slash < 0 ? undefined : value.slice(slash + 1);
  const v6 = address.includes(':');
  if (v6 ? !isIPv6(address) || address.includes('%') : !isIPv4(address)) return invalid;
  if (prefix === undefined) {
    return `'${value}' isn't a recognized IP subnet cidr, '${value}/${v6 ? 128 : 32}' is recommended`;
  }
  const canonical = v6 ? /^\d+$/ : /^(0|[1-9]\d?)$/;
  if (!canonical.test(prefix) || Number(prefix) > (v6 ? 128 : 32)) return invalid;
  return undefined;
}

export const ipAddr: CustomConstraintValidator = (value) =>
  typeof value === 'string' && ipAddressError(value) === undefined ? undefined : 'Invalid IP address';

export const netCidr: CustomConstraintValidator = (value) => {
  if (typeof value !== 'string') return `Invalid net cidr ${String(value)}`;
  return subnetError(value);
};

export const ipOrCidr: CustomConstraintValidator = (value) => {
  if (typeof value !== 'string') return `${String(value)} is not a valid IP or CIDR`;
  return value.includes('/') ? subnetError(value) : ipAddressError(value);
};

const HEX = '[0-9A-Fa-f]';
const groups = (size: string, count: number, sep: string) =>
  Array.from({ length: count }, () => `${HEX}{${size}}`).join(sep);
/** The EUI-48 spellings netaddr's valid_mac accepts. */
const MAC_FORMATS = [
  groups('1,2', 6, ':'),
  groups('1,2', 6, '-'),
  groups('1,4', 3, ':'),
  groups('1,4', 3, '-'),
  groups('1,4', 3, '\\.'),
  groups('5,6', 2, '-'),
  groups('5,6', 2, ':'),
  `${HEX}{11,12}`,
].map((src) => new RegExp(`^${src}$`));

export const macAddr: CustomConstraintValidator = (value) =>
  typeof value === 'string' && MAC_FORMATS.some((re) => re.test(value)) ? undefined : 'Invalid MAC address.';

const DNS_LABEL = /^[a-z0-9-]{1,63}$/;
export const FQDN_MAX_LEN = 255;

/** heat.common.netutils.validate_dns_format: lower-case labels of letters, digits and hyphens. */
function dnsFormatError(data: string): string | undefined {
  if (!data) return undefined;
  const trimmed = data.endsWith('.') ? data.slice(0, -1) : data;
  if (trimmed.length > FQDN_MAX_LEN) return `'${trimmed}' exceeds the ${FQDN_MAX_LEN} character FQDN limit`;
  const names = trimmed.split('.');
  for (const name of names) {
    if (!name) return 'Encountered an empty component.';
    if (name.startsWith('-') || name.endsWith('-'))
      return `Name '${name}' must not start or end with a hyphen.`;
    if (!DNS_LABEL.test(name)) {
      return `Name '${name}' must be 1-63 characters long, each of which can only be alphanumeric or a hyphen.`;
    }
  }
  const tld = names[names.length - 1] ?? '';
  if (data.endsWith('.') && names.length > 1 && /^[0-9]+$/.test(tld))
    return `TLD '${tld}' must not be all numeric.`;
  return undefined;
}

function isEmpty(value: Json): boolean {
  return value === null || value === '' || value === false || value === 0;
}

export const dnsName: CustomConstraintValidator = (value) => {
  if (isEmpty(value)) return undefined;
  if (typeof value !== 'string') return `'${String(value)}' not in valid format. Reason: not a string`;
  const reason = dnsFormatError(value);
  return reason === undefined ? undefined : `'${value}' not in valid format. Reason: ${reason}`;
};

export const dnsDomain: CustomConstraintValidator = (value) => {
  if (isEmpty(value)) return undefined;
  const err = dnsName(value);
  if (err !== undefined) return err;
  return String(value).endsWith('.') ? undefined : `'${String(value)}' must end with '.'.`;
};

export const relDnsName: CustomConstraintValidator = (value) => {
  if (isEmpty(value)) return undefined;
  if (typeof value !== 'string') return dnsName(value);
  if (value.endsWith('.')) return `'${value}' is a FQDN. It should be a relative domain name.`;
  if (value.length > FQDN_MAX_LEN - 3) {
    return (
      `'${value}' contains '${value.length}' characters. Adding a domain name will cause it to exceed` +
      ` the maximum length of a FQDN of '${FQDN_MAX_LEN}'.`
    );
  }
  return dnsName(value);
};
