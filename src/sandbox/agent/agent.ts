import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject } from '../../util/json.js';
import type { SandboxContext } from '../app.js';
import { happens } from '../noise.js';
import type { SandboxObject } from '../state.js';
import { collectConfig } from './bootstrap.js';
import { chooseTransport, collect, type SessionCache } from './collectors.js';
import {
  applyConfig,
  type DeployedConfig,
  type HookResult,
  type HookSpace,
  inputValues,
  killHook,
  resolveComponent,
} from './hooks.js';
import { retryable } from './http.js';
import { notify, signalTransport } from './notify.js';

/**
 * One guest's agent: os-collect-config's loop (poll the metadata by the configured collector,
 * take a newer `os-collect-config` from it) and 55-heat-config's (apply each deployment not yet
 * applied, in list order, then heat-config-notify). A config is marked applied before it runs, as
 * heat-config writes its deployed file first: it runs once per config id, even when its signal
 * never gets through. Its record is kept in the sandbox's state, so a restarted sandbox resumes.
 */

/** What the agent knows of one config it met (`GET /admin/agents` shows it). */
export type ConfigRun = {
  name: string;
  group: string;
  action: string | null;
  resourceName: string | null;
  deploymentId: string | null;
  runs: number;
  statusCode: number | null;
  /** pending: to deliver; skipped: a component with nothing for the action (no signal, as heat-config). */
  signal: 'pending' | 'delivered' | 'failed' | 'none' | 'skipped';
  signalTransport: string;
  signalAttempts: number;
  signalError: string | null;
};

export interface AgentRecord extends SandboxObject {
  /** The server's id (a sandbox server, or a DeployedServer's the test registered). */
  serverId: string;
  source: 'server' | 'registered';
  /** The region whose server it is (null: the first region, or a registered agent). */
  region: string | null;
  /** The agent's settings: the `os-collect-config` it booted with, then the last it collected. */
  occ: JsonObject;
  status: 'waiting' | 'running' | 'stopped';
  activeAt: number | null;
  lastPollAt: number | null;
  lastError: string | null;
  configs: Record<string, ConfigRun>;
}

export const AGENT_KIND = 'guest_agent';

/** A signal is tried this many times (backoff from the poll interval, doubling, capped). */
export const SIGNAL_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 30_000;

/** What an agent needs of the sandbox. */
export interface AgentHost {
  ctx(): SandboxContext;
  /** Where the agent's server is now: running (ACTIVE), not running, or gone (deleted). */
  serverState(record: AgentRecord): 'running' | 'off' | 'gone';
  /** The server is gone: the host forgets the agent and its files. */
  gone(serverId: string): void;
  /** The server's scratch folder. */
  dir(serverId: string): string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export class Agent {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly sessions: SessionCache = new Map();
  readonly space: HookSpace;

  constructor(
    private readonly host: AgentHost,
    readonly serverId: string,
  ) {
    this.space = { dir: host.dir(serverId), children: new Set() };
  }

  private get record(): AgentRecord | undefined {
    return this.host.ctx().state.get<AgentRecord>(AGENT_KIND, this.serverId);
  }

  private save(change: (record: AgentRecord) => void): void {
    if (this.stopped) return;
    const record = this.record;
    if (!record) return;
    change(record);
    this.host.ctx().state.put(AGENT_KIND, null, record);
  }

  private interval(): number {
    return this.host.ctx().noise().agentPollIntervalMs;
  }

  start(): void {
    this.schedule(0, async () => {
      await this.resume();
      await this.tick();
    });
  }

  /** Stops polling and kills what runs now (the record stays as the caller leaves it). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const child of this.space.children) killHook(child);
  }

  private schedule(ms: number, then: () => Promise<void> = () => this.tick()): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void then()
        .catch((error: unknown) =>
          this.save((r) => {
            r.lastError = `agent: ${(error as Error).message}`;
          }),
        )
        .finally(() => this.schedule(this.interval()));
    }, ms);
    this.timer.unref();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
  }

  /** After a restart: signals left pending are sent again from the files kept for them. */
  private async resume(): Promise<void> {
    const record = this.record;
    if (!record) return;
    for (const [id, run] of Object.entries(record.configs)) {
      if (run.signal !== 'pending') continue;
      try {
        const deployed = join(this.space.dir, 'deployed');
        const config = JSON.parse(await readFile(join(deployed, `${id}.json`), 'utf8')) as DeployedConfig;
        const result = JSON.parse(await readFile(join(deployed, `${id}.notify.json`), 'utf8')) as HookResult;
        await this.deliver(config, result);
      } catch {
        // Stopped mid-run: heat-config would not run it again either.
        this.save((r) => {
          r.configs[id] = {
            ...r.configs[id]!,
            signal: 'failed',
            signalError: 'interrupted before its signal',
          };
        });
      }
    }
  }

  private async tick(): Promise<void> {
    const record = this.record;
    if (!record || this.stopped) return;
    const now = this.host.ctx().now();
    const where = this.host.serverState(record);
    if (where === 'gone') {
      this.host.gone(this.serverId);
      return;
    }
    if (where === 'off') return;
    if (record.activeAt === null) {
      // The guest just booted: its agent starts after the configured delay.
      this.save((r) => {
        r.activeAt = now;
      });
    }
    const since = record.activeAt ?? now;
    if (now - since < this.host.ctx().noise().agentStartDelayMs) return;
    const transport = chooseTransport(record.occ);
    if (!transport) {
      this.save((r) => {
        r.status = 'running';
        r.lastError = 'no usable collector in os-collect-config (cfn, heat, zaqar or request)';
      });
      return;
    }
    let metadata: JsonObject;
    try {
      metadata = await collect(transport, record.occ, this.sessions);
    } catch (error) {
      this.save((r) => {
        r.status = 'running';
        r.lastPollAt = this.host.ctx().now();
        r.lastError = `${transport} collector: ${(error as Error).message}`;
      });
      return;
    }
    const occ = collectConfig(metadata);
    this.save((r) => {
      r.status = 'running';
      r.lastPollAt = this.host.ctx().now();
      r.lastError = null;
      // os-apply-config rewrites os-collect-config's settings from what was collected.
      if (occ && chooseTransport(occ)) r.occ = occ;
    });
    const deployments = Array.isArray(metadata.deployments) ? metadata.deployments : [];
    for (const item of deployments) {
      if (this.stopped) return;
      const config = item as unknown as DeployedConfig;
      if (typeof config?.id !== 'string' || this.record?.configs[config.id]) continue;
      await this.apply(config);
    }
  }

  private async apply(config: DeployedConfig): Promise<void> {
    const inputs = inputValues(config);
    const base: ConfigRun = {
      name: typeof config.name === 'string' ? config.name : config.id,
      group: config.group ?? 'Heat::Ungrouped',
      action: text(inputs.deploy_action),
      resourceName: text(inputs.deploy_resource_name),
      deploymentId: text((config as unknown as JsonObject).deployment_id),
      runs: 0,
      statusCode: null,
      signal: 'pending',
      signalTransport: signalTransport(config),
      signalAttempts: 0,
      signalError: null,
    };
    const resolved = resolveComponent(config);
    if (!resolved) {
      this.save((r) => {
        r.configs[config.id] = { ...base, signal: 'skipped' };
      });
      return;
    }
    const deployed = join(this.space.dir, 'deployed');
    await mkdir(deployed, { recursive: true, mode: 0o700 });
    await writeFile(join(deployed, `${config.id}.json`), JSON.stringify(config), { mode: 0o600 });
    // Marked before it runs: whatever happens next, it never runs again.
    this.save((r) => {
      r.configs[config.id] = { ...base, runs: 1 };
    });
    const noise = this.host.ctx().noise();
    const result: HookResult = happens(noise.agentFailureRate, this.host.ctx().random)
      ? {
          deploy_stdout: '',
          deploy_stderr: 'the config failed (sandbox noise: agentFailureRate)',
          deploy_status_code: 1,
        }
      : await applyConfig(this.space, resolved, noise.agentGroups);
    if (this.stopped) return;
    await writeFile(join(deployed, `${config.id}.notify.json`), JSON.stringify(result), { mode: 0o600 });
    this.save((r) => {
      r.configs[config.id]!.statusCode = result.deploy_status_code;
    });
    await this.deliver(config, result);
  }

  /** heat-config-notify with bounded retries: a refused or lost signal is sent again, the config never rerun. */
  private async deliver(config: DeployedConfig, result: HookResult): Promise<void> {
    if (signalTransport(config) === 'NO_SIGNAL') {
      this.save((r) => {
        r.configs[config.id]!.signal = 'none';
      });
      return;
    }
    for (let attempt = 1; attempt <= SIGNAL_ATTEMPTS && !this.stopped; attempt++) {
      try {
        await notify(config, result);
        this.save((r) => {
          Object.assign(r.configs[config.id]!, {
            signal: 'delivered',
            signalAttempts: attempt,
            signalError: null,
          });
        });
        return;
      } catch (error) {
        const last = attempt === SIGNAL_ATTEMPTS || !retryable(error);
        this.save((r) => {
          Object.assign(r.configs[config.id]!, {
            signal: last ? 'failed' : 'pending',
            signalAttempts: attempt,
            signalError: (error as Error).message,
          });
        });
        if (last) return;
        await this.sleep(Math.min(MAX_BACKOFF_MS, this.interval() * 2 ** attempt));
      }
    }
  }
}
