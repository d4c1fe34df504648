import type { ImplicitView } from '../../template/types.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

export const ACCESS_POLICY_TYPE = 'OS::Heat::AccessPolicy';

/**
 * The resource name an item of a list property at `path` names, when known at binding: a literal
 * string or a reference to a resource (CFN's Ref, get_resource). Undefined otherwise (an inline
 * map, or a value known only later).
 */
export function namedResource(view: ImplicitView, ...path: (string | number)[]): string | undefined {
  const identity = view.identity(...path);
  if (identity === undefined) return undefined;
  if (identity.startsWith('resource:')) return identity.slice('resource:'.length);
  const value: unknown = JSON.parse(identity);
  return typeof value === 'string' ? value : undefined;
}

/** Heat's AccessPolicy.validate: every allowed resource is one of the stack's. */
function allowedResourcesExist(
  self: ImplicitView,
  lookup: (name: string) => ImplicitView | undefined,
): { property: string; message: string } | undefined {
  for (let i = 0; i < self.count('AllowedResources'); i++) {
    const name = namedResource(self, 'AllowedResources', i);
    if (name !== undefined && !lookup(name)) {
      return { property: 'AllowedResources', message: `AccessPolicy resource ${name} not in stack` };
    }
  }
  return undefined;
}

/**
 * OS::Heat::AccessPolicy: the resources of its stack an AWS::IAM::User naming it in `Policies` may
 * read through the CFN API's DescribeStackResource. It lives in its row: the API reads the names
 * from its data (`allowed_resources`). Its reference is its name, as Heat's (it has no physical
 * id there).
 */
export const accessPolicyPlugin: CatalogPlugin = {
  type: ACCESS_POLICY_TYPE,
  inRow: true,
  description:
    'The resources of the stack that AWS::IAM::User resources naming this policy may read ' +
    'through the DescribeStackResource API.',
  properties: {
    AllowedResources: {
      type: 'list',
      required: true,
      description: 'Resources that users are allowed to access by the DescribeStackResource API.',
    },
  },
  attributes: {},
  crossCheck: allowedResourcesExist,

  async create(ctx, properties) {
    const allowed = ((properties.AllowedResources ?? []) as unknown[]).map(String);
    return { physicalId: uuidFrom(ctx.idempotencyKey), data: { allowed_resources: allowed } };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute() {
    return null;
  },

  referenceId(ctx) {
    return ctx.resourceName;
  },
};
