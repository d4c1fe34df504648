import { type DocPath, TemplateError } from '../../template/errors.js';
import { childEnvironment, emptyEnvironment } from '../../template/environment/index.js';
import { formatPath, isTemplateError } from '../../template/errors.js';
import { containsUnknown, type Value } from '../../template/functions/types.js';
import { defineStackFromText } from '../../template/stack-definition.js';
import type { BindingScope, TypeCatalog } from '../../template/types.js';
import { attr, type ConstraintUse, P } from '../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';
import { STACK_REGION_CHECK } from './stack-region.js';

/**
 * OS::Heat::Stack: a child stack from the template text in `template`, given `parameters`. Heat
 * makes it through the Heat endpoint of `context.region_name`; Hearth is that Heat, so the child is
 * a nested stack whose cloud calls use that region's endpoints with the stack owner's credentials
 * (recorded on the child, inherited by its own children). A region the owner's catalog lacks fails
 * the create with Heat's words (stack-region.ts). Its attributes are the child's outputs
 * (`outputs`, and each output by name) and the child's name (`stack_name`). `timeout` is
 * accepted; the child inherits the parent's stack timeout.
 */
export const stackPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: 'OS::Heat::Stack',
  description: 'A resource for managing stacks.',
  properties: {
    context: P.map({
      description: 'Context for this stack.',
      updateAllowed: true,
      schema: {
        // Changing it replaces the child: a stack does not move between regions.
        region_name: P.string({ description: 'Region name in which this stack will be created.' }),
        // A remote cloud's credential (a Barbican secret): refused by validate, remote clouds are not reached.
        credential_secret_id: P.string({
          description:
            'A Barbican secret ID. The Barbican secret should contain an OpenStack credential that can be used to access a remote cloud.',
          updateAllowed: true,
        }),
        // TLS settings of the connection to a remote Heat: the child is made by Hearth itself, so
        // there is no such connection; the region's endpoints use the owner's cloud settings.
        ca_cert: P.string({ description: 'CA Cert for SSL.', updateAllowed: true }),
        insecure: P.boolean({
          description: "If set, then the server's certificate will not be verified.",
          default: false,
          updateAllowed: true,
        }),
      },
    }),
    template: P.string({
      description: 'Template that specifies the stack to be created as a resource.',
      required: true,
      updateAllowed: true,
    }),
    timeout: P.integer({
      description: 'Number of minutes to wait for this stack creation.',
      updateAllowed: true,
    }),
    parameters: P.map({
      description: 'Set of parameters passed to this stack.',
      default: {},
      updateAllowed: true,
    }),
  },
  attributes: {
    stack_name: attr('Name of the stack.', 'string'),
    outputs: attr('A dict of key-value pairs output from the stack.', 'map'),
  },
  // Each output of the child is also an attribute by name (the template is known only at run time).
  dynamicAttribute: () => true,

  validate(
    properties: Record<string, Value>,
    path: DocPath,
    types?: TypeCatalog,
    scope?: BindingScope,
  ): void {
    const context = properties.context;
    if (isPlainObject(context) && context.credential_secret_id != null) {
      throw new TemplateError(
        'property',
        'context.credential_secret_id: a stack in a remote cloud is not supported (a stack in another region of the same cloud is: context.region_name)',
        [...path, 'context', 'credential_secret_id'],
      );
    }
    if (types && scope) validateChildTemplate(properties, path, types, scope);
  },

  // The region is looked up in the owner's catalog once the template is bound (cloud-constraints.ts).
  constraintUses(properties: Value, path: DocPath, wanted: (constraint: string) => boolean): ConstraintUse[] {
    const region = regionName(properties);
    if (region === undefined || !wanted(STACK_REGION_CHECK)) return [];
    const at = [...path, 'context', 'region_name'];
    return [{ constraint: STACK_REGION_CHECK, value: region, path: at, whole: true }];
  },

  nested: {
    child(properties: Record<string, Value>) {
      const parameters: JsonObject = {};
      const given = properties.parameters;
      if (isPlainObject(given)) {
        for (const [k, v] of Object.entries(given)) if (v !== null) setOwn(parameters, k, v as Json);
      }
      const region = regionName(properties);
      return {
        template: String(properties.template ?? ''),
        parameters,
        ...(region !== undefined ? { region } : {}),
      };
    },
    attributes(view) {
      const outputs: JsonObject = {};
      for (const [k, v] of Object.entries(view.outputs)) if (k !== 'OS::stack_id') setOwn(outputs, k, v);
      return { ...outputs, outputs, stack_name: view.childName, 'OS::stack_id': view.childId };
    },
  },
};

/** `context.region_name` when it is known and not empty. */
function regionName(properties: Value): string | undefined {
  const context = isPlainObject(properties) ? properties.context : undefined;
  const region = isPlainObject(context) ? context.region_name : undefined;
  return typeof region === 'string' && region !== '' ? region : undefined;
}

/**
 * Heat's RemoteStack.validate: the child's template is validated (leniently, as the validate API
 * does) when the parent is created or updated, so an error in it refuses the request (400) instead
 * of failing the child later. The child is bound as the engine will bind it: the parent's files and
 * environment, the resource's parameters.
 */
function validateChildTemplate(
  properties: Record<string, Value>,
  path: DocPath,
  types: TypeCatalog,
  scope: BindingScope,
): void {
  const text = properties.template;
  if (typeof text !== 'string') return;
  const name = String(path[path.length - 2] ?? '');
  const parameters: Record<string, Json> = {};
  if (isPlainObject(properties.parameters)) {
    for (const [k, v] of Object.entries(properties.parameters)) {
      // A value known only at run time is missing here, which lenient validation allows.
      if (v !== null && v !== undefined && !containsUnknown(v as Value)) setOwn(parameters, k, v as Json);
    }
  }
  const environment = childEnvironment(scope.environment ?? emptyEnvironment(), name, parameters);
  try {
    defineStackFromText(scope.url, text, {
      files: scope.files,
      environment,
      types,
      limits: scope.limits,
      strict: false,
    });
  } catch (error) {
    if (!isTemplateError(error)) throw error;
    const context = properties.context;
    const region = isPlainObject(context) && context.region_name ? String(context.region_name) : 'None';
    // The place inside the inline text, not the parent's file the text would be annotated with.
    const inner = error.heat
      ? error.heat(error.path)
      : [formatPath(error.path), error.detail].filter(Boolean).join(': ');
    throw new TemplateError(
      'property',
      `Failed validating stack template using Heat endpoint at region "${region}" due to "ERROR: ${inner}"`,
      [...path, 'template'],
    );
  }
}
