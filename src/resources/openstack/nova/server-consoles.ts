import { OpenStackError } from '../../../openstack/index.js';
import type { JsonObject } from '../../../util/json.js';
import type { PluginContext } from '../../contract.js';
import { compute } from './compute.js';

/**
 * The `console_urls` attribute: a URL for each console type Heat knows, from Nova's remote consoles
 * API (`POST /servers/{id}/remote-consoles`, 2.6; `webmks` 2.8). A type the cloud does not offer
 * gives Heat's "Cannot get console url: ..." with Nova's reason in place of its URL.
 */

/** Heat's console types, and the protocol Nova's remote consoles API files each under. */
const PROTOCOLS: Record<string, string> = {
  novnc: 'vnc',
  xvpvnc: 'vnc',
  'spice-html5': 'spice',
  'rdp-html5': 'rdp',
  serial: 'serial',
  webmks: 'mks',
};

async function consoleUrl(ctx: PluginContext, serverId: string, type: string): Promise<string> {
  try {
    const body = { remote_console: { protocol: PROTOCOLS[type]!, type } };
    const r = await ctx.openstack().request<{
      remote_console: { url: string };
    }>('compute', 'POST', `/servers/${serverId}/remote-consoles`, body, compute());
    return r.body.remote_console.url;
  } catch (error) {
    const reason = error instanceof OpenStackError ? error.detail : String(error);
    return `Cannot get console url: ${reason}`;
  }
}

/**
 * Every type's URL. Heat resolves each one when it is read; Hearth caches attributes after each
 * action, so a URL (whose token the cloud may expire) is the one got then.
 */
export async function consoleUrls(ctx: PluginContext, serverId: string): Promise<JsonObject> {
  const types = Object.keys(PROTOCOLS);
  const urls = await Promise.all(types.map((type) => consoleUrl(ctx, serverId, type)));
  return Object.fromEntries(types.map((type, i) => [type, urls[i]!]));
}
