import { type DocPath, TemplateError } from '../../template/errors.js';
import { childEnvironment, emptyEnvironment } from '../../template/environment/index.js';
import { formatPath, isTemplateError } from '../../template/errors.js';
import { containsUnknown, type Value } from '../../template/functions/types.js';
import { defineStackFromText } from '../../template/stack-definition.js';
import type { BindingScope, TypeCatalog } from '../../template/types.js';
import { attr, P } from '../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { CatalogPlugin } from '../catalog.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';

/**
 * OS::Heat::Stack, local only (no `context.region_name`): a child stack from the template text in
 * `template`, given `parameters`. Its attributes are the child's outputs (`outputs`, and each
 * output by name) and the child's name (`stack_name`). `timeout` is accepted; the child inherits
 * the parent's stack timeout.
 */
export const stackPlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: 'OS::Heat::Stack',
  description: 'A resource for managing stacks.',
  properties: {
    context: P.map({
      description: 'Context for this stack (only a local stack is supported).',
      updateAllowed: true,
      schema: {
        region_name: P.string({ description: 'Region name in which this stack will be created.' }),
        // A remote cloud's credential (a Barbican secret): refused by validate, remote stacks are not made.
        credential_secret_id: P.string({
          description: 'Barbican secret holding the credential of a remote cloud (not supported).',
          updateAllowed: true,
        }),
        // TLS settings of the connection to a remote Heat: the child is made in Hearth, no connection.
        ca_cert: P.string({ description: 'CA certificate for a remote Heat.', updateAllowed: true }),
        insecure: P.boolean({
          description: 'Skip verifying a remote Heat certificate.',
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
        'context.credential_secret_id: a stack in a remote cloud is not supported (the child is made locally)',
        [...path, 'context', 'credential_secret_id'],
      );
    }
    if (types && scope) validateChildTemplate(properties, path, types, scope);
  },

  nested: {
    child(properties: Record<string, Value>) {
      const parameters: JsonObject = {};
      const given = properties.parameters;
      if (isPlainObject(given)) {
        for (const [k, v] of Object.entries(given)) if (v !== null) setOwn(parameters, k, v as Json);
      }
      return { template: String(properties.template ?? ''), parameters };
    },
    attributes(view) {
      const outputs: JsonObject = {};
      for (const [k, v] of Object.entries(view.outputs)) if (k !== 'OS::stack_id') setOwn(outputs, k, v);
      return { ...outputs, outputs, stack_name: view.childName, 'OS::stack_id': view.childId };
    },
  },
};

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
