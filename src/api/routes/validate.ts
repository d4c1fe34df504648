import { Type } from '@sinclair/typebox';
import { checkCloudConstraints, cloudConstraintCollector } from '../../engine/context/cloud-constraints.js';
import { defineStackFromText } from '../../template/stack-definition.js';
import { checkingOwner } from '../credentials.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../errors.js';
import { queryBool } from '../request/query.js';
import { nullFieldsAbsent, TemplateBody } from '../request/stack-body.js';
import { type TemplateFields, templateInput } from '../request/template-input.js';
import type { Api } from '../context.js';
import { validateBody } from '../views/validate.js';

const ValidateQuery = Type.Object({
  show_nested: Type.Optional(Type.String()),
  ignore_errors: Type.Optional(Type.String()),
});

/**
 * Heat's error codes `ignore_errors` may name. Its only one (a service missing from the catalog)
 * cannot happen in Hearth, so there is never anything to ignore; other codes are refused as Heat does.
 */
const IGNORABLE_CODES = new Set(['99001']);

/**
 * `POST /validate`: the template, files and environment of a create body, bound as a create would
 * bind them but with missing parameter values unknown (Heat's validate needs none). Invalid: 400
 * with the file, line and path of the error.
 */
export function registerValidateRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;
  app.post(
    '/validate',
    {
      schema: { body: TemplateBody, querystring: ValidateQuery, tags: ['templates'] },
      preValidation: nullFieldsAbsent,
    },
    async (request) => {
      const { show_nested, ignore_errors } = request.query;
      const nested = queryBool(show_nested, 'show_nested');
      const unknownCodes = (ignore_errors ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '' && !IGNORABLE_CODES.has(c));
      if (unknownCodes.length > 0)
        throw badRequest(`Invalid codes in ignore_errors: ${unknownCodes.join(', ')}`);
      const limits = engine.deps.settings.limits;
      const input = await templateInput(request.body as TemplateFields, limits);
      const constraints = cloudConstraintCollector(engine.deps, checkingOwner(deps, request.identity));
      const definition = defineStackFromText(input.url, input.text, {
        files: input.files,
        environment: input.environment,
        strict: false,
        types: engine.deps.plugins.typeCatalog,
        limits,
        projectId: request.identity.projectId,
        ...(constraints ? { deferredConstraints: constraints } : {}),
      });
      // As Heat's validate: a flavor or image the cloud lacks is an error here too.
      await checkCloudConstraints(constraints);
      return validateBody(definition, input.environment, { nested });
    },
  );
}
