import { getOwn, isPlainObject, type Json, pyJsonDumps, typeName } from '../../util/json.js';
import { type DocPath, TemplateError } from '../errors.js';
import type { ParameterSchema } from './types.js';

/** One entry of `parameter_groups`, which user interfaces use to lay out the parameter form. */
export interface ParameterGroup {
  label?: string;
  description?: string;
  parameters: string[];
}

function groupError(detail: string, path: DocPath): TemplateError {
  return new TemplateError('schema', detail, path);
}

/**
 * Parses the `parameter_groups` section: a list of maps, each with a `parameters` list naming
 * declared parameters, no parameter in two groups. Other keys of a group are ignored, as in Heat.
 */
export function parseParameterGroups(
  section: Json | undefined,
  schemas: ReadonlyMap<string, ParameterSchema>,
): ParameterGroup[] {
  if (section === undefined || section === null) return [];
  if (!Array.isArray(section)) {
    throw groupError(`The parameter_groups should be a list, not a ${typeName(section)}.`, [
      'parameter_groups',
    ]);
  }
  const grouped = new Set<string>();
  return section.map((group, i) => {
    const path: DocPath = ['parameter_groups', i];
    if (!isPlainObject(group)) {
      throw groupError(`Each parameter group should be a map, not a ${typeName(group)}.`, path);
    }
    const result: ParameterGroup = { parameters: [] };
    for (const key of ['label', 'description'] as const) {
      const text = getOwn(group, key);
      if (text === undefined || text === null) continue;
      if (typeof text !== 'string') {
        throw groupError(`The ${key} of a parameter group must be a string, not a ${typeName(text)}.`, [
          ...path,
          key,
        ]);
      }
      result[key] = text;
    }
    const names = getOwn(group, 'parameters');
    if (names === undefined || names === null) {
      throw groupError('The parameters must be provided for each parameter group.', path);
    }
    if (!Array.isArray(names)) {
      throw groupError('The parameters of parameter group should be a list.', [...path, 'parameters']);
    }
    names.forEach((name, j) => {
      const itemPath = [...path, 'parameters', j];
      const shown = typeof name === 'string' ? name : pyJsonDumps(name);
      if (typeof name === 'string' && grouped.has(name)) {
        throw groupError(`The ${shown} parameter must be assigned to one parameter group only.`, itemPath);
      }
      if (typeof name !== 'string' || !schemas.has(name)) {
        throw groupError(`The grouped parameter ${shown} does not reference a valid parameter.`, itemPath);
      }
      grouped.add(name);
      result.parameters.push(name);
    });
    return result;
  });
}
