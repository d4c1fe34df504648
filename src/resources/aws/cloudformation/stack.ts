import type { Value } from '../../../template/functions/types.js';
import { P } from '../../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../../util/json.js';
import { ResourceFailure } from '../../contract.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../../nested-type.js';

/** `Fn::GetAtt [stack, Outputs.<name>]`: the child's outputs are the only attributes (Heat's get_attribute). */
const OUTPUT_PREFIX = 'Outputs.';

/**
 * AWS::CloudFormation::Stack: a child stack from the template at `TemplateURL`, given
 * `Parameters`. The engine fetches the template, as Heat's engine does (http and https only;
 * remote-template.ts), unless the parent's files map holds it under that URL; it is fetched again
 * on every update, so a changed template at the same URL updates the child. Its attributes are
 * the child's outputs as `Outputs.<name>`. `TimeoutInMinutes` is accepted; the child inherits the
 * parent's stack timeout, as OS::Heat::Stack's does.
 */
export const awsStackPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: 'AWS::CloudFormation::Stack',
  description: 'A nested stack made from the template at a URL, with the parameters given.',
  properties: {
    TemplateURL: P.string({
      description: 'Where the nested stack’s template is fetched from (http or https).',
      required: true,
      updateAllowed: true,
    }),
    TimeoutInMinutes: P.integer({
      description: 'How many minutes the nested stack’s creation may take.',
      updateAllowed: true,
    }),
    Parameters: P.map({
      description: 'The nested stack’s parameter values.',
      updateAllowed: true,
    }),
  },
  attributes: {},
  dynamicAttribute: (name) => name.startsWith(OUTPUT_PREFIX),

  nested: {
    remoteTemplate(properties: Record<string, Value>) {
      return typeof properties.TemplateURL === 'string' ? properties.TemplateURL : undefined;
    },
    child(properties, _data, options) {
      const url = String(properties.TemplateURL ?? '');
      const template = options?.files?.[url];
      if (template === undefined) {
        throw new ResourceFailure(`Could not fetch remote template '${url}': it was not fetched`, {
          heatClass: 'ValueError',
        });
      }
      const parameters: JsonObject = {};
      const given = properties.Parameters;
      if (isPlainObject(given)) {
        for (const [k, v] of Object.entries(given)) if (v !== null) setOwn(parameters, k, v as Json);
      }
      return { template, parameters };
    },
    attributes(view) {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(view.outputs)) {
        if (k !== 'OS::stack_id') setOwn(out as JsonObject, `${OUTPUT_PREFIX}${k}`, v);
      }
      return out;
    },
  },
};
