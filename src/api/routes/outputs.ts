import { Type } from '@sinclair/typebox';
import { stackOutputs } from '../../engine/context/outputs.js';
import type { ApiDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { redactorFor } from '../../views/redact.js';
import type { Api } from '../context.js';
import { stackByIdentity } from '../stack-access.js';
import { stackDefinition } from '../../views/definition.js';
import { StackParams } from './params.js';

const OutputParams = Type.Composite([StackParams, Type.Object({ output_key: Type.String() })]);

/** A stack's outputs: the list (keys and descriptions, nothing resolved) and one output's value. */
export function registerOutputRoutes(app: Api, deps: ApiDeps): void {
  const { engine } = deps;

  app.get(
    '/stacks/:stack_name/:stack_id/outputs',
    { schema: { params: StackParams, tags: ['outputs'] } },
    async (request) => {
      const { stack_name: name, stack_id: id } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const definition = await stackDefinition(engine, stack);
      const outputs = [...(definition?.template.outputs.values() ?? [])].map((o) => ({
        output_key: o.name,
        description: o.description ?? 'No description given',
      }));
      return { outputs };
    },
  );

  app.get(
    '/stacks/:stack_name/:stack_id/outputs/:output_key',
    { schema: { params: OutputParams, tags: ['outputs'] } },
    async (request) => {
      const { stack_name: name, stack_id: id, output_key: key } = request.params;
      const stack = await stackByIdentity(engine, request, name, id);
      const output = (await stackOutputs(engine.deps, engine.cache, stack)).find((o) => o.output_key === key);
      if (!output) throw notFound(`The stack ${stack.name} has no output "${key}".`, 'NotFound');
      // An error quotes what failed to resolve, which may be computed from a hidden parameter.
      if (output.output_error !== undefined) {
        output.output_error = (await redactorFor(engine, stack))(output.output_error);
      }
      return { output };
    },
  );
}
