import type { Json } from '../../util/json.js';
import type { SandboxContext } from '../app.js';
import { cfnDataParts } from '../agent/bootstrap.js';
import type { AgentBinder } from '../bindings.js';
import { GuestSupervisor } from '../guests.js';
import type { SandboxState } from '../state.js';
import { CFN_TOOLS_KIND, CfnGuest, type CfnToolsRecord } from './guest.js';
import { cfnEndpoint } from './remote.js';

/**
 * The sandbox's heat-cfntools: one emulation per server whose user data has a `cfn-userdata` part
 * (Heat's HEAT_CFNTOOLS format, AWS::EC2::Instance's), told by Nova's create. Each runs on timers
 * in the sandbox's process with a scratch folder as its `/`; it goes with its server.
 */
export class CfnToolsGuests extends GuestSupervisor<CfnGuest> {
  constructor(
    live: () => SandboxContext,
    regions: ReadonlyMap<string | null, SandboxState>,
    stateFile?: string,
  ) {
    super(live, regions, CFN_TOOLS_KIND, 'cfntools', stateFile);
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
    return this.folder(serverId);
  }

  protected makeGuest(serverId: string): CfnGuest {
    return new CfnGuest(
      {
        ctx: this.live,
        serverState: (record) => this.power(record.region, record.serverId),
        gone: (id) => this.forget(id),
        root: (id) => this.root(id),
      },
      serverId,
    );
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
