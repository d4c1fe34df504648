import { FUNCTIONS } from './functions/catalogue.js';
import type { FunctionTable } from './functions/parse.js';
import type { FunctionDef } from './functions/types.js';
import { PSEUDO_PARAMETERS } from './parameters/schema.js';

/**
 * What one `heat_template_version` allows: sections, keys, and exactly the intrinsic functions Heat
 * gives that version (heat/engine/hot/template.py is the reference for the sets below).
 */
export interface TemplateVersion {
  /** HOT, or CloudFormation's format (cfn/versions.ts); both parse into the same model. */
  readonly format: 'hot' | 'cfn';
  /** The key that names the version: `heat_template_version`, `AWSTemplateFormatVersion` ... */
  readonly key: string;
  /** The parameters the engine supplies (`OS::stack_name` ..., `AWS::StackName` ...). */
  readonly pseudoParameters: readonly string[];
  /** The canonical date, e.g. `2016-10-14`. */
  readonly date: string;
  /** The release name that is an alias of this date, if any (`newton` ... `wallaby`). */
  readonly alias: string | undefined;
  readonly sections: readonly string[];
  readonly resourceKeys: readonly string[];
  readonly outputKeys: readonly string[];
  readonly parameterKeys: readonly string[];
  readonly constraintKeys: readonly string[];
  readonly deletionPolicies: readonly string[];
  /** Whether the `conditions` section and `condition` keys exist. */
  readonly hasConditions: boolean;
  /** Functions usable in values (properties, metadata, outputs ...). */
  readonly functions: FunctionTable & { names(): string[]; get(name: string): FunctionDef | undefined };
  /** Functions usable in the conditions section and `condition` keys (empty before 2016-10-14). */
  readonly conditionFunctions: FunctionTable & { names(): string[] };
}

type Spec = {
  date: string;
  alias?: string;
  /** Function name -> catalogue id of the definition this version uses. */
  functions: Record<string, string>;
  removed: string[];
  conditionFunctions: Record<string, string>;
  extra?: { conditions?: boolean; modulo?: boolean; tags?: boolean; lowerCasePolicies?: boolean };
};

const CFN_2013 = [
  'Fn::GetAZs',
  'Ref',
  'Fn::Join',
  'Fn::Split',
  'Fn::Replace',
  'Fn::Base64',
  'Fn::MemberListToMap',
  'Fn::ResourceFacade',
];

const F2013: Record<string, string> = {
  get_param: 'get_param',
  get_resource: 'get_resource',
  get_attr: 'get_attr@select',
  get_file: 'get_file',
  list_join: 'list_join',
  str_replace: 'str_replace',
  resource_facade: 'resource_facade',
  'Fn::GetAZs': 'Fn::GetAZs',
  Ref: 'Ref',
  'Fn::Select': 'Fn::Select',
  'Fn::Join': 'Fn::Join',
  'Fn::Split': 'Fn::Split',
  'Fn::Replace': 'Fn::Replace',
  'Fn::Base64': 'Fn::Base64',
  'Fn::MemberListToMap': 'Fn::MemberListToMap',
  'Fn::ResourceFacade': 'Fn::ResourceFacade',
};
const F2014: Record<string, string> = {
  get_param: 'get_param',
  get_resource: 'get_resource',
  get_attr: 'get_attr',
  get_file: 'get_file',
  list_join: 'list_join',
  str_replace: 'str_replace',
  resource_facade: 'resource_facade',
  'Fn::Select': 'Fn::Select',
};
const F20150430 = { ...F2014, repeat: 'repeat', digest: 'digest' };
const F20151015: Record<string, string> = {
  ...F20150430,
  get_attr: 'get_attr@all',
  list_join: 'list_join@multi',
  str_replace: 'str_replace@json',
  str_split: 'str_split',
};
delete F20151015['Fn::Select'];
const F20160408 = { ...F20151015, map_merge: 'map_merge' };
const F20161014 = { ...F20160408, repeat: 'repeat@map', yaql: 'yaql', map_replace: 'map_replace', if: 'if' };
const F20170224 = { ...F20161014, filter: 'filter', str_replace_strict: 'str_replace_strict' };
const F20170901 = {
  ...F20170224,
  repeat: 'repeat@nested',
  make_url: 'make_url',
  list_concat: 'list_concat',
  str_replace_vstrict: 'str_replace_vstrict',
  list_concat_unique: 'list_concat_unique',
  contains: 'contains',
};
const F20210416 = { ...F20170901, if: 'if@nullable' };

const C20161014 = { get_param: 'get_param', equals: 'equals', not: 'not', and: 'and', or: 'or' };
const C20170901 = { ...C20161014, yaql: 'yaql', contains: 'contains' };

const SPECS: Spec[] = [
  { date: '2013-05-23', functions: F2013, removed: [], conditionFunctions: {} },
  { date: '2014-10-16', functions: F2014, removed: CFN_2013, conditionFunctions: {} },
  { date: '2015-04-30', functions: F20150430, removed: CFN_2013, conditionFunctions: {} },
  { date: '2015-10-15', functions: F20151015, removed: [...CFN_2013, 'Fn::Select'], conditionFunctions: {} },
  { date: '2016-04-08', functions: F20160408, removed: [...CFN_2013, 'Fn::Select'], conditionFunctions: {} },
  {
    date: '2016-10-14',
    alias: 'newton',
    functions: F20161014,
    removed: [...CFN_2013, 'Fn::Select'],
    conditionFunctions: C20161014,
    extra: { conditions: true, lowerCasePolicies: true },
  },
  {
    date: '2017-02-24',
    alias: 'ocata',
    functions: F20170224,
    removed: [...CFN_2013, 'Fn::Select'],
    conditionFunctions: C20161014,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true },
  },
  {
    date: '2017-09-01',
    alias: 'pike',
    functions: F20170901,
    removed: [...CFN_2013, 'Fn::Select'],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true },
  },
  {
    date: '2018-03-02',
    alias: 'queens',
    functions: F20170901,
    removed: [...CFN_2013, 'Fn::Select'],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true, tags: true },
  },
  {
    date: '2018-08-31',
    alias: 'rocky',
    functions: F20170901,
    removed: [...CFN_2013, 'Fn::Select'],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true, tags: true },
  },
  {
    date: '2021-04-16',
    alias: 'wallaby',
    functions: F20210416,
    removed: [...CFN_2013, 'Fn::Select'],
    conditionFunctions: C20170901,
    extra: { conditions: true, lowerCasePolicies: true, modulo: true, tags: true },
  },
];

/** The first version (by date) whose value functions include `name`. */
function introducedIn(name: string): string | undefined {
  return SPECS.find((s) => Object.hasOwn(s.functions, name))?.date;
}

const ALL_VALUE_FUNCTIONS = new Set(SPECS.flatMap((s) => Object.keys(s.functions)));

export function lookupDef(id: string): FunctionDef {
  const def = Object.hasOwn(FUNCTIONS, id) ? FUNCTIONS[id] : undefined;
  if (!def) throw new Error(`internal: no function definition "${id}" in the catalogue`);
  return def;
}

function buildVersion(spec: Spec): TemplateVersion {
  const label = `heat_template_version ${spec.date}`;
  const defs = new Map(Object.entries(spec.functions).map(([name, id]) => [name, lookupDef(id)]));
  const condDefs = new Map(
    Object.entries(spec.conditionFunctions).map(([name, id]) => [name, lookupDef(id)]),
  );
  const removed = new Set(spec.removed);
  const whyUnavailable = (name: string): string | undefined => {
    if (removed.has(name))
      return `function "${name}" is not supported in ${label}: it was removed in 2014-10-16 or later`;
    if (!ALL_VALUE_FUNCTIONS.has(name)) return undefined;
    const since = introducedIn(name);
    return `function "${name}" is not available in ${label}; it was introduced in heat_template_version ${since}`;
  };
  const conditionTable = {
    lookup: (name: string) => condDefs.get(name),
    unavailable: (name: string) => {
      if (condDefs.has(name)) return undefined;
      if (defs.has(name)) return `function "${name}" cannot be used in a condition in ${label}`;
      return whyUnavailable(name);
    },
    names: () => [...condDefs.keys()],
  };
  const valueTable = {
    lookup: (name: string) => defs.get(name),
    get: (name: string) => defs.get(name),
    unavailable: whyUnavailable,
    names: () => [...defs.keys()],
    conditionScope: conditionTable,
  };
  const e = spec.extra ?? {};
  return {
    format: 'hot',
    key: 'heat_template_version',
    pseudoParameters: PSEUDO_PARAMETERS,
    date: spec.date,
    alias: spec.alias,
    sections: [
      'heat_template_version',
      'description',
      'parameter_groups',
      'parameters',
      'resources',
      'outputs',
      ...(e.conditions ? ['conditions'] : []),
    ],
    resourceKeys: [
      'type',
      'properties',
      'metadata',
      'depends_on',
      'deletion_policy',
      'update_policy',
      'description',
      ...(e.conditions ? ['external_id', 'condition'] : []),
    ],
    // `Description` (CFN's spelling): Heat's API never checks the keys of a stack's outputs, and
    // templates written against it use this one; accepted and, as there, ignored.
    outputKeys: ['description', 'value', ...(e.conditions ? ['condition'] : []), 'Description'],
    parameterKeys: [
      'type',
      'description',
      'default',
      'schema',
      'constraints',
      'hidden',
      'label',
      'immutable',
      ...(e.tags ? ['tags'] : []),
    ],
    constraintKeys: [
      'description',
      'length',
      'range',
      'allowed_values',
      'allowed_pattern',
      'custom_constraint',
      ...(e.modulo ? ['modulo'] : []),
    ],
    deletionPolicies: [
      'Delete',
      'Retain',
      'Snapshot',
      ...(e.lowerCasePolicies ? ['delete', 'retain', 'snapshot'] : []),
    ],
    hasConditions: e.conditions === true,
    functions: valueTable,
    conditionFunctions: conditionTable,
  };
}

const VERSIONS: ReadonlyMap<string, TemplateVersion> = new Map(SPECS.map((s) => [s.date, buildVersion(s)]));
const ALIASES: ReadonlyMap<string, string> = new Map(
  SPECS.filter((s) => s.alias !== undefined).map((s) => [s.alias!, s.date]),
);

/** The version for a `heat_template_version` value (a date or a release alias), or undefined. */
export function findVersion(value: string): TemplateVersion | undefined {
  return VERSIONS.get(ALIASES.get(value) ?? value);
}

/** Every supported version, oldest first. */
export function allVersions(): TemplateVersion[] {
  return [...VERSIONS.values()];
}

/** `2013-05-23, 2014-10-16, ... 2021-04-16 (or newton ... wallaby)`, for error messages. */
export function describeSupportedVersions(): string {
  return `${[...VERSIONS.keys()].join(', ')} (aliases: ${[...ALIASES.keys()].join(', ')})`;
}
