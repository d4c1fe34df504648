import { isPlainObject, type Json, type JsonObject } from '../util/json.js';
import type { ConfigInput, ConfigOutput, SoftwareConfigRecord } from './contract.js';

/** Bad input to the software config service: the API answers 400 with Heat's fault type. */
export class SoftwareInputError extends Error {
  override readonly name = 'SoftwareInputError';
  constructor(
    message: string,
    readonly type = 'HTTPBadRequest',
  ) {
    super(message);
  }
}

const TYPES = ['String', 'Number', 'CommaDelimitedList', 'Json', 'Boolean'];

/** Heat's check_io_schema_list: a list of objects (the API's 400 for anything else). */
function ioList(value: unknown, what: string): Record<string, unknown>[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new SoftwareInputError(`Software Config I/O Schema must be in a list (${what})`);
  if (!value.every((v) => isPlainObject(v)))
    throw new SoftwareInputError(`Software Config I/O Schema must be a dict (${what})`);
  return value as Record<string, unknown>[];
}

function field(io: Record<string, unknown>, key: string, what: string, kind: 'string' | 'boolean'): unknown {
  const value = io[key];
  if (value === undefined || value === null) return undefined;
  if (kind === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  } else if (typeof value === 'string') return value;
  throw new SoftwareInputError(`Property error: ${what}.${key}: Value must be a ${kind}`);
}

function common(
  io: Record<string, unknown>,
  what: string,
): { name: string; type: string; description?: string } {
  const name = field(io, 'name', what, 'string');
  if (name === undefined) throw new SoftwareInputError(`Property error: ${what}: Property name not assigned`);
  const type = (field(io, 'type', what, 'string') as string | undefined) ?? 'String';
  if (!TYPES.includes(type)) {
    throw new SoftwareInputError(
      `Property error: ${what}.type: "${type}" is not an allowed value [${TYPES.join(', ')}]`,
    );
  }
  const description = field(io, 'description', what, 'string') as string | undefined;
  return { name: name as string, type, ...(description !== undefined ? { description } : {}) };
}

/** An input's default (or value) in its declared type, as Heat's parameter schema converts it. */
function typed(value: Json, type: string, where: string): Json {
  if (value === '' && type !== 'String') return value;
  const bad = () =>
    new SoftwareInputError(`Property error: ${where}: Value "${String(value)}" is not a ${type}`);
  switch (type) {
    case 'String':
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        return String(value);
      throw bad();
    case 'Number': {
      if (typeof value === 'number') return value;
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (Number.isFinite(n)) return n;
      throw bad();
    }
    case 'Boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false|t|f|yes|no|y|n|on|off|1|0)$/i.test(value))
        return /^(true|t|yes|y|on|1)$/i.test(value);
      throw bad();
    case 'CommaDelimitedList':
      if (Array.isArray(value)) return value;
      if (typeof value === 'string') return value.split(',').map((s) => s.trim());
      throw bad();
    default: // Json
      if (typeof value === 'string') {
        try {
          return JSON.parse(value) as Json;
        } catch {
          throw bad();
        }
      }
      if (typeof value === 'object') return value;
      throw bad();
  }
}

/** Heat's InputConfig: validated, with its defaults (`type` String, `replace_on_change` false). */
export function configInputs(value: unknown): ConfigInput[] {
  return ioList(value, 'inputs').map((io, i) => {
    const what = `inputs[${i}]`;
    const input: ConfigInput = { ...common(io, what), replace_on_change: false };
    if (io.default !== undefined && io.default !== null)
      input.default = typed(io.default as Json, input.type, `${what}.default`);
    input.replace_on_change =
      (field(io, 'replace_on_change', what, 'boolean') as boolean | undefined) ?? false;
    if (Object.hasOwn(io, 'value')) input.value = (io.value ?? null) as Json;
    return input;
  });
}

/** Heat's OutputConfig: validated, with its defaults (`type` String, `error_output` false). */
export function configOutputs(value: unknown): ConfigOutput[] {
  return ioList(value, 'outputs').map((io, i) => {
    const what = `outputs[${i}]`;
    const error = (field(io, 'error_output', what, 'boolean') as boolean | undefined) ?? false;
    return { ...common(io, what), error_output: error };
  });
}

/** An input as Heat persists and shows it (as_dict: replace_on_change only when true). */
export function inputJSON(input: ConfigInput): JsonObject {
  const { replace_on_change: replace, ...rest } = input;
  const out: JsonObject = { ...rest } as JsonObject;
  if (replace) out.replace_on_change = true;
  return out;
}

/** A field of a request body that is absent, null or a string (null is absent, as in Heat). */
export function bodyString(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new SoftwareInputError(`${key} must be a string`);
  return value;
}

/** A field of a request body that is absent, null or a JSON object. */
export function bodyObject(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw new SoftwareInputError(`${key} must be a JSON object`);
  return value as JsonObject;
}

/** Heat's create_software_config body as a config to create (the service checks its IO). */
export function configFromBody(
  id: string,
  body: JsonObject,
): Omit<SoftwareConfigRecord, 'projectId' | 'createdAt'> {
  return {
    id,
    name: bodyString(body, 'name') ?? '',
    group: bodyString(body, 'group') ?? '',
    config: body.config ?? null,
    inputs: (body.inputs ?? []) as unknown as ConfigInput[],
    outputs: (body.outputs ?? []) as unknown as ConfigOutput[],
    options: bodyObject(body, 'options') ?? {},
  };
}
