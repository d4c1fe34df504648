import { ApiError } from '../errors.js';
import { invalid } from './common.js';

/**
 * IPv4 arithmetic for subnets: CIDRs, allocation pools, the default gateway and pools, and
 * picking the first free address of a subnet's pools. Addresses are handled as unsigned 32-bit
 * numbers.
 */

export type Pool = {
  start: string;
  end: string;
};

export interface Cidr {
  network: number;
  prefix: number;
  /** The last address of the range (the broadcast address). */
  last: number;
}

export function parseIp(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

export function formatIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** A CIDR whose host bits are zero, or a 400. */
export function parseCidr(text: string): Cidr {
  const [address, bits, extra] = text.split('/');
  const ip = address === undefined ? undefined : parseIp(address);
  const prefix = Number(bits);
  if (
    ip === undefined ||
    extra !== undefined ||
    bits === undefined ||
    !/^\d{1,2}$/.test(bits) ||
    prefix > 32
  ) {
    throw invalid(`'${text}' is not a valid IP subnet`);
  }
  const size = 2 ** (32 - prefix);
  if (ip % size !== 0) {
    throw invalid(
      `'${text}' isn't a recognized IP subnet cidr, '${formatIp(ip - (ip % size))}/${prefix}' is recommended`,
    );
  }
  return { network: ip, prefix, last: ip + size - 1 };
}

/** A CIDR with its host bits cleared (a bare address is a /32), or a 400. */
export function maskCidr(text: string): Cidr {
  const [address = '', bits = '32'] = text.split('/', 2);
  const ip = parseIp(address);
  const prefix = Number(bits);
  if (ip === undefined || !/^\d{1,2}$/.test(bits) || prefix > 32)
    throw invalid(`'${text}' is not a valid IP subnet`);
  const size = 2 ** (32 - prefix);
  return parseCidr(`${formatIp(ip - (ip % size))}/${prefix}`);
}

export const cidrText = (c: Cidr) => `${formatIp(c.network)}/${c.prefix}`;

/** The usable host range: without the network and broadcast addresses below a /31. */
export function hostRange(c: Cidr): { first: number; last: number } {
  return c.prefix >= 31 ? { first: c.network, last: c.last } : { first: c.network + 1, last: c.last - 1 };
}

export function contains(c: Cidr, ip: number): boolean {
  return ip >= c.network && ip <= c.last;
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.network <= b.last && b.network <= a.last;
}

/** The host range minus the gateway, as one or two pools. */
export function defaultPools(c: Cidr, gateway: number | undefined): Pool[] {
  const { first, last } = hostRange(c);
  const ranges: [number, number][] =
    gateway === undefined || gateway < first || gateway > last
      ? [[first, last]]
      : [
          [first, gateway - 1],
          [gateway + 1, last],
        ];
  return ranges.filter(([a, b]) => a <= b).map(([a, b]) => ({ start: formatIp(a), end: formatIp(b) }));
}

/** Checks explicit pools: well-formed, inside the subnet's host range, not overlapping, not the gateway. */
export function checkPools(c: Cidr, pools: unknown, gateway: number | undefined): Pool[] {
  if (!Array.isArray(pools)) throw invalid('allocation_pools must be a list');
  const parsed = pools.map((p: unknown) => {
    const pool = (p ?? {}) as Record<string, unknown>;
    const start = typeof pool.start === 'string' ? parseIp(pool.start) : undefined;
    const end = typeof pool.end === 'string' ? parseIp(pool.end) : undefined;
    if (start === undefined || end === undefined || start > end) {
      throw new ApiError(
        400,
        `The allocation pool ${JSON.stringify(p)} is not valid.`,
        'InvalidAllocationPool',
      );
    }
    const { first, last } = hostRange(c);
    if (start < first || end > last) {
      throw new ApiError(
        400,
        `The allocation pool ${formatIp(start)}-${formatIp(end)} spans beyond the subnet cidr ${cidrText(c)}.`,
        'OutOfBoundsAllocationPool',
      );
    }
    if (gateway !== undefined && gateway >= start && gateway <= end) {
      throw new ApiError(
        409,
        `Gateway ip ${formatIp(gateway)} conflicts with allocation pool ${formatIp(start)}-${formatIp(end)}.`,
        'GatewayConflictWithAllocationPools',
      );
    }
    return [start, end] as const;
  });
  const sorted = [...parsed].sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]![0] <= sorted[i - 1]![1]) {
      throw new ApiError(400, 'Found overlapping allocation pools.', 'OverlappingAllocationPools');
    }
  }
  return parsed.map(([start, end]) => ({ start: formatIp(start), end: formatIp(end) }));
}

/** Chooses among `count` free addresses (their index); absent: the first. */
export type AddressPick = (count: number) => number;

/** How many free addresses Neutron's IPAM draws one from. */
const WINDOW = 1000;

/**
 * An address of the pools not in `used` (the first, or the one `pick` chooses among the first
 * WINDOW free ones), or undefined when they are exhausted.
 */
export function freeAddress(
  pools: readonly Pool[],
  used: ReadonlySet<string>,
  pick?: AddressPick,
): string | undefined {
  const wanted = pick ? WINDOW : 1;
  const free: string[] = [];
  for (const pool of pools) {
    const start = parseIp(pool.start)!;
    const end = parseIp(pool.end)!;
    for (let ip = start; ip <= end && free.length < wanted; ip++) {
      const text = formatIp(ip);
      if (!used.has(text)) free.push(text);
    }
  }
  if (free.length === 0) return undefined;
  return free[pick ? Math.min(free.length - 1, Math.max(0, pick(free.length))) : 0];
}
