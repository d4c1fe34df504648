/**
 * The heat-cfntools commands' options as their argparse parsers take them (bin/cfn-init,
 * cfn-signal, cfn-hup, cfn-get-metadata): `-s VALUE`, `-sVALUE`, `--stack VALUE`, `--stack=VALUE`,
 * flags, one positional at most. A bad command line is argparse's exit status 2.
 */

interface Option {
  short?: string;
  long: string;
  dest: string;
  flag?: boolean;
}

export interface ToolSpec {
  options: Option[];
  /** The positional argument's name, if the tool takes one (required then). */
  positional?: string;
  required?: string[];
}

export const TOOLS: Record<string, ToolSpec> = {
  'cfn-init': {
    options: [
      { short: '-s', long: '--stack', dest: 'stack' },
      { short: '-r', long: '--resource', dest: 'resource' },
      { long: '--access-key', dest: 'accessKey' },
      { long: '--secret-key', dest: 'secretKey' },
      { long: '--region', dest: 'region' },
      { short: '-c', long: '--configsets', dest: 'configsets' },
    ],
  },
  'cfn-signal': {
    options: [
      { short: '-s', long: '--success', dest: 'success' },
      { short: '-r', long: '--reason', dest: 'reason' },
      { short: '-d', long: '--data', dest: 'data' },
      { short: '-i', long: '--id', dest: 'id' },
      { short: '-e', long: '--exit-code', dest: 'exitCode' },
      { long: '--exit', dest: 'exit' },
      { short: '-k', long: '--insecure', dest: 'insecure', flag: true },
    ],
    positional: 'url',
  },
  'cfn-hup': {
    options: [
      { short: '-c', long: '--config', dest: 'config' },
      { short: '-f', long: '--no-daemon', dest: 'noDaemon', flag: true },
      { short: '-v', long: '--verbose', dest: 'verbose', flag: true },
    ],
  },
  'cfn-get-metadata': {
    options: [
      { short: '-s', long: '--stack', dest: 'stack' },
      { short: '-r', long: '--resource', dest: 'resource' },
      { long: '--access-key', dest: 'accessKey' },
      { long: '--secret-key', dest: 'secretKey' },
      { long: '--region', dest: 'region' },
      { long: '--credential-file', dest: 'credentialFile' },
      { short: '-u', long: '--url', dest: 'url' },
      { short: '-k', long: '--key', dest: 'key' },
    ],
    required: ['stack', 'resource'],
  },
};

export type Parsed = { ok: true; values: Record<string, string> } | { ok: false; error: string };

export function parseOptions(tool: string, args: readonly string[]): Parsed {
  const spec = TOOLS[tool]!;
  const values: Record<string, string> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    let option = spec.options.find((o) => o.long === name || o.short === name);
    let inline: string | undefined = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (!option && !arg.startsWith('--') && arg.length > 2) {
      // `-sVALUE`: a short option with its value attached.
      option = spec.options.find((o) => o.short === arg.slice(0, 2));
      inline = arg.slice(2);
    }
    if (!option) return { ok: false, error: `${tool}: error: unrecognized arguments: ${arg}` };
    if (option.flag) {
      values[option.dest] = 'true';
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) {
      return { ok: false, error: `${tool}: error: argument ${option.long}: expected one argument` };
    }
    values[option.dest] = value;
  }
  if (spec.positional) {
    if (positionals.length === 0) {
      return { ok: false, error: `${tool}: error: the following arguments are required: ${spec.positional}` };
    }
    values[spec.positional] = positionals.shift()!;
  }
  if (positionals.length > 0) {
    return { ok: false, error: `${tool}: error: unrecognized arguments: ${positionals.join(' ')}` };
  }
  for (const dest of spec.required ?? []) {
    if (values[dest] === undefined) {
      const option = spec.options.find((o) => o.dest === dest)!;
      return { ok: false, error: `${tool}: error: the following arguments are required: ${option.long}` };
    }
  }
  return { ok: true, values };
}
