import type { JsonObject } from '../../../util/json.js';

/**
 * The haproxy configuration of Heat's built-in load balancer: one HTTP frontend on the first
 * listener's port, round robin over the instances on its instance port, health-checked when a
 * HealthCheck is given (its timeout, interval and thresholds).
 */

export interface Listener {
  LoadBalancerPort: number;
  InstancePort: number;
}

export interface HealthCheck {
  Timeout: number;
  Interval: number;
  HealthyThreshold: number;
  UnhealthyThreshold: number;
}

const GLOBAL = `
global
    daemon
    maxconn 256
    stats socket /tmp/.haproxy-stats

defaults
    mode http
    timeout connect 5000ms
    timeout client 50000ms
    timeout server 50000ms
`;

/** The file's text for `addresses` (one per instance, in order; an unknown one is 0.0.0.0). */
export function haproxyConfig(
  listener: Listener,
  health: HealthCheck | null,
  addresses: readonly string[],
): string {
  const frontend = `\nfrontend http\n    bind *:${listener.LoadBalancerPort}\n    default_backend servers\n`;
  const timeout = health ? `    timeout check ${Math.trunc(Number(health.Timeout))}s` : '';
  const backend = [
    '',
    'backend servers',
    '    balance roundrobin',
    '    option http-server-close',
    '    option forwardfor',
    '    option httpchk',
    timeout,
    '',
  ].join('\n');
  const check = health
    ? ` check inter ${health.Interval}s fall ${health.UnhealthyThreshold} rise ${health.HealthyThreshold}`
    : '';
  const servers = addresses
    .map((ip, i) => `    server server${i + 1} ${ip}:${listener.InstancePort}${check}`)
    .join('\n');
  return `${GLOBAL}${frontend}${backend}${servers}\n`;
}

/** A server's first address on its first network (Heat's server_to_ipaddress), if it has one. */
export function firstAddress(server: JsonObject): string | undefined {
  const addresses = server.addresses;
  if (addresses === null || typeof addresses !== 'object' || Array.isArray(addresses)) return undefined;
  for (const entries of Object.values(addresses)) {
    if (!Array.isArray(entries) || entries.length === 0) continue;
    const first = entries[0] as JsonObject;
    if (typeof first.addr === 'string') return first.addr;
  }
  return undefined;
}
