// Runs the CLI's CommonJS bundle with a V8 code cache: Node 20 has no compile cache of its own
// (module.enableCompileCache is Node 22), and compiling the 5 MB bundle was most of a command's
// start-up. The bundle is compiled through vm.Script with the cache's data; a cache is written after
// the command ran, so the functions V8 compiled lazily for it are in it too. One cache per command
// (`stack list`): V8 loads all of a cache's code at once, and one that held every command's would
// cost each more than it saves. Nothing here may fail a command: a cache error means compiling.
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire, Module } from 'node:module';
import { isAscii } from 'node:buffer';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';

/** What the cache was made from: V8 checks only the source's length, so the file's identity too. */
interface Header {
  size: number;
  mtimeMs: number;
}

/** Runs `file`, a CommonJS bundle, as the process's program; its cache is written at exit. */
export function runCachedBundle(file: string, argv: readonly string[] = process.argv): void {
  const bundle = compileCached(file, commandKey(argv));
  if (bundle.cache !== 'used') process.once('exit', () => bundle.save());
  bundle.run();
}

export interface CachedBundle {
  /** Whether the compile used a cache; else why not. */
  cache: 'used' | 'none' | 'rejected';
  /** Runs the bundle as a CommonJS module. */
  run(): void;
  /** Writes the cache, with what V8 has compiled so far. */
  save(): void;
}

/** The bundle compiled with the cache of `command`, if there is one that fits. */
export function compileCached(file: string, command: string): CachedBundle {
  const bytes = readFileSync(file);
  // The build writes ASCII (esbuild's default charset): read as such, the string is one byte a
  // character and made three times faster.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const stat = statSync(file);
  const header: Header = { size: stat.size, mtimeMs: stat.mtimeMs };
  const cacheFile = cachePath(file, command);
  const data = readCache(cacheFile, header);
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(data ? { cachedData: data } : {}),
    // Bundled packages may still import() at run time: as a module loaded by require would.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER as never,
  });
  return {
    cache: !data ? 'none' : script.cachedDataRejected ? 'rejected' : 'used',
    run() {
      const module = new Module(file);
      module.filename = file;
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
    },
    save: () => writeCache(cacheFile, script, header),
  };
}

/**
 * A cache per command and per node and V8 flags (V8 rejects data made under others; one file each
 * keeps processes started with different flags from rewriting each other's), beside the bundle,
 * or in the temporary directory when the bundle's is read-only.
 */
export function cachePath(file: string, command: string): string {
  const key = createHash('sha1')
    .update(
      [command, process.version, process.arch, process.env.NODE_OPTIONS ?? '', ...process.execArgv].join(
        '\0',
      ),
    )
    .digest('hex')
    .slice(0, 12);
  const name = `${basename(file)}.${key}.cache`;
  const dir = dirname(file);
  try {
    accessSync(dir, constants.W_OK);
    return join(dir, name);
  } catch {
    const place = createHash('sha1').update(file).digest('hex').slice(0, 12);
    // A folder of this user's own: code another user could write there would run as this one.
    const user = process.getuid?.() ?? 'user';
    return join(tmpdir(), `hearth-code-cache-${user}`, `${place}-${name}`);
  }
}

/** Whether `dir` is this user's alone (no one else could have put a cache in it). */
function ownedPrivately(dir: string): boolean {
  if (!process.getuid) return true;
  const stat = statSync(dir);
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

/**
 * The command a run stands for, which names its cache: the first two words of the arguments
 * (`stack list`), leaving out options and the word after each (their values: `--db x stack list`).
 * A wrong guess costs only a cache that fits the command less.
 */
export function commandKey(argv: readonly string[]): string {
  const words: string[] = [];
  const args = argv.slice(2);
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i]!;
    if (arg.startsWith('-')) {
      if (!arg.includes('=')) i++;
    } else if (/^[a-z][a-z-]*$/.test(arg)) words.push(arg);
    else break;
  }
  return words.join(' ');
}

// The file: the header's length (4 bytes), the header as JSON, V8's data.
function readCache(path: string, expected: Header): Buffer | undefined {
  try {
    if (!ownedPrivately(dirname(path))) return undefined;
    const bytes = readFileSync(path);
    const length = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as Header;
    if (header.size !== expected.size || header.mtimeMs !== expected.mtimeMs) return undefined;
    return bytes.subarray(4 + length);
  } catch {
    return undefined;
  }
}

/** Written whole under a name of its own, then renamed: concurrent readers and writers are safe. */
function writeCache(path: string, script: Script, header: Header): void {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(json.length, 0);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (!ownedPrivately(dirname(path))) return;
    writeFileSync(temporary, Buffer.concat([length, json, script.createCachedData()]));
    renameSync(temporary, path);
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
  }
}
