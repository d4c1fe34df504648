import { getOwn, isPlainObject, type Json, setOwn, typeName } from '../../util/json.js';
import { TemplateError } from '../errors.js';
import { DEFAULT_LIMITS, type TemplateLimits } from '../limits.js';
import { parseSource, type SourceDocument } from '../source.js';
import { parseRegistry } from './parse-registry.js';
import {
  ENVIRONMENT_SECTIONS,
  type Environment,
  emptyEnvironment,
  MERGE_STRATEGIES,
  type MergeStrategy,
} from './types.js';

export type DocumentLimits = Pick<
  TemplateLimits,
  'maxDocumentBytes' | 'maxDocumentDepth' | 'maxDocumentNodes' | 'maxAliasCount'
>;

export interface ParseEnvironmentOptions {
  /**
   * Rewrite relative template paths in resource_registry to absolute URLs taken from `file` (or a
   * `base_url`), as the Heat client does before sending an environment. Default true; false keeps
   * them as written, e.g. for names that key an API request's files map, and leaves the
   * environment's `file` unset so that nothing resolves them later.
   */
  resolveTemplates?: boolean;
}

/**
 * Parses one environment file (YAML or JSON), with Heat's sections and checks. An empty document is
 * an empty environment. Every error names the file, line and column.
 */
export function parseEnvironment(
  file: string,
  text: string,
  limits: DocumentLimits = DEFAULT_LIMITS,
  options: ParseEnvironmentOptions = {},
): Environment {
  const doc = parseSource(file, text, limits);
  try {
    return fromData(doc, options.resolveTemplates === false ? undefined : file);
  } catch (err) {
    throw doc.annotate(err);
  }
}

function fromData(doc: SourceDocument, templateBase: string | undefined): Environment {
  const env: Environment = { ...emptyEnvironment(), source: doc };
  // Without a file, template names stay names: nothing resolves them against a directory later.
  if (templateBase !== undefined) env.file = templateBase;
  const data = doc.data;
  if (data === null) return env;
  if (!isPlainObject(data)) {
    throw new TemplateError(
      'environment',
      `the environment is not a valid YAML mapping data type (got ${typeName(data)})`,
    );
  }
  for (const [section, value] of Object.entries(data)) {
    if (!(ENVIRONMENT_SECTIONS as readonly string[]).includes(section)) {
      throw new TemplateError(
        'environment',
        `environment has wrong section "${section}"; allowed sections are: ${ENVIRONMENT_SECTIONS.join(', ')}`,
        [section],
      );
    }
    if (value === null)
      throw new TemplateError('environment', `environment has empty section "${section}"`, [section]);
  }

  const parameters = getOwn(data, 'parameters');
  if (parameters !== undefined) env.parameters = mapSection(parameters, 'parameters');
  const defaults = getOwn(data, 'parameter_defaults');
  if (defaults !== undefined) env.parameterDefaults = mapSection(defaults, 'parameter_defaults');
  const registry = getOwn(data, 'resource_registry');
  if (registry !== undefined)
    env.resourceRegistry = parseRegistry(registry, ['resource_registry'], templateBase);
  const sinks = getOwn(data, 'event_sinks');
  if (sinks !== undefined) env.eventSinks = eventSinks(sinks);
  const strategies = getOwn(data, 'parameter_merge_strategies');
  if (strategies !== undefined) env.parameterMergeStrategies = mergeStrategies(strategies);
  const encrypted = getOwn(data, 'encrypted_param_names');
  if (encrypted !== undefined) env.encryptedParamNames = stringList(encrypted, 'encrypted_param_names');
  return env;
}

function mapSection(value: Json, section: string): Record<string, Json> {
  if (!isPlainObject(value)) {
    throw new TemplateError('environment', `section "${section}" must be a map, got ${typeName(value)}`, [
      section,
    ]);
  }
  return value as Record<string, Json>;
}

function eventSinks(value: Json): Json[] {
  if (!Array.isArray(value)) {
    throw new TemplateError('environment', `section "event_sinks" must be a list, got ${typeName(value)}`, [
      'event_sinks',
    ]);
  }
  value.forEach((sink, i) => {
    if (!isPlainObject(sink)) {
      throw new TemplateError('environment', `an event sink must be a map, got ${typeName(sink)}`, [
        'event_sinks',
        i,
      ]);
    }
    // Heat builds each sink from its "type" and passes the other keys to it.
    if (typeof getOwn(sink, 'type') !== 'string') {
      throw new TemplateError('environment', 'an event sink needs a "type" (e.g. zaqar-queue)', [
        'event_sinks',
        i,
      ]);
    }
  });
  return value;
}

function mergeStrategies(value: Json): Record<string, MergeStrategy> {
  const section = 'parameter_merge_strategies';
  const map = mapSection(value, section);
  const out: Record<string, MergeStrategy> = {};
  for (const [name, strategy] of Object.entries(map)) {
    // Heat quietly falls back to the default for an unknown strategy; a typo deserves an error.
    if (typeof strategy !== 'string' || !(MERGE_STRATEGIES as readonly string[]).includes(strategy)) {
      throw new TemplateError(
        'environment',
        `invalid merge strategy ${JSON.stringify(strategy)} for "${name}"; allowed strategies are: ${MERGE_STRATEGIES.join(', ')}`,
        [section, name],
      );
    }
    setOwn(out, name, strategy as MergeStrategy);
  }
  return out;
}

function stringList(value: Json, section: string): string[] {
  if (!Array.isArray(value)) {
    throw new TemplateError('environment', `section "${section}" must be a list, got ${typeName(value)}`, [
      section,
    ]);
  }
  return value.map((item, i) => {
    if (typeof item !== 'string') {
      throw new TemplateError('environment', `"${section}" must list strings, got ${typeName(item)}`, [
        section,
        i,
      ]);
    }
    return item;
  });
}
