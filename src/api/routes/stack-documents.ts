import type { StackRecord, TemplateRecord } from '../../store/contract.js';
import { MASK } from '../../template/parameters/index.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { ApiDeps } from '../deps.js';
import { redactJson, redactorFor } from '../../views/redact.js';
import type { Api } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { stackDefinition } from '../../views/definition.js';
import { StackParams } from './params.js';

function hiddenNames(definition: StackDefinition | undefined): Set<string> {
  const names = new Set<string>();
  for (const [name, schema] of definition?.template.parameters ?? []) if (schema.hidden) names.add(name);
  return names;
}

/**
 * The template as a JSON object, with hidden parameters' defaults masked as validate masks them
 * (Heat shows them): a default of a hidden parameter is as secret as a value given for it.
 */
function shownTemplate(definition: StackDefinition): JsonObject {
  const data = definition.template.source.data as JsonObject;
  const hidden = hiddenNames(definition);
  const parameters = data.parameters;
  if (hidden.size === 0 || !isPlainObject(parameters)) return data;
  const masked: JsonObject = { ...(parameters as JsonObject) };
  for (const name of hidden) {
    const schema = masked[name];
    if (isPlainObject(schema) && Object.hasOwn(schema, 'default'))
      setOwn(masked, name, { ...schema, default: MASK });
  }
  return { ...data, parameters: masked };
}

/** The stored environment, hidden parameters' values masked wherever they are given. */
function shownEnvironment(
  environment: JsonObject,
  definition: StackDefinition | undefined,
  redact: (text: string) => string,
): JsonObject {
  const hidden = hiddenNames(definition);
  const out: JsonObject = { ...environment };
  for (const section of ['parameters', 'parameter_defaults']) {
    const values = environment[section];
    if (!isPlainObject(values)) continue;
    const masked: JsonObject = {};
    for (const [name, value] of Object.entries(values as JsonObject)) {
      // A nested stack's parameters are its parent's properties: a parent's hidden value may be one.
      setOwn(masked, name, hidden.has(name) ? MASK : redactJson(value as Json, redact));
    }
    out[section] = masked;
  }
  return out;
}

/** What a stack was last given: its template, merged environment and files map. */
export function registerStackDocumentRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;

  async function stored(stack: StackRecord): Promise<TemplateRecord | undefined> {
    const templateId = stack.templateId;
    return templateId ? engine.deps.store.tx((tx) => tx.templates.get(templateId)) : undefined;
  }

  app.get(
    '/stacks/:stack_name/:stack_id/template',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const definition = await stackDefinition(engine, stack);
      return definition ? shownTemplate(definition) : {};
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/environment',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const record = await stored(stack);
      if (!record) return {};
      const definition = await stackDefinition(engine, stack);
      return shownEnvironment(record.environment, definition, await redactorFor(engine, stack));
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/files',
    { schema: { params: StackParams, tags: ['stacks'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      return (await stored(stack))?.files ?? {};
    },
  );
}
