import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * Which cloud to talk to and how to log in, found the way openstacksdk and the openstack CLI find
 * it: a named cloud from clouds.yaml (OS_CLOUD / --os-cloud), or OS_* variables alone, with OS_*
 * variables overriding the named cloud's keys (the CLI's options default to them).
 */

export type AuthType = 'password' | 'v3applicationcredential' | 'token';
export type Interface = 'public' | 'internal' | 'admin';

export interface CloudAuth {
  authUrl: string;
  username?: string;
  userId?: string;
  password?: string;
  projectName?: string;
  projectId?: string;
  userDomainName?: string;
  userDomainId?: string;
  projectDomainName?: string;
  projectDomainId?: string;
  applicationCredentialId?: string;
  applicationCredentialName?: string;
  applicationCredentialSecret?: string;
  token?: string;
  /** A Keystone trust to scope the login to instead of a project (the trustee's password login). */
  trustId?: string;
}

export interface CloudSettings {
  /** The clouds.yaml entry, when one was used. */
  cloud?: string;
  /** Where the settings came from, for messages: a file, `environment` or both. */
  origin: string;
  authType: AuthType;
  auth: CloudAuth;
  regionName?: string;
  interface: Interface;
  /** A PEM file of CA certificates to trust. */
  cacert?: string;
  insecure: boolean;
}

export class CloudConfigError extends Error {
  override name = 'CloudConfigError';
}

export interface LoadCloudOptions {
  /** The cloud's name (`--os-cloud`); default OS_CLOUD. */
  cloud?: string;
  env?: Record<string, string | undefined>;
  /** Where ./clouds.yaml is looked for (default the working directory). */
  cwd?: string;
  home?: string;
  /** The files searched, in order, instead of the standard places (tests). */
  searchPath?: readonly string[];
}

/** clouds.yaml and OS_* names (after `auth.`) of each auth key. */
const AUTH_KEYS: [key: keyof CloudAuth, yaml: string, env: string][] = [
  ['authUrl', 'auth_url', 'OS_AUTH_URL'],
  ['username', 'username', 'OS_USERNAME'],
  ['userId', 'user_id', 'OS_USER_ID'],
  ['password', 'password', 'OS_PASSWORD'],
  ['projectName', 'project_name', 'OS_PROJECT_NAME'],
  ['projectId', 'project_id', 'OS_PROJECT_ID'],
  ['userDomainName', 'user_domain_name', 'OS_USER_DOMAIN_NAME'],
  ['userDomainId', 'user_domain_id', 'OS_USER_DOMAIN_ID'],
  ['projectDomainName', 'project_domain_name', 'OS_PROJECT_DOMAIN_NAME'],
  ['projectDomainId', 'project_domain_id', 'OS_PROJECT_DOMAIN_ID'],
  ['applicationCredentialId', 'application_credential_id', 'OS_APPLICATION_CREDENTIAL_ID'],
  ['applicationCredentialName', 'application_credential_name', 'OS_APPLICATION_CREDENTIAL_NAME'],
  ['applicationCredentialSecret', 'application_credential_secret', 'OS_APPLICATION_CREDENTIAL_SECRET'],
  ['token', 'token', 'OS_TOKEN'],
];
/** Older names still found in clouds.yaml files and openrc scripts. */
const AUTH_ALIASES: [key: keyof CloudAuth, yaml: string, env: string][] = [
  ['projectName', 'tenant_name', 'OS_TENANT_NAME'],
  ['projectId', 'tenant_id', 'OS_TENANT_ID'],
];

const AUTH_TYPES: Record<string, AuthType> = {
  password: 'password',
  v3password: 'password',
  v3applicationcredential: 'v3applicationcredential',
  token: 'token',
  v3token: 'token',
};

/** The clouds.yaml files looked for, first found wins: OS_CLIENT_CONFIG_FILE, then the standard places. */
export function cloudsYamlSearchPath(options: LoadCloudOptions = {}): string[] {
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  const files = [
    resolve(options.cwd ?? process.cwd(), 'clouds.yaml'),
    join(home, '.config', 'openstack', 'clouds.yaml'),
    '/etc/openstack/clouds.yaml',
  ];
  const explicit = env.OS_CLIENT_CONFIG_FILE;
  return explicit ? [resolve(options.cwd ?? process.cwd(), explicit), ...files] : files;
}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A scalar setting as a string; numbers are allowed (project ids sometimes parse as numbers). */
function text(value: unknown, file: string, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new CloudConfigError(`${file}: ${key} must be a string`);
}

const BOOLEAN_WORDS = /^(true|false|yes|no|on|off|1|0)$/i;

function flag(value: unknown, where: string, key: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const lowered = String(value).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
  if (['false', '0', 'no', 'off'].includes(lowered)) return false;
  throw new CloudConfigError(`${where}: ${key} must be true or false`);
}

/** Settings from one place (a clouds.yaml entry or the environment), before checks. */
interface Layer {
  authType?: string;
  auth: { [K in keyof CloudAuth]?: string };
  regionName?: string;
  interface?: string;
  cacert?: string;
  insecure?: boolean;
}

function readCloudsFile(file: string): Raw {
  let document: unknown;
  try {
    document = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CloudConfigError(`${file}: cannot read clouds.yaml: ${reason}`);
  }
  if (document === null || document === undefined) return {};
  if (!isObject(document)) throw new CloudConfigError(`${file}: expected a mapping with a clouds key`);
  const clouds = document.clouds;
  if (clouds === undefined) return {};
  if (!isObject(clouds)) throw new CloudConfigError(`${file}: clouds must be a mapping of cloud names`);
  return clouds;
}

function fromCloudEntry(entry: unknown, file: string, name: string): Layer {
  const at = `clouds.${name}`;
  if (!isObject(entry)) throw new CloudConfigError(`${file}: ${at} must be a mapping`);
  const auth = entry.auth ?? {};
  if (!isObject(auth)) throw new CloudConfigError(`${file}: ${at}.auth must be a mapping`);
  const result: Layer = { auth: {} };
  for (const [key, yaml] of [...AUTH_ALIASES, ...AUTH_KEYS]) {
    const value = text(auth[yaml], file, `${at}.auth.${yaml}`);
    if (value !== undefined) result.auth[key] = value;
  }
  const set = <K extends 'authType' | 'regionName' | 'interface' | 'cacert'>(key: K, yaml: string) => {
    const value = text(entry[yaml], file, `${at}.${yaml}`);
    if (value !== undefined) result[key] = value;
  };
  set('authType', 'auth_type');
  set('regionName', 'region_name');
  set('interface', 'interface');
  set('cacert', 'cacert');
  const verify = entry.verify;
  // `verify` is either a boolean or, as in requests, the CA bundle's path.
  if (typeof verify === 'string' && !BOOLEAN_WORDS.test(verify.trim())) result.cacert ??= verify;
  else {
    const verified = flag(verify, file, `${at}.verify`);
    if (verified !== undefined) result.insecure = !verified;
  }
  const insecure = flag(entry.insecure, file, `${at}.insecure`);
  if (insecure !== undefined) result.insecure = insecure;
  if (result.regionName === undefined && Array.isArray(entry.regions) && entry.regions.length > 0) {
    const first: unknown = entry.regions[0];
    const region = isObject(first) ? first.name : first;
    result.regionName = text(region, file, `${at}.regions[0]`);
  }
  return result;
}

function flagSafely(value: string, variable: string): boolean | undefined {
  return flag(value, `environment variable ${variable}`, variable);
}

function fromEnvironment(env: Record<string, string | undefined>): Layer {
  const result: Layer = { auth: {} };
  for (const [key, , variable] of [...AUTH_ALIASES, ...AUTH_KEYS]) {
    const value = env[variable];
    if (value !== undefined && value !== '') result.auth[key] = value;
  }
  const pick = (variable: string) => (env[variable] === '' ? undefined : env[variable]);
  const authType = pick('OS_AUTH_TYPE');
  if (authType !== undefined) result.authType = authType;
  const region = pick('OS_REGION_NAME');
  if (region !== undefined) result.regionName = region;
  const iface = pick('OS_INTERFACE') ?? pick('OS_ENDPOINT_TYPE');
  if (iface !== undefined) result.interface = iface;
  const cacert = pick('OS_CACERT');
  if (cacert !== undefined) result.cacert = cacert;
  const insecure = pick('OS_INSECURE');
  if (insecure !== undefined) result.insecure = flagSafely(insecure, 'OS_INSECURE');
  return result;
}

function merge(base: Layer, over: Layer): Layer {
  const merged: Layer = { ...base, auth: { ...base.auth } };
  for (const [key, value] of Object.entries(over.auth)) {
    if (value !== undefined) merged.auth[key as keyof CloudAuth] = value;
  }
  for (const key of ['authType', 'regionName', 'interface', 'cacert', 'insecure'] as const) {
    if (over[key] !== undefined) (merged as unknown as Raw)[key] = over[key];
  }
  return merged;
}

function normaliseInterface(value: string | undefined, where: string): Interface {
  if (value === undefined) return 'public';
  const plain = value.replace(/URL$/, '');
  if (plain === 'public' || plain === 'internal' || plain === 'admin') return plain;
  throw new CloudConfigError(`${where}: interface must be public, internal or admin, not '${value}'`);
}

/** The settings are complete for their auth type, or an error naming what is missing. */
function finish(partial: Layer, origin: string, cloud: string | undefined): CloudSettings {
  const { auth } = partial;
  const where = cloud ? `${origin} (cloud ${cloud})` : origin;
  const missing = (what: string) => new CloudConfigError(`${where}: ${what} is not set`);
  if (!auth.authUrl) throw missing('auth_url (OS_AUTH_URL)');
  let authType: AuthType;
  if (partial.authType !== undefined) {
    const known = AUTH_TYPES[partial.authType.toLowerCase()];
    if (!known) {
      throw new CloudConfigError(
        `${where}: auth_type '${partial.authType}' is not supported (use password, v3password, v3applicationcredential or token)`,
      );
    }
    authType = known;
  } else if (auth.applicationCredentialSecret !== undefined) authType = 'v3applicationcredential';
  else if (auth.token !== undefined && auth.password === undefined) authType = 'token';
  else authType = 'password';

  if (authType === 'password') {
    if (!auth.username && !auth.userId) throw missing('username (OS_USERNAME) or user_id (OS_USER_ID)');
    if (auth.password === undefined) throw missing('password (OS_PASSWORD)');
  } else if (authType === 'v3applicationcredential') {
    if (!auth.applicationCredentialSecret) {
      throw missing('application_credential_secret (OS_APPLICATION_CREDENTIAL_SECRET)');
    }
    if (!auth.applicationCredentialId && !auth.applicationCredentialName) {
      throw missing('application_credential_id or application_credential_name');
    }
    if (!auth.applicationCredentialId && !auth.username && !auth.userId) {
      throw missing('username or user_id (an application credential given by name needs its user)');
    }
  } else if (!auth.token) throw missing('token (OS_TOKEN)');
  if (authType !== 'v3applicationcredential' && !auth.projectName && !auth.projectId) {
    throw missing('project_name (OS_PROJECT_NAME) or project_id (OS_PROJECT_ID)');
  }
  // Keystone needs a domain for names; the openstack CLI's default is the default domain.
  if (auth.username && !auth.userDomainName && !auth.userDomainId) auth.userDomainId = 'default';
  if (auth.projectName && !auth.projectDomainName && !auth.projectDomainId) auth.projectDomainId = 'default';
  const settings: CloudSettings = {
    origin,
    authType,
    auth: auth as CloudAuth,
    interface: normaliseInterface(partial.interface, where),
    insecure: partial.insecure ?? false,
  };
  if (cloud !== undefined) settings.cloud = cloud;
  if (partial.regionName !== undefined) settings.regionName = partial.regionName;
  if (partial.cacert !== undefined) settings.cacert = partial.cacert;
  return settings;
}

/**
 * The cloud to use: the one named by `options.cloud` or OS_CLOUD from the first clouds.yaml found
 * (OS_* variables override its keys), else the OS_* variables alone.
 */
export function loadCloudSettings(options: LoadCloudOptions = {}): CloudSettings {
  const env = options.env ?? process.env;
  const fromEnv = fromEnvironment(env);
  const name = options.cloud ?? (env.OS_CLOUD || undefined);
  if (name === undefined) {
    if (!fromEnv.auth.authUrl) {
      throw new CloudConfigError(
        'no cloud chosen: set OS_CLOUD (or --os-cloud) to a cloud in clouds.yaml, or OS_AUTH_URL and the other OS_* variables',
      );
    }
    return finish(fromEnv, 'environment', undefined);
  }
  const searched = options.searchPath ?? cloudsYamlSearchPath(options);
  const file = searched.find((candidate) => existsSync(candidate));
  if (!file) {
    throw new CloudConfigError(`cloud '${name}': no clouds.yaml found (looked in ${searched.join(', ')})`);
  }
  const clouds = readCloudsFile(file);
  if (!Object.hasOwn(clouds, name)) {
    const known = Object.keys(clouds);
    throw new CloudConfigError(
      `${file}: no cloud '${name}' under clouds (${known.length ? `found ${known.join(', ')}` : 'none defined'})`,
    );
  }
  const fromFile = fromCloudEntry(clouds[name], file, name);
  const overridden = Object.values(fromEnv.auth).length > 0 || fromEnv.authType !== undefined;
  return finish(merge(fromFile, fromEnv), overridden ? `${file} and environment` : file, name);
}

/** The settings without secrets, for logs and `hearth` diagnostics. */
export function describeCloud(settings: CloudSettings): Record<string, unknown> {
  const secret = new Set<keyof CloudAuth>(['password', 'applicationCredentialSecret', 'token', 'trustId']);
  const auth = Object.fromEntries(
    Object.entries(settings.auth).map(([key, value]) => [
      key,
      secret.has(key as keyof CloudAuth) ? '***' : value,
    ]),
  );
  return { ...settings, auth };
}
