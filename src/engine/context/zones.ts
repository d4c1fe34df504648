import type { StackRecord } from '../../store/contract.js';
import { TemplateError } from '../../template/errors.js';
import type { Value } from '../../template/functions/types.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { cloudOf, type EngineDeps, ownerOf } from '../core/deps.js';

/**
 * The cloud's availability zones for CFN `Fn::GetAZs`. Resolution is synchronous, so they are
 * looked up before a stack's values are resolved, and only for a definition whose binding read
 * them. A definition is bound per stack, so keeping them with it caches them per stack (as Heat's
 * stack keeps its zones), for a while: zones come and go, rarely.
 */
interface Looked {
  at: number;
  zones?: readonly string[];
  /** Why the zones could not be listed: what resolving Fn::GetAZs then reports. */
  error?: string;
}

const ZONES_TTL_MS = 60_000;
const looked = new WeakMap<StackDefinition, Looked>();

/** Looks the zones up for `definition` when it needs them and has none fresh; never throws. */
export async function loadZones(
  deps: EngineDeps,
  stack: Pick<StackRecord, 'projectId' | 'credentials'>,
  definition: StackDefinition | undefined,
): Promise<void> {
  if (!definition?.usesAvailabilityZones) return;
  const now = deps.clock.now();
  const known = looked.get(definition);
  if (known?.zones && now - known.at < ZONES_TTL_MS) return;
  try {
    looked.set(definition, { at: now, zones: await listZones(deps, stack) });
  } catch (err) {
    looked.set(definition, { at: now, error: (err as Error).message });
  }
}

/** Fn::GetAZs's answer for a run-time resolution of `definition`'s snippets. */
export function zonesOf(definition: StackDefinition): Value {
  const known = looked.get(definition);
  if (known?.zones) return [...known.zones];
  const why = known?.error ?? 'they were not looked up before resolving';
  throw new TemplateError('function', `Fn::GetAZs: the availability zones cannot be listed: ${why}`);
}

/** Nova's zones that are available, by name (`GET /os-availability-zone`). */
async function listZones(
  deps: EngineDeps,
  stack: Pick<StackRecord, 'projectId' | 'credentials'>,
): Promise<string[]> {
  const response = await cloudOf(deps, ownerOf(stack)).request<{ availabilityZoneInfo?: unknown }>(
    'compute',
    'GET',
    '/os-availability-zone',
  );
  const info = response.body?.availabilityZoneInfo;
  if (!Array.isArray(info)) throw new Error('Nova answered no availabilityZoneInfo list');
  const names: string[] = [];
  for (const zone of info as { zoneName?: unknown; zoneState?: { available?: unknown } }[]) {
    if (typeof zone?.zoneName === 'string' && zone.zoneState?.available === true) names.push(zone.zoneName);
  }
  return names;
}
