import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Json } from '../../util/json.js';
import type { SandboxContext } from '../app.js';
import { cfnDataParts } from '../agent/bootstrap.js';
import type { AgentBinder } from '../bindings.js';
import { guestPower } from '../compute/server-state.js';
import type { SandboxState } from '../state.js';
import { CFN_TOOLS_KIND, CfnGuest, type CfnToolsRecord } from './guest.js';
import { cfnEndpoint } from './remote.js';

/**
 * The sandbox's heat-cfntools: one emulation per server whose user data has a `cfn-userdata` part
 * (Heat's HEAT_CFNTOOLS format, AWS::EC2::Instance's), told by Nova's create. Each runs on timers
 * in the sandbox's process with a scratch folder as its `/`; it goes with its server.
 */
export class CfnToolsGuests {
  private readonly running = new Map<string, CfnGuest>();
  private rootDir: string | undefined;
  private readonly ownsRoot: boolean;
  private closed = false;

  constructor(
    private readonly live: () => SandboxContext,
    private readonly regions: ReadonlyMap<string | null, SandboxState>,
    stateFile?: string,
  ) {
    this.ownsRoot = stateFile === undefined;
    if (stateFile !== undefined) this.rootDir = `${stateFile}.cfntools`;
  }

  binder(region: string | null): AgentBinder {
    return {
      serverCreated: (server) => {
        const parts = cfnDataParts(server.userData);
        const script = parts.get('cfn-userdata');
        if (script === undefined) return;
        let initData: Json = null;
        try {
          initData = JSON.parse(parts.get('cfn-init-data') ?? 'null') as Json;
        } catch {
          // not JSON: cfn-init finds no local metadata, as on a guest
        }
        this.live().state.put<CfnToolsRecord>(CFN_TOOLS_KIND, null, {
          id: server.id,
          serverId: server.id,
          region,
          script,
          initData,
          endpoint: cfnEndpoint(parts.get('cfn-metadata-server'), parts.get('cfn-boto-cfg')) ?? null,
          status: 'waiting',
          activeAt: null,
          exitStatus: null,
          lastError: null,
          calls: [],
          files: [],
          commands: [],
          recorded: [],
          signals: [],
          hup: null,
          lastMetadata: {},
        });
        this.launch(server.id);
      },
    };
  }

  /** A restarted sandbox: scripts not yet run start, cfn-hup loops go on; one cut short stays so. */
  resume(): void {
    for (const record of this.list()) {
      if (record.status === 'running') {
        this.live().state.put(CFN_TOOLS_KIND, null, {
          ...record,
          status: 'done',
          lastError: 'interrupted: the sandbox stopped while the script ran',
        });
      }
      this.launch(record.id);
    }
  }

  list(): CfnToolsRecord[] {
    return this.live().state.list<CfnToolsRecord>(CFN_TOOLS_KIND);
  }

  /** The server's scratch root (its `/`). */
  root(serverId: string): string {
    this.rootDir ??= mkdtempSync(join(tmpdir(), 'hearth-sandbox-cfntools-'));
    return join(this.rootDir, serverId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const guest of this.running.values()) guest.stop();
    this.running.clear();
    if (this.ownsRoot && this.rootDir) await rm(this.rootDir, { recursive: true, force: true });
  }

  private launch(serverId: string): void {
    if (this.closed || this.running.has(serverId)) return;
    const guest = new CfnGuest(
      {
        ctx: this.live,
        serverState: (record) => this.serverState(record),
        gone: (id) => this.forget(id),
        root: (id) => this.root(id),
      },
      serverId,
    );
    this.running.set(serverId, guest);
    guest.start();
  }

  private serverState(record: CfnToolsRecord): 'running' | 'off' | 'gone' {
    const state = this.regions.get(record.region) ?? this.live().state;
    return guestPower(state, record.serverId, this.live().now());
  }

  private forget(serverId: string): void {
    this.running.get(serverId)?.stop();
    this.running.delete(serverId);
    this.live().state.delete(CFN_TOOLS_KIND, serverId);
    if (this.rootDir) void rm(join(this.rootDir, serverId), { recursive: true, force: true }).catch(() => {});
  }
}

/** A guest as `GET /admin/cfntools` shows it: what it did, no script, keys or signal secrets. */
export function cfnToolsView(record: CfnToolsRecord, root: string) {
  return {
    server_id: record.serverId,
    region: record.region,
    status: record.status,
    exit_status: record.exitStatus,
    last_error: record.lastError,
    root,
    calls: record.calls,
    files: record.files,
    commands: record.commands,
    recorded: record.recorded,
    signals: record.signals,
    hup: record.hup,
  };
}
