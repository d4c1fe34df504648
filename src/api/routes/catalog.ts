import { Type } from '@sinclair/typebox';
import type { ResourcePlugin } from '../../resources/contract.js';
import { providerTemplate } from '../../template/properties/index.js';
import { allTemplateVersions, findVersionByName } from '../../template/formats.js';
import { HEARTH_VERSION } from '../../version.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../errors.js';
import { queryBool } from '../request/query.js';
import type { Api } from '../context.js';
import {
  resourceTypeJSON,
  supportStatusOf,
  templateFunctionsJSON,
  templateVersionJSON,
} from '../views/catalog.js';

const SUPPORT_STATUSES = ['UNKNOWN', 'SUPPORTED', 'DEPRECATED', 'UNSUPPORTED', 'HIDDEN'];

const TypesQuery = Type.Object({
  name: Type.Optional(Type.String()),
  version: Type.Optional(Type.String()),
  support_status: Type.Optional(Type.String()),
  with_description: Type.Optional(Type.String()),
});
const TypeParams = Type.Object({ project_id: Type.String(), type_name: Type.String() });
const TypeQuery = Type.Object({ with_description: Type.Optional(Type.String()) });
const TemplateQuery = Type.Object({ template_type: Type.Optional(Type.String()) });
const VersionParams = Type.Object({ project_id: Type.String(), template_version: Type.String() });
const FunctionsQuery = Type.Object({ with_condition_func: Type.Optional(Type.String()) });

/**
 * `name` is a regular expression matched at the start of the type name, as Python's re.match;
 * one that does not compile matches nothing (as in Heat). Patterns that could backtrack for
 * seconds (a quantified group, many quantifiers) are refused: one request must not stall the API.
 */
function nameMatcher(pattern: string | undefined): (type: string) => boolean {
  if (pattern === undefined) return () => true;
  const quantifiers = pattern.match(/[*+?]|\{\d/g)?.length ?? 0;
  if (pattern.length > 128 || quantifiers > 4 || /\)[*+?{]/.test(pattern)) {
    throw badRequest(`the name pattern "${pattern}" is too complex: at most 4 quantifiers, none on a group`);
  }
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})`);
  } catch {
    return () => false;
  }
  return (type) => re.test(type);
}

/**
 * What Hearth offers independently of any stack: the resource types (from the plugin catalog),
 * the template versions and their functions, and the build.
 */
export function registerCatalogRoutes(app: Api, deps: ApiDeps): void {
  const plugins = deps.engine.deps.plugins;

  /** A type offered to templates: HIDDEN ones are not. */
  function offered(type: string): ResourcePlugin {
    const plugin = plugins.plugin(type);
    if (!plugin || supportStatusOf(plugin).status === 'HIDDEN') {
      throw notFound(`The Resource Type (${type}) could not be found.`, 'ResourceTypeNotFound');
    }
    return plugin;
  }

  app.get(
    '/resource_types',
    { schema: { querystring: TypesQuery, tags: ['resource types'] } },
    async (request) => {
      const q = request.query;
      const withDescription = queryBool(q.with_description, 'with_description');
      if (q.support_status !== undefined && !SUPPORT_STATUSES.includes(q.support_status)) {
        throw badRequest(
          `support_status "${q.support_status}" is not one of ${SUPPORT_STATUSES.join(', ')}`,
          'Invalid',
        );
      }
      const matches = nameMatcher(q.name);
      const types = plugins
        .types()
        .map((type) => plugins.plugin(type)!)
        .filter((plugin) => {
          const { status, version } = supportStatusOf(plugin);
          return (
            status !== 'HIDDEN' &&
            matches(plugin.type) &&
            (q.support_status === undefined || status === q.support_status) &&
            (q.version === undefined || version === q.version)
          );
        });
      return {
        resource_types: types.map((p) =>
          withDescription ? { resource_type: p.type, description: p.description } : p.type,
        ),
      };
    },
  );

  app.get(
    '/resource_types/:type_name',
    { schema: { params: TypeParams, querystring: TypeQuery, tags: ['resource types'] } },
    async (request) => {
      const plugin = offered(request.params.type_name);
      return resourceTypeJSON(plugin, queryBool(request.query.with_description, 'with_description'));
    },
  );

  app.get(
    '/resource_types/:type_name/template',
    { schema: { params: TypeParams, querystring: TemplateQuery, tags: ['resource types'] } },
    async (request) => {
      const plugin = offered(request.params.type_name);
      // Heat's default is cfn.
      const format = (request.query.template_type ?? 'cfn').toLowerCase();
      if (format !== 'hot' && format !== 'cfn') {
        throw badRequest(`Template type is not supported: ${request.query.template_type}; use hot or cfn`);
      }
      return providerTemplate(plugin.type, plugin.properties, plugin.attributes, format);
    },
  );

  app.get('/template_versions', { schema: { tags: ['templates'] } }, async () => ({
    template_versions: allTemplateVersions().map(templateVersionJSON),
  }));

  app.get(
    '/template_versions/:template_version/functions',
    { schema: { params: VersionParams, querystring: FunctionsQuery, tags: ['templates'] } },
    async (request) => {
      const name = request.params.template_version;
      const version = name.includes('.') ? findVersionByName(name) : undefined;
      if (!version) throw notFound(`Template with version ${name} not found`, 'NotFound');
      const withConditions = queryBool(request.query.with_condition_func, 'with_condition_func');
      return { template_functions: templateFunctionsJSON(version, withConditions) };
    },
  );

  app.get('/build_info', { schema: { tags: ['build'] } }, async () => ({
    api: { revision: HEARTH_VERSION },
    engine: { revision: HEARTH_VERSION },
  }));
}
