import { getOwn, isPlainObject, type Json, typeName } from '../util/json.js';
import { runToEnd, type Sliceable } from '../util/loop-slice.js';
import { type DocPath, TemplateError } from './errors.js';
import { checkName } from './names.js';
import { type FunctionTable, parseNode } from './functions/parse.js';
import type { Node } from './functions/types.js';
import { parseParameterGroups, parseParameterSchemas, type SchemaOptions } from './parameters/index.js';
import type { SourceDocument } from './source.js';
import { describeSupportedVersions, findVersion, type TemplateVersion } from './versions.js';
import { parseCfnTemplate } from './cfn/parse.js';
import { CFN_VERSIONS } from './cfn/versions.js';
import type { OutputDefinition, ResourceDefinition, Template } from './template-model.js';

export type { OutputDefinition, ParameterGroup, ResourceDefinition, Template } from './template-model.js';

const VERSION_KEY = 'heat_template_version';

/** How a template is parsed: see SchemaOptions (a nested template's defaults are left to its stack). */
export type ParseOptions = SchemaOptions;

/** Parses and structurally validates a template document. Every error is positioned in the source. */
export function parseTemplate(source: SourceDocument, options: ParseOptions = {}): Template {
  return runToEnd(parseTemplateSteps(source, options));
}

/** `parseTemplate` as work that may pause between resources (util/loop-slice.ts). */
export function* parseTemplateSteps(source: SourceDocument, options: ParseOptions = {}): Sliceable<Template> {
  try {
    return yield* buildTemplate(source, options);
  } catch (err) {
    throw source.annotate(err);
  }
}

function* buildTemplate(source: SourceDocument, options: ParseOptions): Sliceable<Template> {
  const data = source.data;
  if (!isPlainObject(data)) {
    throw new TemplateError('syntax', 'the template is not a JSON object or YAML mapping');
  }
  const version = templateVersion(data);
  if (version.format === 'cfn') return yield* parseCfnTemplate(source, data, version, options);
  for (const key of Object.keys(data)) {
    if (!version.sections.includes(key)) {
      throw new TemplateError(
        'schema',
        `"${key}" is not a valid section in heat_template_version ${version.date}`,
        [key],
      );
    }
  }
  const description = optionalString(data, 'description', ['description']);
  const parameters = parseParameterSchemas(getOwn(data, 'parameters') as Json | undefined, version, options);
  const parameterGroups = parseParameterGroups(
    getOwn(data, 'parameter_groups') as Json | undefined,
    parameters,
  );
  const conditions = parseConditions(getOwn(data, 'conditions') as Json | undefined, version);
  const resources = yield* parseResources(getOwn(data, 'resources') as Json | undefined, version);
  const outputs = parseOutputs(getOwn(data, 'outputs') as Json | undefined, version);
  return { source, version, description, parameters, parameterGroups, conditions, resources, outputs };
}

/** A template's description as Heat shows it: `No description` when it has none or an empty one. */
export function shownDescription(template: Pick<Template, 'description'>): string {
  return template.description || 'No description';
}

const CFN_KEYS = ['AWSTemplateFormatVersion', 'HeatTemplateFormatVersion'];

function templateVersion(data: Record<string, Json>): TemplateVersion {
  // Heat's get_version: only keys whose value is a string name a version.
  const cfn = CFN_KEYS.filter((key) => typeof getOwn(data, key) === 'string');
  if (cfn.length > 0) return cfnVersion(data, cfn);
  const raw = getOwn(data, VERSION_KEY);
  if (raw === undefined) {
    throw new TemplateError(
      'version',
      `template format version not found: the "${VERSION_KEY}" key is missing`,
    );
  }
  const value = typeof raw === 'string' ? raw : String(raw);
  const version = findVersion(value);
  if (!version) {
    throw new TemplateError(
      'version',
      `"${value}" is not a supported heat_template_version; supported: ${describeSupportedVersions()}`,
      [VERSION_KEY],
    );
  }
  return version;
}

function cfnVersion(data: Record<string, Json>, keys: string[]): TemplateVersion {
  const present = typeof getOwn(data, VERSION_KEY) === 'string' ? [...keys, VERSION_KEY] : keys;
  if (present.length > 1) {
    throw new TemplateError('version', `Ambiguous versions (${present.join(', ')})`, [present[1]!]);
  }
  const key = keys[0]!;
  const value = getOwn(data, key) as string;
  const version = CFN_VERSIONS.find((v) => v.key === key && v.date === value);
  if (version) return version;
  const known = CFN_VERSIONS.filter((v) => v.key === key).map((v) => v.date);
  throw new TemplateError(
    'version',
    `The template version is invalid: "${key}: ${value}". "${key}" should be${known.length > 1 ? ' one of' : ''}: ${known.join(', ')}`,
    [key],
  );
}

function optionalString(obj: Record<string, Json>, key: string, path: DocPath): string | undefined {
  const value = getOwn(obj, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new TemplateError('schema', `"${key}" must be a string, got ${typeName(value)}`, path);
  }
  return value;
}

function sectionMap(raw: Json | undefined, section: string): Record<string, Json> {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) {
    throw new TemplateError('schema', `the "${section}" section must be a map, got ${typeName(raw)}`, [
      section,
    ]);
  }
  return raw as Record<string, Json>;
}

function parseConditions(raw: Json | undefined, version: TemplateVersion): Map<string, Node> {
  const section = sectionMap(raw, 'conditions');
  const out = new Map<string, Node>();
  for (const [name, definition] of Object.entries(section)) {
    out.set(name, parseNode(definition, ['conditions', name], version.conditionFunctions));
  }
  return out;
}

function* parseResources(
  raw: Json | undefined,
  version: TemplateVersion,
): Sliceable<Map<string, ResourceDefinition>> {
  const section = sectionMap(raw, 'resources');
  const out = new Map<string, ResourceDefinition>();
  // Keys, not entries: one array rather than 200,000 pairs made at once.
  for (const name of Object.keys(section)) {
    out.set(name, parseResource(name, section[name]!, version));
    yield;
  }
  return out;
}

function parseResource(name: string, body: Json, version: TemplateVersion): ResourceDefinition {
  const path = ['resources', name];
  checkName('resource', name, path);
  if (name.includes('/')) throw new TemplateError('schema', 'a resource name may not contain "/"', path);
  if (!isPlainObject(body)) {
    throw new TemplateError('schema', `a resource definition must be a map, got ${typeName(body)}`, path);
  }
  for (const key of Object.keys(body)) {
    if (!version.resourceKeys.includes(key)) {
      throw new TemplateError(
        'schema',
        `"${key}" is not a valid keyword inside a resource definition in heat_template_version ${version.date}`,
        [...path, key],
      );
    }
  }
  const type = getOwn(body, 'type');
  if (type === undefined) throw new TemplateError('schema', 'the resource has no "type"', path);
  if (typeof type !== 'string' || type === '') {
    throw new TemplateError('schema', `"type" must be a non-empty string, got ${typeName(type)}`, [
      ...path,
      'type',
    ]);
  }
  const values = version.functions;
  const parseField = (key: string, table: FunctionTable = values): Node | undefined => {
    const value = getOwn(body, key);
    return value === undefined ? undefined : parseNode(value as Json, [...path, key], table);
  };
  const properties = parseField('properties') ?? null;
  expectMapOrCall(properties, [...path, 'properties'], 'properties');
  const metadata = parseField('metadata') ?? null;
  expectMapOrCall(metadata, [...path, 'metadata'], 'metadata');
  const updatePolicy = parseField('update_policy') ?? null;
  expectMapOrCall(updatePolicy, [...path, 'update_policy'], 'update_policy');
  const deletionPolicy = parseField('deletion_policy');
  if (typeof deletionPolicy === 'string' && !version.deletionPolicies.includes(deletionPolicy)) {
    throw new TemplateError(
      'schema',
      `invalid deletion policy "${deletionPolicy}"; expected one of ${version.deletionPolicies.join(', ')}`,
      [...path, 'deletion_policy'],
    );
  }
  return {
    name,
    type,
    properties,
    metadata,
    dependsOn: parseDependsOn(getOwn(body, 'depends_on'), [...path, 'depends_on']),
    deletionPolicy,
    updatePolicy,
    description: optionalString(body, 'description', [...path, 'description']),
    condition: parseField('condition', version.conditionFunctions),
    externalId: parseField('external_id'),
    path,
  };
}

function expectMapOrCall(node: Node, path: DocPath, what: string): void {
  if (node === null || (typeof node === 'object' && !Array.isArray(node))) return;
  throw new TemplateError('schema', `"${what}" must be a map, got ${typeName(node)}`, path);
}

function parseDependsOn(raw: Json | undefined, path: DocPath): string[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((item, i) => {
    if (typeof item !== 'string') {
      throw new TemplateError(
        'schema',
        `depends_on must name resources (strings), got ${typeName(item)}`,
        Array.isArray(raw) ? [...path, i] : path,
      );
    }
    return item;
  });
}

function parseOutputs(raw: Json | undefined, version: TemplateVersion): Map<string, OutputDefinition> {
  const section = sectionMap(raw, 'outputs');
  const out = new Map<string, OutputDefinition>();
  for (const [name, body] of Object.entries(section)) {
    const path = ['outputs', name];
    checkName('output', name, path);
    if (!isPlainObject(body)) {
      throw new TemplateError('schema', `an output definition must be a map, got ${typeName(body)}`, path);
    }
    for (const key of Object.keys(body)) {
      if (!version.outputKeys.includes(key)) {
        throw new TemplateError(
          'schema',
          `"${key}" is not a valid keyword inside an output definition in heat_template_version ${version.date}`,
          [...path, key],
        );
      }
    }
    if (!Object.hasOwn(body, 'value')) {
      throw new TemplateError('schema', 'each output definition must contain a "value" key', path);
    }
    const condition = getOwn(body, 'condition');
    out.set(name, {
      name,
      value: parseNode(body.value as Json, [...path, 'value'], version.functions),
      description: optionalString(body, 'description', [...path, 'description']),
      condition:
        condition === undefined
          ? undefined
          : parseNode(condition as Json, [...path, 'condition'], version.conditionFunctions),
      path,
    });
  }
  return out;
}
