import { readFileSync } from 'node:fs';
import type { Command } from 'commander';

interface SandboxServeOptions {
  host: string;
  port: string;
  state?: string;
  noise?: string;
  publicUrl?: string;
  users?: string;
  printEnv?: boolean;
}

/** `--noise` as JSON text, or `@file` holding it. */
function readNoise(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const text = value.startsWith('@') ? readFileSync(value.slice(1), 'utf8') : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`--noise: not JSON: ${(error as Error).message}`);
  }
}

/** `--users alice,bob`: user names, each a Keystone name (no blank, no duplicate). */
export function readUsers(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names = value.split(',').map((n) => n.trim());
  for (const name of names) {
    if (name === '' || name.length > 64 || !/^[\w.@-]+$/.test(name)) {
      throw new Error(`--users: not a user name: ${JSON.stringify(name)} (letters, digits, . _ @ -)`);
    }
  }
  return [...new Set(names)];
}

/** `export NAME='value'` lines a shell can paste or eval (values single-quoted). */
function exportLines(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([name, value]) => `export ${name}='${value.replace(/'/g, `'\\''`)}'\n`)
    .join('');
}

function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * `hearth sandbox serve`: a local OpenStack-compatible cloud (Keystone, Nova, Neutron, Cinder,
 * Glance on one port, path-routed) with noise knobs, for tests and demos.
 */
export function registerSandboxCommands(program: Command, print: (s: string) => void): void {
  const sandbox = program
    .command('sandbox')
    .description('A local OpenStack-compatible cloud for tests and demos');
  sandbox
    .command('serve')
    .description('Serve the sandbox cloud until SIGTERM or SIGINT')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks one)', '8780')
    .option('--state <file>', 'the SQLite file the cloud keeps its state in (default: memory only)')
    .option('--noise <json|@file>', 'noise settings, e.g. {"bootFailureRate":0.1,"latencyMs":50}')
    .option(
      '--users <names>',
      'extra users to seed, comma-separated: each in its own project, password = name',
    )
    .option('--public-url <url>', 'the URL to advertise in the service catalog (default: the request’s host)')
    .option(
      '--print-env',
      'print the export lines for the openstack client of the sandbox these options serve, and exit: eval "$(hearth sandbox serve --print-env)"',
    )
    .action(async (options: SandboxServeOptions) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new Error(`--port: not a port: ${options.port}`);
      if (options.printEnv) {
        if (port === 0 && !options.publicUrl)
          throw new Error('--print-env needs a fixed --port (or --public-url)');
        const { sandboxClientEnv } = await import('../../sandbox/client-env.js');
        print(exportLines(sandboxClientEnv(options.publicUrl ?? `http://${hostPart(options.host)}:${port}`)));
        return;
      }
      const noise = readNoise(options.noise);
      const users = readUsers(options.users);
      // Loaded only here: every other command would pay for Fastify.
      const { createSandbox, sandboxClientEnv, FIRST_REGION, SECOND_REGION } =
        await import('../../sandbox/index.js');
      const { app } = createSandbox({
        ...(options.state ? { file: options.state } : {}),
        ...(noise !== undefined ? { noise } : {}),
        ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
        users,
      });
      const address = await app.listen({ host: options.host, port });
      const url = options.publicUrl ?? address;
      print(
        `sandbox cloud listening on ${url}\n` +
          `users (user/password): admin/admin (admin), ${['demo', ...users, 'hearth'].map((u) => `${u}/${u}`).join(', ')}\n` +
          `regions: ${FIRST_REGION} (the default), ${SECOND_REGION} (export OS_REGION_NAME=${SECOND_REGION})\n` +
          `for the openstack client as demo, paste into a shell:\n${exportLines(sandboxClientEnv(url))}`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          void app.close().then(() => resolve());
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
    });
}
