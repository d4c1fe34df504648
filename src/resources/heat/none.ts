import type { CatalogPlugin } from '../plugin-extras.js';
import type { PluginContext } from '../contract.js';
import { uuidFrom } from './physical-name.js';
import { rowReality } from './row-reality.js';

/**
 * OS::Heat::None: does nothing. It stands in for any other type through the resource registry, so
 * it accepts any properties unchecked and answers every attribute with null. It never needs an
 * update: with no declared properties, no change is ever seen, so it is never replaced either.
 * It keeps nothing outside the resource row.
 */
export const nonePlugin: CatalogPlugin = {
  type: 'OS::Heat::None',
  inRow: true,
  description:
    'Enables easily disabling certain resources via the resource_registry. It does nothing, but ' +
    'can effectively stub out any other resource because it will accept any properties and return ' +
    'any attribute (as None). Note this resource always does nothing on update (e.g it is not ' +
    'replaced even if a change to the stubbed resource properties would cause replacement).',
  supportStatus: { version: '5.0.0' },
  properties: {},
  attributes: {},
  anyProperties: true,

  dynamicAttribute: () => true,

  async create(ctx: PluginContext) {
    // Heat uses a random UUID; one derived from the idempotency key keeps a retried create stable.
    // Heat marks it a placeholder (data shown by abandon); nothing reads the mark here.
    return { physicalId: uuidFrom(ctx.idempotencyKey), data: { is_placeholder: 'True' } };
  },

  async delete() {
    return {};
  },

  observes: false,
  getReality: rowReality,

  async attribute() {
    return null;
  },
};
