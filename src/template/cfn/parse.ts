import { getOwn, isPlainObject, type Json, typeName } from '../../util/json.js';
import type { Sliceable } from '../../util/loop-slice.js';
import { type DocPath, TemplateError } from '../errors.js';
import { makeFindInMap, type Mappings } from '../functions/cfn-template.js';
import { type FunctionTable, parseNode } from '../functions/parse.js';
import { FnCall, type Node } from '../functions/types.js';
import { checkName } from '../names.js';
import type { SchemaOptions } from '../parameters/index.js';
import type { OutputDefinition, ResourceDefinition, Template } from '../template-model.js';
import type { SourceDocument } from '../source.js';
import type { TemplateVersion } from '../versions.js';
import { parseCfnParameters } from './parameters.js';
import { cfnDocumentPath } from './paths.js';

/**
 * Reads a CloudFormation-format template (heat/engine/cfn/template.py) into the model HOT
 * templates parse into, so that binding and the engine treat both alike. Messages are Heat's.
 */
export function* parseCfnTemplate(
  source: SourceDocument,
  data: Record<string, Json>,
  version: TemplateVersion,
  options: SchemaOptions,
): Sliceable<Template> {
  for (const key of Object.keys(data)) {
    if (!version.sections.includes(key)) {
      throw new TemplateError('schema', `The template section is invalid: ${key}`, [key]);
    }
  }
  const description = getOwn(data, 'Description');
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw new TemplateError('schema', `"Description" must be a string, got ${typeName(description)}`, [
      'Description',
    ]);
  }
  const mappings = new Map(Object.entries(section(data, 'Mappings')));
  const values = withMappings(version.functions, mappings);
  const conditionScope = withMappings(version.conditionFunctions, mappings);
  const parameters = parseCfnParameters(getOwn(data, 'Parameters'), options);
  const conditions = new Map<string, Node>();
  if (version.hasConditions) {
    const raw = getOwn(data, 'Conditions');
    if (raw !== undefined && raw !== null && !isPlainObject(raw)) {
      throw new TemplateError(
        'schema',
        `Condition definitions must be a map. Found a ${pyTypeName(raw)} instead`,
        ['Conditions'],
      );
    }
    for (const [name, definition] of Object.entries(raw ?? {})) {
      conditions.set(name, parseNode(definition, ['Conditions', name], conditionScope));
    }
  }
  const resources = new Map<string, ResourceDefinition>();
  const rawResources = section(data, 'Resources');
  for (const name of Object.keys(rawResources)) {
    resources.set(name, parseResource(name, rawResources[name]!, version, values, conditionScope));
    yield;
  }
  const outputs = new Map<string, OutputDefinition>();
  for (const [name, body] of Object.entries(section(data, 'Outputs'))) {
    outputs.set(name, parseOutput(name, body, version, values, conditionScope));
  }
  // Binding places its errors with the model's (HOT's) names; the document has these.
  source.documentPath = cfnDocumentPath;
  return {
    source,
    version,
    description: description ?? undefined,
    parameters,
    parameterGroups: [],
    conditions,
    resources,
    outputs,
  };
}

/** The version's table with Fn::FindInMap reading this template's Mappings. */
function withMappings(
  table: TemplateVersion['functions'] | TemplateVersion['conditionFunctions'],
  mappings: Mappings,
): FunctionTable {
  if (!table.lookup('Fn::FindInMap')) return table;
  const findInMap = makeFindInMap(mappings);
  const conditionScope = table.conditionScope
    ? withMappings(table.conditionScope as TemplateVersion['conditionFunctions'], mappings)
    : undefined;
  return {
    lookup: (name) => (name === 'Fn::FindInMap' ? findInMap : table.lookup(name)),
    unavailable: () => undefined,
    ...(conditionScope ? { conditionScope } : {}),
  };
}

/** Python's name for a JSON value's type, as Heat's messages show it. */
function pyTypeName(value: Json): string {
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return 'NoneType';
  return 'dict';
}

/** A section that must be a map; absent or empty (`Resources:` with nothing) is an empty one. */
function section(data: Record<string, Json>, name: string): Record<string, Json> {
  const raw = getOwn(data, name);
  if (raw === undefined || raw === null || raw === '') return {};
  if (!isPlainObject(raw)) {
    throw new TemplateError('schema', `The ${name} section must be a map, not a ${pyTypeName(raw)}`, [name]);
  }
  return raw;
}

function parseResource(
  name: string,
  body: Json,
  version: TemplateVersion,
  values: FunctionTable,
  conditionScope: FunctionTable,
): ResourceDefinition {
  const path = ['Resources', name];
  checkName('resource', name, path);
  if (name.includes('/')) throw new TemplateError('schema', 'a resource name may not contain "/"', path);
  if (!isPlainObject(body)) {
    throw new TemplateError(
      'schema',
      `Resources must contain Resource. Found a [<class '${pyTypeName(body)}'>] instead`,
      path,
    );
  }
  const type = getOwn(body, 'Type');
  if (type === undefined || type === null || type === '') {
    throw new TemplateError('schema', 'Each Resource must contain a Type key.', path);
  }
  if (typeof type !== 'string') {
    throw new TemplateError('schema', `Resource ${name} Type type must be string`, [...path, 'Type']);
  }
  const field = (key: string, table = values): Node | undefined => {
    const value = getOwn(body, key);
    return value === undefined ? undefined : parseNode(value, [...path, key], table);
  };
  const object = (key: string): Node => {
    const node = field(key) ?? null;
    if (node === null || node instanceof FnCall || (typeof node === 'object' && !Array.isArray(node)))
      return node;
    throw new TemplateError('schema', `Resource ${name} ${key} type must be object`, [...path, key]);
  };
  const properties = object('Properties');
  const metadata = object('Metadata');
  const updatePolicy = object('UpdatePolicy');
  const deletionPolicy = field('DeletionPolicy');
  if (deletionPolicy !== undefined && deletionPolicy !== null && !(deletionPolicy instanceof FnCall)) {
    if (typeof deletionPolicy !== 'string') {
      throw new TemplateError('schema', `Resource ${name} DeletionPolicy type must be string`, [
        ...path,
        'DeletionPolicy',
      ]);
    }
    if (!version.deletionPolicies.includes(deletionPolicy)) {
      throw new TemplateError('schema', `Invalid deletion policy "${deletionPolicy}"`, [
        ...path,
        'DeletionPolicy',
      ]);
    }
  }
  const description = getOwn(body, 'Description');
  if (description !== undefined && description !== null && typeof description !== 'string') {
    throw new TemplateError('schema', `Resource ${name} Description type must be string`, [
      ...path,
      'Description',
    ]);
  }
  let condition: Node | undefined;
  if (version.hasConditions) {
    condition = field('Condition', conditionScope) ?? undefined;
    if (
      condition !== undefined &&
      typeof condition !== 'string' &&
      typeof condition !== 'boolean' &&
      !(condition instanceof FnCall)
    ) {
      throw new TemplateError('schema', `Resource ${name} Condition type must be string or boolean`, [
        ...path,
        'Condition',
      ]);
    }
  }
  return {
    name,
    type,
    properties,
    metadata,
    dependsOn: dependsOn(name, getOwn(body, 'DependsOn'), [...path, 'DependsOn']),
    deletionPolicy: deletionPolicy ?? undefined,
    updatePolicy,
    description: description ?? undefined,
    condition,
    externalId: undefined,
    path,
  };
}

function dependsOn(name: string, raw: Json | undefined, path: DocPath): string[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return [raw];
  if (!Array.isArray(raw)) {
    throw new TemplateError('schema', `Resource ${name} DependsOn type must be list or string`, path);
  }
  return raw.map((item, i) => {
    if (typeof item !== 'string') {
      throw new TemplateError('schema', `Resource ${name} DependsOn must be a list of strings`, [...path, i]);
    }
    return item;
  });
}

function parseOutput(
  name: string,
  body: Json,
  version: TemplateVersion,
  values: FunctionTable,
  conditionScope: FunctionTable,
): OutputDefinition {
  const path = ['Outputs', name];
  checkName('output', name, path);
  if (!isPlainObject(body)) {
    throw new TemplateError(
      'schema',
      `Output definitions must be a map. Found a ${pyTypeName(body)} instead`,
      path,
    );
  }
  if (!Object.hasOwn(body, 'Value')) {
    throw new TemplateError('schema', 'Each output definition must contain a Value key.', path);
  }
  const description = getOwn(body, 'Description');
  const condition = version.hasConditions ? getOwn(body, 'Condition') : undefined;
  return {
    name,
    value: parseNode(body.Value!, [...path, 'Value'], values),
    description: typeof description === 'string' ? description : undefined,
    condition:
      condition === undefined || condition === null
        ? undefined
        : parseNode(condition, [...path, 'Condition'], conditionScope),
    path,
  };
}
