import type { Command } from 'commander';
import { type Authenticator, noauthAuthenticator, standaloneAuthenticator } from '../../api/authenticator.js';
import { apiLogger } from '../../api/logging.js';
import { AUTH_MODES, type AuthMode, type Config } from '../../config/options.js';
import type { Engine } from '../../engine/engine.js';
import { cliConfig, type GlobalOptions, openEngine } from '../embedded.js';

interface ServeOptions {
  host?: string;
  port?: string;
  auth?: string;
  workers: boolean;
}

/** Addresses only this machine can reach: the only ones `noauth` may listen on. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function authenticatorFor(mode: AuthMode, engine: Engine, host: string): Authenticator {
  switch (mode) {
    case 'standalone':
      return standaloneAuthenticator(engine.deps.store);
    case 'noauth':
      if (!isLoopback(host)) {
        throw new Error(`--auth noauth trusts every request: it serves loopback addresses only, not ${host}`);
      }
      return noauthAuthenticator();
    case 'keystone':
      throw new Error('--auth keystone is not available yet');
  }
}

/**
 * `hearth serve`: the Heat-compatible API with engine workers in the same process, until SIGTERM
 * or SIGINT; then it stops listening, lets running units finish, and exits.
 */
export function registerServeCommand(program: Command, print: (s: string) => void): void {
  program
    .command('serve')
    .description('Run the Heat-compatible REST API (with engine workers unless --no-workers)')
    .option('--host <host>', 'address to listen on (config bind_host, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (config bind_port, default 8004; 0 picks one)')
    .option('--auth <mode>', `authentication: ${AUTH_MODES.join(', ')} (config auth_mode)`)
    .option('--no-workers', 'serve the API only; engines started elsewhere run the work')
    .action(async (opts: ServeOptions) => {
      const global = program.opts<GlobalOptions>();
      const config = withServeOptions(cliConfig(global), opts);
      const engine = await openEngine(config, global);
      const logger = apiLogger(config.log_level);
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      try {
        const authenticator = authenticatorFor(config.auth_mode, engine, config.bind_host);
        // Loaded here: every other command would pay for Fastify and prom-client at start-up.
        const { buildServer } = await import('../../api/server.js');
        const app = await buildServer({ engine, authenticator, limits: config }, { logger });
        const address = await app.listen({ host: config.bind_host, port: config.bind_port });
        print(`Hearth API listening on ${address} (auth: ${config.auth_mode})\n`);
        if (opts.workers) await engine.runUntil(async () => false, { signal: stop.signal });
        else await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
        await app.close();
      } finally {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        await engine.stop();
        await engine.deps.store.close();
      }
      print('Hearth API stopped\n');
    });
}

function withServeOptions(config: Config, opts: ServeOptions): Config {
  const port = opts.port === undefined ? config.bind_port : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535, got "${opts.port}"`);
  if (opts.auth !== undefined && !(AUTH_MODES as readonly string[]).includes(opts.auth)) {
    throw new Error(`--auth must be one of ${AUTH_MODES.join(', ')}, got "${opts.auth}"`);
  }
  return {
    ...config,
    bind_host: opts.host ?? config.bind_host,
    bind_port: port,
    auth_mode: (opts.auth as AuthMode | undefined) ?? config.auth_mode,
  };
}
