/**
 * A PostgreSQL server of the test's own, which it may stop and restart at will (the shared one on
 * 5432 serves other tests): a new cluster in a temporary directory, listening on 127.0.0.1 at a
 * free port, trust authentication, fsync off. initdb refuses to run as root, so as root the server
 * runs as the `postgres` OS user.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const OS_USER = 'postgres';

/** The directory of initdb and pg_ctl (the newest installed version), if PostgreSQL is installed. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** `{ skip }` for a describe(): without the binaries, skipped, except under CI, where it fails. */
export function privatePostgresSuiteOptions(): { skip?: string } {
  if (postgresBinaries()) return {};
  const why = 'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin';
  if (process.env.CI === 'true') throw new Error(`${why} (CI=true: the database restart test must run)`);
  return { skip: why };
}

export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    /** The temporary directory: the data directory, the socket and the log. */
    readonly dir: string,
    readonly port: number,
  ) {}

  /** A URL of the server's `postgres` database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  /** Creates the cluster and starts it; removes everything again if that fails. */
  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBinaries();
    if (!bin) throw new Error('no PostgreSQL server binaries');
    const dir = mkdtempSync(join(tmpdir(), 'hearth-pg-'));
    let server: PrivatePostgres | undefined;
    try {
      if (process.getuid?.() === 0) {
        const { stdout } = await run('id', ['-u', OS_USER]);
        const { stdout: gid } = await run('id', ['-g', OS_USER]);
        chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
      }
      server = new PrivatePostgres(bin, dir, 0);
      await server.pg('initdb', ['-D', server.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      // A port someone else took meanwhile makes the start fail: another one is tried.
      for (let attempt = 1; ; attempt++) {
        const port = 55432 + Math.floor(Math.random() * 5000);
        server = new PrivatePostgres(bin, dir, port);
        try {
          await server.ctl('start');
          return server;
        } catch (error) {
          if (attempt >= 5) throw error;
        }
      }
    } catch (error) {
      await server?.ctl('stop', ['-m', 'immediate']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Runs a PostgreSQL program (as the postgres OS user when we are root). */
  private async pg(program: string, args: string[]): Promise<string> {
    const path = join(this.bin, program);
    const [file, argv] =
      process.getuid?.() === 0 ? ['runuser', ['-u', OS_USER, '--', path, ...args]] : [path, args];
    try {
      const { stdout } = await run(file, argv, { cwd: this.dir, timeout: 60_000 });
      return stdout;
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`${program} ${args.join(' ')} failed: ${(error as Error).message}\n${stderr ?? ''}`);
    }
  }

  /** pg_ctl `action` (start, stop, restart), waiting for it to finish. */
  private ctl(action: string, extra: string[] = []): Promise<string> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    return this.pg('pg_ctl', [
      action,
      '-w',
      '-D',
      this.data,
      '-l',
      join(this.dir, 'log'),
      '-o',
      options,
      ...extra,
    ]);
  }

  /** Restarts the server: a fast shutdown (open connections are cut) and a start. */
  restart(): Promise<string> {
    return this.ctl('restart', ['-m', 'fast']);
  }

  stop(): Promise<string> {
    return this.ctl('stop', ['-m', 'fast']);
  }

  start(): Promise<string> {
    return this.ctl('start');
  }

  /** Stops the server (if it runs) and removes its directory. */
  async close(): Promise<void> {
    await this.ctl('stop', ['-m', 'immediate']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
