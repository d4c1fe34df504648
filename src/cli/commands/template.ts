import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { toJSON as graphToJSON, toDot } from '../../graph/index.js';
import { environmentToJSON } from '../../template/environment/index.js';
import { TemplateError } from '../../template/errors.js';
import { loadStackInput, type StackInput } from '../../template/loader.js';
import { defineStack, defineStackFromText, type StackDefinition } from '../../template/stack-definition.js';
import { parseTemplate } from '../../template/template.js';
import { EMPTY_CATALOG, type TypeCatalog } from '../../template/types.js';
import { validateResult } from '../../template/validate-result.js';
import { allTemplateVersions, findVersionByName, versionName } from '../../template/formats.js';
import type { Json } from '../../util/json.js';
import { cell, type Format, render, textTable } from '../output.js';

/** How the CLI reads files: local paths and file:// URLs. */
export function readLocalFile(url: string): string {
  return readFileSync(url.startsWith('file:') ? fileURLToPath(url) : url, 'utf8');
}

interface StackOptions {
  template: string;
  environment: string[];
  parameter: string[];
  strict?: boolean;
}

/** `K=V` pairs into a map; a value that is JSON (list, map) is parsed, others stay strings. */
export function parseParameterArgs(pairs: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new TemplateError('parameter', `--parameter expects KEY=VALUE, got "${pair}"`);
    Object.defineProperty(out, pair.slice(0, eq), {
      value: pair.slice(eq + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Loads the template, environments and files, and defines the stack (validation happens here). */
export function defineFromOptions(
  opts: StackOptions,
  types: TypeCatalog = EMPTY_CATALOG,
  extra: { allowUnknownTypes?: boolean } = {},
  input: StackInput = loadStackInput(opts.template, opts.environment, readLocalFile),
): StackDefinition {
  const environment = {
    ...input.environment,
    parameters: { ...input.environment.parameters, ...parseParameterArgs(opts.parameter) },
  };
  const options = { files: input.files, environment, strict: opts.strict ?? false, types, ...extra };
  // The loader's parse, under the same (default) limits: the text is not parsed again.
  return input.parsed
    ? defineStack(parseTemplate(input.parsed), options)
    : defineStackFromText(input.url, input.text, options);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function validateTable(result: Record<string, unknown>): string {
  const params = result.Parameters as Record<string, Record<string, unknown>>;
  const rows = Object.entries(params).map(([name, p]) => {
    const constraints = Object.entries(p)
      .filter(([k]) => !['Type', 'Description', 'Default', 'Value', 'NoEcho', 'Label'].includes(k))
      .map(([k, v]) => `${k}: ${cell(v)}`)
      .join('\n');
    return [name, cell(p.Type), cell(p.Default), cell(p.Value), constraints, cell(p.Description)];
  });
  let out = `Description: ${cell(result.Description)}\n`;
  if (rows.length > 0) {
    out += textTable(['Parameter', 'Type', 'Default', 'Value', 'Constraints', 'Description'], rows);
  }
  if (result.ParameterGroups) out += `ParameterGroups:\n${render(result.ParameterGroups, 'yaml', () => '')}`;
  return out;
}

/** `types` is called only by the commands that need the catalog (building it costs start-up). */
export function registerTemplateCommands(
  program: Command,
  types: () => TypeCatalog,
  print: (s: string) => void,
): void {
  const template = program.command('template').description('Validate and inspect HOT templates');

  template
    .command('validate')
    .description('Validate a template with its environments and parameters, as Heat validate does')
    .requiredOption('-t, --template <file>', 'the template file')
    .option('-e, --environment <file>', 'an environment file (repeatable, merged in order)', collect, [])
    .option('--parameter <key=value>', 'a parameter value (repeatable)', collect, [])
    .option('--strict', 'parameters without a value are errors (as at stack create)')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .option('--show-environment', 'include the merged environment in the output')
    .action((opts: StackOptions & { format: Format; showEnvironment?: boolean }) => {
      const input = loadStackInput(opts.template, opts.environment, readLocalFile);
      const stack = defineFromOptions(opts, types(), {}, input);
      const supplied = [
        ...Object.keys(input.environment.parameters),
        ...Object.keys(parseParameterArgs(opts.parameter)),
      ];
      const result = validateResult(stack, { supplied });
      if (opts.showEnvironment) result.Environment = environmentToJSON(input.environment);
      print(render(result, checkFormat(opts.format, ['table', 'json', 'yaml']), () => validateTable(result)));
    });

  template
    .command('graph')
    .description('Print the resource dependency graph of a template')
    .requiredOption('-t, --template <file>', 'the template file')
    .option('-e, --environment <file>', 'an environment file (repeatable, merged in order)', collect, [])
    .option('--parameter <key=value>', 'a parameter value (repeatable)', collect, [])
    .option('-f, --format <format>', 'dot or json', 'dot')
    .action((opts: StackOptions & { format: string }) => {
      // The graph needs only the structure: types no plugin implements yet do not stop it.
      const stack = defineFromOptions(opts, types(), { allowUnknownTypes: true });
      const format = checkFormat(opts.format, ['dot', 'json']);
      if (format === 'json') {
        const json = graphToJSON(stack.graph);
        const types: Record<string, string> = {};
        for (const [name, res] of stack.resources) types[name] = res.definition.type;
        print(`${JSON.stringify({ ...json, types }, null, 2)}\n`);
      } else {
        print(
          toDot(stack.graph, {
            name: 'stack',
            // A real newline: quote() writes it as DOT's \n escape, which Graphviz draws as a line break.
            label: (name) => `${name}\n${stack.resources.get(name)?.definition.type ?? ''}`,
          }),
        );
      }
    });

  template
    .command('functions')
    .description('List the intrinsic functions a template version allows')
    .requiredOption(
      '--template-version <version>',
      'a heat_template_version date or alias (e.g. 2018-08-31, rocky), or AWSTemplateFormatVersion.2010-09-09',
    )
    .option('--with-conditions', 'also list the condition functions')
    .option('-f, --format <format>', 'table, json or yaml', 'table')
    .action((opts: { templateVersion: string; withConditions?: boolean; format: Format }) => {
      const version = findVersionByName(opts.templateVersion);
      if (!version) {
        throw new TemplateError(
          'version',
          `unknown template version "${opts.templateVersion}"; known: ${allTemplateVersions()
            .map((v) => (v.format === 'cfn' ? versionName(v) : v.date + (v.alias ? ` (${v.alias})` : '')))
            .join(', ')}`,
        );
      }
      const rows = version.functions.names().map((name) => ({
        functions: name,
        description: version.functions.get(name)!.description,
      }));
      if (opts.withConditions) {
        for (const name of version.conditionFunctions.names()) {
          // CloudFormation's Ref and Fn::FindInMap are in both tables: listed once, as Heat's API does.
          if (version.format === 'cfn' && version.functions.get(name)) continue;
          rows.push({ functions: name, description: version.conditionFunctions.lookup(name)!.description });
        }
      }
      const result = { template_functions: rows };
      print(
        render(result, checkFormat(opts.format, ['table', 'json', 'yaml']), () =>
          textTable(
            ['Functions', 'Description'],
            rows.map((r) => [r.functions, r.description]),
          ),
        ),
      );
    });
}

function checkFormat<T extends string>(format: string, allowed: readonly T[]): T {
  if (!allowed.includes(format as T)) {
    throw new TemplateError('schema', `unknown output format "${format}"; expected ${allowed.join(', ')}`);
  }
  return format as T;
}
