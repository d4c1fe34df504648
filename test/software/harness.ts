/**
 * What the software deployment acceptance tests share: a sandbox cloud whose servers run guest
 * agents (fast polls), a Hearth made of real processes on one store — `hearth serve --no-workers`
 * (the API the agents poll and signal, which outlives any engine) and engines the tests may kill —
 * and reads of what the agents did (`GET /admin/agents`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Child, type Exit } from '../crash/harness.js';
import { login, type SandboxCloud, sandboxCloud } from '../sandbox/support.js';
import { CORPUS } from '../support/shared.js';
import { type ServeProcess, startServe } from '../cli/serve-process.js';
import { until as poll } from '../support/poll.js';

/** The corpus folder of software-config templates (used in place). */
export const SW_CORPUS = join(CORPUS, 'hot/software-config');
export const IMAGE = 'cirros-0.6.2-x86_64-disk';
export const KEY = 'sw-key';

/**
 * Servers boot at once and agents poll often (the tests wait on outcomes, not on timers), but not
 * so often that 20 agents' polls load the API more than the work does.
 */
export const FAST_AGENTS = { bootDelayMs: 50, agentStartDelayMs: 0, agentPollIntervalMs: 250 };

/**
 * A sandbox cloud with fast agents for the calling describe() (`noise` adds knobs), with key pair
 * `sw-key` of user demo made before the tests.
 */
export function agentCloud(noise: Record<string, unknown> = {}): SandboxCloud {
  const cloud = sandboxCloud({ noise: { ...FAST_AGENTS, ...noise } });
  return cloud;
}

/** Makes key pair `name` for user demo (the corpus templates all name one). */
export async function addKeypair(cloud: SandboxCloud, name = KEY): Promise<void> {
  const { token } = await login(cloud.app, 'demo');
  const r = await cloud.app.inject({
    method: 'POST',
    url: '/compute/v2.1/os-keypairs',
    headers: { 'x-auth-token': token },
    payload: {
      keypair: { name, public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHearthSoftwareTestKey hearth' },
    },
  });
  assert.ok(r.statusCode < 300, `keypair create: ${r.statusCode} ${r.body}`);
}

/** `stack show -f json`, as both clients print it. */
export interface StackView {
  stack_status: string;
  stack_status_reason: string;
  outputs?: { output_key: string; output_value: unknown }[];
}

/** A row of `stack resource list -f json`. */
export interface ResourceRow {
  resource_name: string;
  physical_resource_id: string;
  resource_type: string;
  resource_status: string;
  resource_status_reason: string;
  stack_name?: string;
}

/** One agent as `GET /admin/agents` lists it. */
export interface AgentRow {
  server_id: string;
  transport: string | null;
  status: string;
  /** Each derived config it applied (a config runs once per id). */
  configs: {
    config_id: string;
    deploy_action: string | null;
    deploy_resource_name: string | null;
    runs: number;
    status_code: number | null;
    /** Whether its outputs reached Hearth: pending, delivered, failed, none (NO_SIGNAL)... */
    signal: string;
  }[];
}

/** The sandbox's agents. */
export async function agents(cloud: SandboxCloud): Promise<AgentRow[]> {
  const r = await cloud.app.inject({ method: 'GET', url: '/admin/agents' });
  assert.equal(r.statusCode, 200, r.body);
  return (r.json() as { agents: AgentRow[] }).agents;
}

/**
 * The actions each deployment's configs ran for, by `<server id>/<deployment resource name>`,
 * one entry per run (in the order the agent applied them).
 */
export async function runs(cloud: SandboxCloud): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const agent of await agents(cloud)) {
    for (const c of agent.configs) {
      const key = `${agent.server_id}/${c.deploy_resource_name}`;
      const list = found.get(key) ?? [];
      for (let i = 0; i < c.runs; i++) list.push(c.deploy_action ?? '?');
      found.set(key, list);
    }
  }
  return found;
}

/** Stops a server's agent out of band (it never polls nor signals again). */
export async function stopAgent(cloud: SandboxCloud, serverId: string): Promise<void> {
  const r = await cloud.app.inject({ method: 'POST', url: `/admin/servers/${serverId}/stop-agent` });
  assert.ok(r.statusCode < 300, `stop-agent: ${r.statusCode} ${r.body}`);
}

/** Registers an agent for a server Hearth did not boot (a DeployedServer), from its os_collect_config. */
export async function registerAgent(cloud: SandboxCloud, serverId: string, occ: unknown): Promise<void> {
  const r = await cloud.app.inject({
    method: 'POST',
    url: '/admin/agents',
    payload: { server_id: serverId, os_collect_config: occ },
  });
  assert.ok(r.statusCode < 300, `register agent: ${r.statusCode} ${r.body}`);
}

export const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/** Polls `probe` until it returns a value other than undefined; fails after `ms` (a ceiling). */
export function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  return poll(what, probe, { ceilingMs: ms });
}

/** Short leases and heartbeats: a restarted engine takes a killed one's work over quickly. */
export const ENGINE_ENV: Record<string, string> = {
  HEARTH_BACKGROUND_ENGINE: 'false',
  HEARTH_WORK_LEASE_MS: '1500',
  HEARTH_HEARTBEAT_INTERVAL_MS: '300',
  HEARTH_ENGINE_DEAD_AFTER_MS: '1500',
};

/**
 * Hearth as separate processes on one store (a SQLite file in `dir`, or a PostgreSQL URL):
 * `hearth serve --no-workers` answers the agents (metadata, signals) whether or not an engine
 * runs; `engine()` starts a `hearth engine`; `cli()` runs a command whose signal URLs point at
 * the API. The children inherit the sandbox's OS_* variables: make it after the cloud's before().
 */
export class SoftwareHearth {
  readonly dir: string;
  readonly db: string;
  api!: ServeProcess;
  private readonly engines: Child[] = [];

  constructor(db?: string) {
    this.dir = mkdtempSync(join(tmpdir(), 'hearth-sw-'));
    this.db = db ?? join(this.dir, 'state.db');
  }

  /** The environment every child gets (beside the sandbox's OS_* variables). */
  env(): Record<string, string> {
    return { ...ENGINE_ENV, HEARTH_PUBLIC_API_URL: this.api.url };
  }

  async start(): Promise<this> {
    // The schema first (a serve and an engine starting together would both migrate).
    await this.cli(['manage', 'db', 'sync']);
    this.api = await startServe(['--db', this.db, 'serve', '--no-workers', '--port', '0'], ENGINE_ENV);
    return this;
  }

  /** Writes a file in the folder the commands run in. */
  write(name: string, text: string): void {
    writeFileSync(join(this.dir, name), text);
  }

  /** `stack show -f json`: status, reason and output values. */
  async show(name: string): Promise<{ status: string; reason: string; outputs: Record<string, unknown> }> {
    const view = await this.json<StackView>(['stack', 'show', name]);
    return { status: view.stack_status, reason: view.stack_status_reason, outputs: outputsOf(view) };
  }

  /** `stack resource list -f json` rows, nested stacks' too with `depth`. */
  resources(name: string, depth = 0): Promise<ResourceRow[]> {
    return this.json<ResourceRow[]>([
      'stack',
      'resource',
      'list',
      name,
      ...(depth ? ['--nested-depth', String(depth)] : []),
    ]);
  }

  /** A `hearth engine` on the store. */
  engine(): Child {
    const child = new Child(['engine'], this.dir, this.db, this.env());
    this.engines.push(child);
    return child;
  }

  /** Runs `hearth --db <db> ...args`; its exit. */
  async run(args: string[], { timeoutMs = 120_000, env = {} as Record<string, string> } = {}): Promise<Exit> {
    const child = new Child(args, this.dir, this.db, { ...(this.api ? this.env() : ENGINE_ENV), ...env });
    const timer = setTimeout(() => child.kill(), timeoutMs);
    try {
      return await child.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a command that must succeed; its stdout. */
  async cli(args: string[], options?: { timeoutMs?: number; env?: Record<string, string> }): Promise<string> {
    const exit = await this.run(args, options);
    assert.equal(
      exit.code,
      0,
      `hearth ${args.join(' ')} exited ${exit.code ?? exit.signal}:\n${exit.stderr}`,
    );
    return exit.stdout;
  }

  async json<T>(args: string[]): Promise<T> {
    const out = await this.cli([...args, '-f', 'json']);
    return JSON.parse(out) as T;
  }

  async stop(): Promise<void> {
    for (const e of this.engines) e.kill();
    await Promise.all(this.engines.map((e) => e.exited));
    await this.api?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `--parameter key=value` for each entry. */
export function params(values: Record<string, string | number>): string[] {
  return Object.entries(values).flatMap(([k, v]) => ['--parameter', `${k}=${v}`]);
}

/** Output values by key, from `stack show -f json`. */
export function outputsOf(view: {
  outputs?: { output_key: string; output_value: unknown }[];
}): Record<string, unknown> {
  return Object.fromEntries((view.outputs ?? []).map((o) => [o.output_key, o.output_value]));
}

/**
 * The project's one private network (`private`, routed to `public`): servers without `networks`
 * land on it (Nova's "auto" takes a project's only network), and the pristine-image template's
 * floating IP reaches its port through the router.
 */
export const BASE_NETWORK = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: private}}
  subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.30.0.0/24}}
  router: {type: OS::Neutron::Router, properties: {external_gateway_info: {network: public}}}
  iface:
    type: OS::Neutron::RouterInterface
    properties: {router: {get_resource: router}, subnet: {get_resource: subnet}}
`;

/**
 * `count` SOFTWARE_CONFIG servers on the base network and a SoftwareDeploymentGroup of the
 * template's `config` over them, its one input `input` taken from the parameter of that name:
 * the `servers` and `deployments` resources of a template's resources section.
 */
export function serverGroup(count: number, input: string): string {
  return `  servers:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${count}
      resource_def:
        type: OS::Nova::Server
        properties:
          image: ${IMAGE}
          flavor: m1.tiny
          networks: [{network: private}]
          user_data_format: SOFTWARE_CONFIG
  deployments:
    type: OS::Heat::SoftwareDeploymentGroup
    properties:
      config: {get_resource: config}
      servers: {get_attr: [servers, refs_map]}
      input_values: {${input}: {get_param: ${input}}}
`;
}

/**
 * A Hearth (API, one store) with the keypair in the sandbox, the base network created and
 * `files` written, for the tests that then create their stacks through the CLI.
 */
export async function hearthOnBaseNetwork(
  cloud: SandboxCloud,
  files: Record<string, string>,
): Promise<SoftwareHearth> {
  await addKeypair(cloud);
  const h = await new SoftwareHearth().start();
  h.write('base.yaml', BASE_NETWORK);
  for (const [name, text] of Object.entries(files)) h.write(name, text);
  await h.cli(['stack', 'create', 'base', '-t', 'base.yaml', '--wait']);
  return h;
}
