import type { JsonObject } from '../../util/json.js';
import type { SandboxContext } from '../app.js';
import type { AgentBinder } from '../bindings.js';
import { GuestSupervisor } from '../guests.js';
import type { SandboxState } from '../state.js';
import { Agent, AGENT_KIND, type AgentRecord } from './agent.js';
import { collectConfig, initData } from './bootstrap.js';
import { chooseTransport } from './collectors.js';

/**
 * The sandbox's guest agents: one per server whose user_data configures os-collect-config (told
 * by Nova's create), and one per DeployedServer a test registers. Each runs on timers in the
 * sandbox's process; a server's agent goes with the server, its scratch folder too.
 */
export class GuestAgents extends GuestSupervisor<Agent> {
  constructor(
    live: () => SandboxContext,
    regions: ReadonlyMap<string | null, SandboxState>,
    /** The sandbox's state file: scratch folders go beside it (default: a temporary folder). */
    stateFile?: string,
  ) {
    super(live, regions, AGENT_KIND, 'agents', stateFile);
  }

  /** Resumes the agents a state file kept (a restarted sandbox's guests carry on). */
  resume(): void {
    for (const record of this.list()) {
      if (record.status !== 'stopped') this.launch(record.id);
    }
  }

  /** What Nova's create tells (a region's): the agent starts once the server is ACTIVE. */
  binder(region: string | null): AgentBinder {
    return {
      serverCreated: (server) => {
        const occ = collectConfig(initData(server.userData));
        if (!occ) return;
        this.put({
          id: server.id,
          serverId: server.id,
          source: 'server',
          region,
          occ,
          status: 'waiting',
          activeAt: null,
          lastPollAt: null,
          lastError: null,
          configs: {},
        });
        this.launch(server.id);
      },
    };
  }

  /** `POST /admin/agents`: an agent for a server the sandbox does not run (a DeployedServer). */
  register(serverId: string, occ: JsonObject): AgentRecord {
    if (!chooseTransport(occ)) {
      throw new Error(
        'os_collect_config has no usable collector (cfn, heat, zaqar or request with all their settings)',
      );
    }
    this.running.get(serverId)?.stop();
    this.running.delete(serverId);
    const previous = this.live().state.get<AgentRecord>(AGENT_KIND, serverId);
    const record = this.put({
      id: serverId,
      serverId,
      source: 'registered',
      region: null,
      occ,
      status: 'waiting',
      // A registered guest is up now; what it applied before stays applied.
      activeAt: this.live().now(),
      lastPollAt: null,
      lastError: null,
      configs: previous?.configs ?? {},
    });
    this.launch(serverId);
    return record;
  }

  /** Stops a server's agent out of band (the guest's agent dies); false: it has none. */
  stop(serverId: string): boolean {
    const record = this.live().state.get<AgentRecord>(AGENT_KIND, serverId);
    if (!record) return false;
    this.running.get(serverId)?.stop();
    this.running.delete(serverId);
    this.put({ ...record, status: 'stopped' });
    return true;
  }

  /** The agents; a stopped one whose server is gone is forgotten (no loop of its own notices). */
  list(): AgentRecord[] {
    return this.live()
      .state.list<AgentRecord>(AGENT_KIND)
      .filter((record) => {
        if (record.status !== 'stopped' || this.serverState(record) !== 'gone') return true;
        this.forget(record.id);
        return false;
      });
  }

  private put(record: AgentRecord): AgentRecord {
    return this.live().state.put(AGENT_KIND, null, record);
  }

  protected makeGuest(serverId: string): Agent {
    return new Agent(
      {
        ctx: this.live,
        serverState: (record) => this.serverState(record),
        gone: (id) => this.forget(id),
        dir: (id) => this.folder(id),
      },
      serverId,
    );
  }

  private serverState(record: AgentRecord): 'running' | 'off' | 'gone' {
    if (record.source === 'registered') return 'running';
    return this.power(record.region, record.serverId);
  }
}
