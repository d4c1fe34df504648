import type { ConditionEvaluator } from './conditions.js';
import { collectReferences } from './dependencies.js';
import { TemplateError } from './errors.js';
import { UNKNOWN } from './functions/types.js';
import type { ResourceDefinition, Template } from './template.js';
import { checkReference, type ResourceScope, type ValidationContext } from './validation-context.js';

/** A CFN `Ref` (it names a parameter or a resource alike) that names a parameter or a pseudo parameter. */
export function refersToParameter(call: string, name: string, template: Template): boolean {
  return (
    call === 'Ref' &&
    (template.parameters.has(name) ||
      template.version.pseudoParameters.includes(name) ||
      name.startsWith('OS::'))
  );
}

/**
 * The names of the resources `def` depends on: those its properties and metadata refer to, and
 * its `depends_on`. A `depends_on` naming a resource whose condition is false is dropped, as Heat
 * does (ResourceDefinition.dependencies); a reference to one in a snippet is an error.
 */
export function dependenciesOf(
  def: ResourceDefinition,
  template: Template,
  conditions: ConditionEvaluator,
  scope: ResourceScope,
  context: ValidationContext,
): string[] {
  const requires = new Set<string>();
  for (const node of [def.properties, def.metadata]) {
    for (const ref of collectReferences(node, conditions)) {
      if (refersToParameter(ref.call.name, ref.resource, template)) continue;
      checkReference(ref.resource, ref.path, scope);
      if (ref.call.name === 'get_attr' || ref.call.name === 'Fn::GetAtt')
        context.recordAttributeRead(ref.resource, ref.call);
      requires.add(ref.resource);
    }
  }
  def.dependsOn.forEach((name, i) => {
    if (!scope.enabled.has(name) && scope.all.has(name)) return;
    const path = def.dependsOn.length === 1 ? [...def.path, 'depends_on'] : [...def.path, 'depends_on', i];
    checkReference(name, path, scope);
    requires.add(name);
  });
  if (requires.delete(def.name)) {
    throw new TemplateError(
      'cycle',
      `circular dependency between resources: ${def.name} -> ${def.name}`,
      def.path,
    );
  }
  return [...requires];
}

/**
 * An external resource (`external_id`) names an object that exists already: it depends on no
 * other resource, as in Heat (references in its properties make no edge, `depends_on` is refused),
 * and its id is a string known from parameters alone. An empty id (an optional parameter left at
 * `''`) is refused only when the stack is created: Heat's validate does not look at external
 * resources, its create finds no such object. Returns its dependencies: none.
 */
export function checkExternal(
  def: ResourceDefinition,
  conditions: ConditionEvaluator,
  context: ValidationContext,
  create: boolean,
): [] {
  const path = [...def.path, 'external_id'];
  for (const ref of collectReferences(def.externalId!, conditions)) {
    throw new TemplateError(
      'reference',
      `the external_id of "${def.name}" may not refer to resource "${ref.resource}": an external resource depends on no other resource`,
      ref.path,
    );
  }
  const id = context.resolve(def.externalId!);
  if (id !== UNKNOWN && typeof id !== 'string') {
    throw new TemplateError('schema', `Resource ${def.name} external_id type must be string`, path);
  }
  if (id === '' && create) {
    throw new TemplateError(
      'reference',
      `Invalid external resource: the external_id of ${def.name} (${def.type}) is empty`,
      path,
    );
  }
  if (def.dependsOn.length > 0) {
    const shown = typeof id === 'string' ? id : '(not known yet)';
    throw new TemplateError('reference', `Invalid dependency with external ${def.type} resource: ${shown}`, [
      ...def.path,
      'depends_on',
    ]);
  }
  return [];
}
