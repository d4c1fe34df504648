import type { Logger } from 'pino';
import type { Command } from 'commander';
import { AgentSigner } from '../../auth/agent-credentials.js';
import { StackUserKeys } from '../../auth/stack-user-keys.js';
import { SignalSigner } from '../../auth/signal-tokens.js';
import {
  type Authenticator,
  keystoneAuthenticator,
  noauthAuthenticator,
  standaloneAuthenticator,
} from '../../api/authenticator.js';
import { keystoneTrustMaker, type TrustMaker } from '../../api/credentials.js';
import { apiLogger } from '../../api/logging.js';
import { credentialBox, loadDeploymentKey } from '../../auth/deployment-key.js';
import { KeystoneTrusts } from '../../auth/trusts.js';
import { KeystoneClient, keystoneSettings, v3Endpoint } from '../../auth/keystone.js';
import { AUTH_MODES, type AuthMode, type Config } from '../../config/options.js';
import type { Engine } from '../../engine/engine.js';
import { drainOnSignals } from '../drain.js';
import { cliConfig, type GlobalOptions, openEngine, publicApiUrl } from '../embedded.js';

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

/** Refuses settings the auth mode cannot serve with, before the store is opened or a port bound. */
function checkAuthSettings(config: Config): void {
  switch (config.auth_mode) {
    case 'noauth':
      if (!isLoopback(config.bind_host)) {
        throw new Error(
          `--auth noauth trusts every request: it serves loopback addresses only (127.0.0.1, ::1, localhost), not ${config.bind_host}`,
        );
      }
      return;
    case 'keystone': {
      if (config.keystone_service_password === '') {
        throw new Error(
          '--auth keystone needs the password of Hearth’s Keystone user: set keystone_service_password ' +
            '(or HEARTH_KEYSTONE_SERVICE_PASSWORD)',
        );
      }
      const endpoint = v3Endpoint(config.keystone_url);
      if (!URL.canParse(endpoint) || !['http:', 'https:'].includes(new URL(endpoint).protocol)) {
        throw new Error(`keystone_url must be an http(s) URL, got "${config.keystone_url}"`);
      }
      return;
    }
    case 'standalone':
      return;
  }
}

/** The API's authenticator and, in keystone mode, the maker of each new stack's trust. */
async function authFor(
  config: Config,
  engine: Engine,
  logger: Logger,
): Promise<{
  authenticator: Authenticator;
  trusts?: TrustMaker;
  passwordLogin?: KeystoneClient['passwordLogin'];
}> {
  switch (config.auth_mode) {
    case 'standalone':
      return { authenticator: standaloneAuthenticator(engine.deps.store) };
    case 'noauth':
      return { authenticator: noauthAuthenticator() };
    case 'keystone': {
      const settings = keystoneSettings(config);
      const warn = (message: string) => logger.warn(message);
      const keystone = new KeystoneClient(settings, { warn });
      const delegatedRoles = config.trusts_delegated_roles
        .split(',')
        .map((role) => role.trim())
        .filter((role) => role !== '');
      const trusts = new KeystoneTrusts({ keystone: settings, delegatedRoles }, keystone, { warn });
      const key = await loadDeploymentKey(engine.deps.store, config.auth_encryption_key);
      return {
        authenticator: keystoneAuthenticator(keystone),
        trusts: keystoneTrustMaker(trusts, credentialBox(key)),
        passwordLogin: (login) => keystone.passwordLogin(login),
      };
    }
  }
}

/**
 * `hearth serve`: the Heat-compatible API with engine workers in the same process, until SIGTERM
 * or SIGINT; then it stops listening, lets running units finish (within the shutdown timeout), and
 * exits.
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
      checkAuthSettings(config);
      let listening = publicApiUrl(config);
      const engine = await openEngine(config, global, () => listening);
      const logger = apiLogger(config.log_level);
      const drain = drainOnSignals(engine, print);
      try {
        const auth = await authFor(config, engine, logger);
        const signer = await SignalSigner.load(engine.deps.store, config.auth_encryption_key);
        const agentSigner = await AgentSigner.load(engine.deps.store, config.auth_encryption_key);
        const stackUserKeys = await StackUserKeys.load(engine.deps.store, config.auth_encryption_key);
        // Loaded here: every other command would pay for Fastify and prom-client at start-up.
        const { buildServer } = await import('../../api/server.js');
        const app = await buildServer(
          { engine, ...auth, limits: config, signer, agentSigner, stackUserKeys },
          { logger },
        );
        const address = await listenOn(app, config.bind_host, config.bind_port);
        if (config.public_api_url === '') listening = address;
        print(`Hearth API listening on ${address} (auth: ${config.auth_mode})\n`);
        // Requests stop first (a load balancer moves on), then the units running finish.
        const closed = new Promise((resolve) =>
          drain.signal.addEventListener('abort', () => void app.close().then(resolve), { once: true }),
        );
        if (opts.workers) await engine.runUntil(async () => false, { signal: drain.signal });
        await closed;
      } finally {
        drain.dispose();
        await engine.stop();
        await engine.deps.store.close();
      }
      print('Hearth API stopped\n');
    });
}

/** Listens, a taken or forbidden port said in words with what to do. */
async function listenOn(
  app: { listen: (o: { host: string; port: number }) => Promise<string> },
  host: string,
  port: number,
): Promise<string> {
  try {
    return await app.listen({ host, port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (code === 'EADDRINUSE') {
      throw new Error(
        `${where} is already in use by another process: stop it, or choose another port (--port, bind_port)`,
      );
    }
    if (code === 'EACCES') {
      throw new Error(
        `not allowed to listen on ${where} (ports below 1024 need privileges): choose another port (--port, bind_port)`,
      );
    }
    if (code === 'EADDRNOTAVAIL') {
      throw new Error(`${host} is not an address of this machine: choose another (--host, bind_host)`);
    }
    throw err;
  }
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
