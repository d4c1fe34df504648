import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { Json } from '../../util/json.js';
import type { SandboxContext } from '../app.js';
import { guestPath } from './init.js';
import { parseCredentials } from './remote.js';
import { ScriptRun, type ToolName } from './script.js';

/**
 * cfn-hup on a sandbox guest, as cron would run heat-cfntools' one-pass cfn-hup: every interval
 * (the conf's `interval` in minutes, or the `cfnHupIntervalMs` knob) each hooked resource's metadata
 * is read through the CFN API with the conf's credential file; when it differs from the last kept,
 * the `post.update` hooks of that resource run their action, interpreted as the UserData is (an
 * emulated cfn-init; nothing else runs).
 */

export type HupState = {
  interval_ms: number;
  polls: number;
  last_poll_at: string | null;
  last_error: string | null;
  /** The hook actions run, by hook name, with their exit statuses. */
  hooks_run: { hook: string; status: number }[];
};

const CONF = '/etc/cfn/cfn-hup.conf';
const HOOKS = '/etc/cfn/hooks.conf';
const HOOKS_DIR = '/etc/cfn/hooks.d';

/** What cfn-hup needs of its guest (guest.ts). */
export interface HupGuest {
  readonly root: string;
  readonly alive: boolean;
  readonly record: { lastMetadata: Record<string, Json>; hup: HupState | null } | undefined;
  ctx(): SandboxContext;
  save(change: (record: { hup: HupState | null }) => void): void;
  readGuest(path: string): Promise<string>;
  retrieve(
    stack: string,
    resource: string,
    accessKey?: string,
    secretKey?: string,
  ): Promise<Json | undefined>;
  tool(name: ToolName, args: string[]): Promise<number>;
}

type Ini = Map<string, Map<string, string>>;

/** configparser's reading, enough for cfn-hup's files: sections, `key=value` / `key: value`. */
export function parseIni(text: string, into: Ini = new Map()): Ini {
  let section: Map<string, string> | undefined;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || /^[#;]/.test(trimmed)) continue;
    const header = /^\[([^\]]+)\]$/.exec(trimmed);
    if (header) {
      section = into.get(header[1]!) ?? new Map<string, string>();
      into.set(header[1]!, section);
      continue;
    }
    const m = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(trimmed);
    if (m && section) section.set(m[1]!.toLowerCase(), m[2]!);
  }
  return into;
}

export class HupLoop {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;

  constructor(private readonly guest: HupGuest) {}

  start(): boolean {
    const conf = guestPath(this.guest.root, CONF);
    if (!existsSync(conf)) return false;
    if (this.running) return true;
    this.running = true;
    const noise = this.guest.ctx().noise();
    this.guest.save((r) => {
      r.hup ??= {
        interval_ms: noise.cfnHupIntervalMs,
        polls: 0,
        last_poll_at: null,
        last_error: null,
        hooks_run: [],
      };
    });
    this.schedule(parseIni(readFileSync(conf, 'utf8')).get('main'));
    return true;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async config(): Promise<{ main: Map<string, string>; hooks: Ini }> {
    const ini = parseIni(await this.guest.readGuest(CONF));
    const main = ini.get('main') ?? new Map<string, string>();
    const hooks: Ini = new Map();
    parseIni(await this.guest.readGuest(HOOKS).catch(() => ''), hooks);
    const dir = await readdir(guestPath(this.guest.root, HOOKS_DIR)).catch(() => [] as string[]);
    for (const file of dir.sort()) {
      parseIni(await this.guest.readGuest(`${HOOKS_DIR}/${file}`).catch(() => ''), hooks);
    }
    hooks.delete('main');
    return { main, hooks };
  }

  private intervalMs(main?: Map<string, string>): number {
    const knob = this.guest.ctx().noise().cfnHupIntervalMs;
    if (knob > 0) return knob;
    const minutes = Number(main?.get('interval') ?? 10);
    return (Number.isFinite(minutes) && minutes > 0 ? minutes : 10) * 60_000;
  }

  private schedule(main?: Map<string, string>): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.poll().finally(() => undefined);
    }, this.intervalMs(main));
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    let main: Map<string, string> | undefined;
    try {
      const config = await this.config();
      main = config.main;
      const stack = main.get('stack');
      const file = main.get('credential-file');
      if (!stack || !file) throw new Error(`${CONF}: stack and credential-file are required`);
      const { accessKey, secretKey } = parseCredentials(await this.guest.readGuest(file));
      const resources = [
        ...new Set([...config.hooks.values()].map((h) => (h.get('path') ?? '').split('.')[1])),
      ];
      for (const resource of resources) {
        if (!resource || !this.guest.alive) continue;
        const before = JSON.stringify(this.guest.record?.lastMetadata[resource] ?? null);
        const now = await this.guest.retrieve(stack, resource, accessKey, secretKey);
        if (JSON.stringify(now ?? null) === before) continue;
        for (const [name, hook] of config.hooks) {
          if ((hook.get('path') ?? '').split('.')[1] !== resource) continue;
          if (!(hook.get('triggers') ?? '').includes('post.update')) continue;
          const status = await new ScriptRun({
            tool: (tool, args) => this.guest.tool(tool, args),
            other: async () => 0,
            alive: () => this.guest.alive,
          }).run(hook.get('action') ?? '');
          this.guest.save((r) => r.hup?.hooks_run.push({ hook: name, status }));
        }
      }
      this.note(null);
    } catch (error) {
      this.note((error as Error).message);
    }
    this.schedule(main);
  }

  private note(error: string | null): void {
    const at = new Date(this.guest.ctx().now()).toISOString();
    this.guest.save((r) => {
      if (!r.hup) return;
      r.hup.polls++;
      r.hup.last_poll_at = at;
      r.hup.last_error = error;
      r.hup.interval_ms = this.intervalMs();
    });
  }
}
