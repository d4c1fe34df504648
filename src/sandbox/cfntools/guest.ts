import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import type { Json } from '../../util/json.js';
import type { SandboxContext } from '../app.js';
import { killHook } from '../agent/hooks.js';
import { shownUrl } from '../agent/http.js';
import { happens } from '../noise.js';
import type { SandboxObject } from '../state.js';
import { HupLoop, type HupState } from './hup.js';
import { applyInit, type CommandRecord, type FileRecord, guestPath, type RecordedSections } from './init.js';
import { parseOptions } from './options.js';
import { describeMetadata, parseCredentials, putSignal } from './remote.js';
import { ScriptRun, type ToolName } from './script.js';

/**
 * One sandbox server's heat-cfntools: once the server is ACTIVE (and the start delay passed), its
 * `cfn-userdata` script is interpreted once (script.ts) and each heat-cfntools call emulated here:
 * cfn-init (the metadata retrieved as heat-cfntools do, then init.ts), cfn-signal (a PUT),
 * cfn-get-metadata, cfn-hup (hup.ts). What happened is kept in the record `/admin/cfntools` shows.
 */

export type ToolCall = { tool: string; args: string[]; status: number; message: string | null };

export type SignalRecord = {
  url: string;
  status: string;
  reason: string;
  unique_id: string;
  data: string;
  exit: number;
  http_status: number | null;
  error: string | null;
};

export interface CfnToolsRecord extends SandboxObject {
  serverId: string;
  region: string | null;
  /** The boot data: the script, the metadata of cfn-init-data, the CFN API's URL (never shown). */
  script: string;
  initData: Json;
  endpoint: string | null;
  status: 'waiting' | 'running' | 'done';
  activeAt: number | null;
  exitStatus: number | null;
  lastError: string | null;
  calls: ToolCall[];
  files: FileRecord[];
  commands: CommandRecord[];
  recorded: RecordedSections[];
  signals: SignalRecord[];
  hup: HupState | null;
  /** heat-cfntools' /var/cache/heat-cfntools/last_metadata(_<resource>) ('' is the unsuffixed one). */
  lastMetadata: Record<string, Json>;
}

export const CFN_TOOLS_KIND = 'cfn_tools';

export interface GuestHost {
  ctx(): SandboxContext;
  serverState(record: CfnToolsRecord): 'running' | 'off' | 'gone';
  gone(serverId: string): void;
  /** The server's scratch root, its `/`. */
  root(serverId: string): string;
}

/** Arguments as /admin shows them: secret keys masked, URLs without their signatures. */
function shownArgs(args: string[]): string[] {
  return args.map((arg, i) => {
    if (/^--secret-key(=|$)/.test(args[i - 1] ?? '') || arg.startsWith('--secret-key=')) return '<secret>';
    return /^https?:\/\//.test(arg) ? shownUrl(arg) : arg;
  });
}

export class CfnGuest {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly children = new Set<ChildProcess>();
  private hup: HupLoop | undefined;

  constructor(
    private readonly host: GuestHost,
    readonly serverId: string,
  ) {}

  get record(): CfnToolsRecord | undefined {
    return this.host.ctx().state.get<CfnToolsRecord>(CFN_TOOLS_KIND, this.serverId);
  }

  save(change: (record: CfnToolsRecord) => void): void {
    if (this.stopped) return;
    const record = this.record;
    if (!record) return;
    change(record);
    this.host.ctx().state.put(CFN_TOOLS_KIND, null, record);
  }

  get root(): string {
    return this.host.root(this.serverId);
  }

  get alive(): boolean {
    return !this.stopped;
  }

  start(): void {
    const record = this.record;
    if (record?.status === 'done' && record.hup) this.startHup();
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.hup?.stop();
    for (const child of this.children) killHook(child);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().catch((error: unknown) => {
        // The script is not tried again; the guest is still watched for its server's end.
        this.save((r) => {
          r.lastError = (error as Error).message;
          if (r.status === 'running') r.status = 'done';
        });
        this.schedule(this.host.ctx().noise().agentPollIntervalMs);
      });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const record = this.record;
    if (!record || this.stopped) return;
    const where = this.host.serverState(record);
    if (where === 'gone') return this.host.gone(this.serverId);
    const ctx = this.host.ctx();
    const poll = ctx.noise().agentPollIntervalMs;
    // Once the script ran, the guest is only watched for its server's end.
    if (where === 'off' || record.status !== 'waiting') return this.schedule(poll);
    const now = ctx.now();
    if (record.activeAt === null) this.save((r) => (r.activeAt = now));
    const wait = (record.activeAt ?? now) + ctx.noise().cfnStartDelayMs - now;
    if (wait > 0) return this.schedule(Math.min(wait, poll));
    await this.runScript();
    this.schedule(poll);
  }

  private async runScript(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    this.save((r) => (r.status = 'running'));
    const script = this.record!.script;
    const exit = await new ScriptRun({
      tool: (name, args) => this.tool(name, args),
      other: (words) => this.other(words),
      alive: () => this.alive,
    }).run(script);
    this.save((r) => {
      r.status = 'done';
      r.exitStatus = exit;
    });
  }

  /** A heat-cfntools call of the script (or of a cfn-hup hook's action). */
  async tool(name: ToolName, args: string[]): Promise<number> {
    const parsed = parseOptions(name, args);
    let status: number;
    let message: string | null = null;
    if (!parsed.ok) {
      status = 2;
      message = parsed.error;
    } else {
      try {
        status = await this.emulate(name, parsed.values);
      } catch (error) {
        status = 1;
        message = (error as Error).message;
      }
    }
    this.save((r) => r.calls.push({ tool: name, args: shownArgs(args), status, message }));
    return status;
  }

  private async emulate(name: ToolName, values: Record<string, string>): Promise<number> {
    if (name === 'cfn-init') return this.cfnInit(values);
    if (name === 'cfn-signal') return this.cfnSignal(values);
    if (name === 'cfn-get-metadata') {
      let { accessKey, secretKey } = values;
      if (values.credentialFile) {
        ({ accessKey, secretKey } = parseCredentials(await this.readGuest(values.credentialFile)));
      }
      await this.retrieve(values.stack, values.resource!, accessKey, secretKey);
      return 0;
    }
    return this.startHup() ? 0 : 1;
  }

  private async cfnInit(values: Record<string, string>): Promise<number> {
    const ctx = this.host.ctx();
    if (happens(ctx.noise().cfnFailureRate, ctx.random)) {
      throw new Error('cfn-init failed (sandbox noise: cfnFailureRate)');
    }
    const metadata = await this.retrieve(values.stack, values.resource, values.accessKey, values.secretKey);
    const result = await applyInit(
      {
        root: this.root,
        policy: ctx.noise().cfnCommands,
        timeoutMs: ctx.noise().cfnCommandTimeoutMs,
        children: this.children,
      },
      metadata,
      values.configsets,
    );
    this.save((r) => {
      r.files.push(...result.files);
      r.commands.push(...result.commands);
      r.recorded.push(...result.recorded);
    });
    if (result.error) throw new Error(`Error processing metadata: ${result.error}`);
    return 0;
  }

  /**
   * Metadata.retrieve: the CFN API when keys are given; else the last metadata kept, then
   * cfn-init-data. What it read becomes the last metadata.
   */
  async retrieve(
    stack: string | undefined,
    resource: string | undefined,
    accessKey: string | undefined,
    secretKey: string | undefined,
  ): Promise<Json | undefined> {
    const record = this.record!;
    let metadata: Json | undefined;
    if (accessKey && secretKey) {
      if (!record.endpoint) throw new Error('no CFN API in the user data (cfn-metadata-server)');
      metadata = await describeMetadata(record.endpoint, accessKey, secretKey, stack ?? '', resource ?? '');
    } else {
      const cached = record.lastMetadata;
      metadata = (resource !== undefined ? cached[resource] : undefined) ?? cached[''] ?? record.initData;
      if (metadata === null) return undefined;
    }
    this.save((r) => {
      r.lastMetadata[''] = metadata!;
      if (resource !== undefined) r.lastMetadata[resource] = metadata!;
    });
    return metadata;
  }

  private async cfnSignal(values: Record<string, string>): Promise<number> {
    const exitCode = values.exitCode ?? values.exit;
    // `-e` wins over `-s`; heat-cfntools' default id is the server's uuid.
    const success = exitCode ? exitCode === '0' : (values.success ?? 'true') === 'true';
    const body = {
      Status: success ? 'SUCCESS' : 'FAILURE',
      Reason: values.reason ?? 'Configuration Complete',
      UniqueId: values.id ?? this.serverId,
      Data: values.data ?? 'Application has completed configuration.',
    };
    const outcome = await putSignal(values.url!, body);
    this.save((r) =>
      r.signals.push({
        url: shownUrl(values.url!),
        status: body.Status,
        reason: body.Reason,
        unique_id: body.UniqueId,
        data: body.Data,
        exit: outcome.exit,
        http_status: outcome.httpStatus,
        error: outcome.error,
      }),
    );
    return outcome.exit;
  }

  /** Commands the script runs besides heat-cfntools': only a crontab that runs cfn-hup matters. */
  private async other(words: string[]): Promise<number> {
    if (words[0] === 'crontab' && words[1] !== undefined && !words[1].startsWith('-')) {
      const table = await this.readGuest(words[1]).catch(() => '');
      if (/cfn-hup/.test(table)) this.startHup();
    }
    return 0;
  }

  async readGuest(path: string): Promise<string> {
    return readFile(guestPath(this.root, path), 'utf8');
  }

  /** Starts cfn-hup's loop once (false: its configuration is missing). */
  private startHup(): boolean {
    this.hup ??= new HupLoop(this);
    return this.hup.start();
  }

  ctx(): SandboxContext {
    return this.host.ctx();
  }
}
