import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxContext } from './app.js';
import { guestPower } from './compute/server-state.js';
import type { SandboxState } from './state.js';

/** A program the sandbox runs for a server, on its own timers (an agent, heat-cfntools). */
export interface Guest {
  start(): void;
  stop(): void;
}

/**
 * What the sandbox's guest supervisors share: one guest per server, kept by server id, run while
 * the sandbox is open; each server's scratch folder under a root (beside the state file, or a
 * temporary folder removed on close); a server's guest, record and folder go with the server.
 */
export abstract class GuestSupervisor<G extends Guest> {
  protected readonly running = new Map<string, G>();
  private rootDir: string | undefined;
  private readonly ownsRoot: boolean;
  protected closed = false;

  constructor(
    protected readonly live: () => SandboxContext,
    /** Each region's state (null: the first region's), where its servers are. */
    protected readonly regions: ReadonlyMap<string | null, SandboxState>,
    /** The state kind of the guests' records. */
    private readonly kind: string,
    /** What the scratch root is called: `<state file>.<name>`, or a temporary `hearth-sandbox-<name>-`. */
    private readonly name: string,
    /** The sandbox's state file (default: a temporary folder). */
    stateFile?: string,
  ) {
    this.ownsRoot = stateFile === undefined;
    if (stateFile !== undefined) this.rootDir = `${stateFile}.${name}`;
  }

  protected abstract makeGuest(serverId: string): G;

  /** The server's scratch folder. */
  folder(serverId: string): string {
    this.rootDir ??= mkdtempSync(join(tmpdir(), `hearth-sandbox-${this.name}-`));
    return join(this.rootDir, serverId);
  }

  protected launch(serverId: string): void {
    if (this.closed || this.running.has(serverId)) return;
    const guest = this.makeGuest(serverId);
    this.running.set(serverId, guest);
    guest.start();
  }

  /** Whether the guest's server (of `region`) runs now: ACTIVE, another status, or deleted. */
  protected power(region: string | null, serverId: string): 'running' | 'off' | 'gone' {
    const state = this.regions.get(region) ?? this.live().state;
    return guestPower(state, serverId, this.live().now());
  }

  /** The server was deleted: its guest, record and scratch folder go. */
  protected forget(serverId: string): void {
    this.running.get(serverId)?.stop();
    this.running.delete(serverId);
    this.live().state.delete(this.kind, serverId);
    if (this.rootDir) void rm(join(this.rootDir, serverId), { recursive: true, force: true }).catch(() => {});
  }

  /** The sandbox closes: timers and children stop; a temporary scratch root goes. */
  async close(): Promise<void> {
    this.closed = true;
    for (const guest of this.running.values()) guest.stop();
    this.running.clear();
    if (this.ownsRoot && this.rootDir) await rm(this.rootDir, { recursive: true, force: true });
  }
}
