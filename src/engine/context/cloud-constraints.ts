import type { Cloud } from '../../openstack/index.js';
import { CLOUD_CONSTRAINTS } from '../../resources/openstack/constraints.js';
import { TemplateError } from '../../template/errors.js';
import type { ConstraintUse } from '../../template/properties/index.js';
import type { SourceDocument } from '../../template/source.js';
import type { DeferredConstraints } from '../../template/stack-definition.js';
import { type EngineDeps, openstackFor, type StackOwner } from '../core/deps.js';

/**
 * Custom constraints that need the cloud (`nova.flavor`, `glance.image`, `neutron.network` ...),
 * checked after a create or update request has been bound and before anything is stored. Binding
 * is synchronous, so it only collects the known values these constraints apply to; here each
 * distinct value is looked up once, a few at a time, and the first that fails is reported at its
 * place in the template, as Heat's validation does.
 */

/** Lookups in flight at once: enough for a big template, few enough not to flood the cloud. */
const PARALLEL = 8;
/** Beyond this many distinct values, the rest are left to the resources' own creates. */
const MAX_LOOKUPS = 500;

type Pending = ConstraintUse & { hidden?: boolean; source: SourceDocument };

/** What binding fills in; undefined when the deployment has no cloud at all. */
export interface CloudConstraintCollector extends DeferredConstraints {
  readonly uses: Pending[];
  /** The owner's cloud, opened only when there is something to look up. */
  cloud(): Promise<Cloud | undefined>;
}

/**
 * Collects the uses for a stack of `owner` (a function when the owner's credentials are made only
 * once the template is known valid: a create's Keystone trust).
 */
export function cloudConstraintCollector(
  deps: EngineDeps,
  owner: StackOwner | (() => StackOwner),
): CloudConstraintCollector | undefined {
  if (!deps.openstack) return undefined;
  const uses: Pending[] = [];
  return {
    uses,
    cloud: async () => {
      try {
        return await openstackFor(deps, typeof owner === 'function' ? owner() : owner);
      } catch {
        // Not configured (or not usable): the OpenStack types say what to configure when they run.
        return undefined;
      }
    },
    wanted: (constraint) => Object.hasOwn(CLOUD_CONSTRAINTS, constraint),
    add: (use, source) => {
      if (typeof use.value === 'string' && use.value !== '') uses.push({ ...use, source });
    },
  };
}

/** Throws a TemplateError for the first use (in template order) whose value the cloud lacks. */
export async function checkCloudConstraints(collector: CloudConstraintCollector | undefined): Promise<void> {
  // Most stacks name no cloud object: they open no cloud (nor read clouds.yaml) to be created.
  if (!collector || collector.uses.length === 0) return;
  const cloud = await collector.cloud();
  if (!cloud) return;
  const distinct = new Map<string, { constraint: string; value: string }>();
  for (const use of collector.uses) {
    const key = `${use.constraint}\u0000${use.value as string}`;
    if (!distinct.has(key) && distinct.size < MAX_LOOKUPS)
      distinct.set(key, { constraint: use.constraint, value: use.value as string });
  }
  const reasons = new Map<string, string | undefined>();
  const queue = [...distinct.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [key, { constraint, value }] = next;
      try {
        reasons.set(key, await CLOUD_CONSTRAINTS[constraint]!(cloud, value));
      } catch (error) {
        reasons.set(key, `it could not be checked: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  for (const use of collector.uses) {
    const reason = reasons.get(`${use.constraint}\u0000${use.value as string}`);
    if (reason === undefined) continue;
    const shown = use.hidden ? '******' : (use.value as string);
    const kind = use.path[0] === 'parameters' ? 'parameter' : 'property';
    if (use.whole)
      throw use.source.annotate(new TemplateError(kind, reason, use.path, { heat: () => reason }));
    const detail = use.description ?? `Error validating value '${shown}': ${use.hidden ? '' : reason}`;
    throw use.source.annotate(new TemplateError(kind, detail.replace(/: $/, ''), use.path));
  }
}
