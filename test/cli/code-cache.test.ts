import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { cachePath, commandKey, compileCached } from '../../src/cli/code-cache.js';

/*
 * The CLI bundle's V8 code cache (src/cli/code-cache.ts): used when it fits, rebuilt when it does
 * not, safe to write from many processes at once, never in a command's way.
 */

const run = promisify(execFile);
const SOURCE = resolve(import.meta.dirname, '../../src/cli/code-cache.ts');

/** A small CommonJS bundle in a directory of its own: it records what its module scope gave it. */
function bundle(
  body = 'globalThis.codeCacheTest = { sep: require("node:path").sep, file: __filename, exports: module.exports === exports };',
): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-code-cache-'));
  const file = join(dir, 'hearth.cjs');
  writeFileSync(
    file,
    `${body}\nfunction later(n) { return n * 2; }\nglobalThis.codeCacheLater = later(21);\n`,
  );
  return file;
}

/**
 * Runs, in a process of its own (V8 keeps what it compiled in memory: a second compile in this
 * process would not read the cache), the bundle as bin/hearth.js does, or with `check`, says how
 * its compile used the cache.
 */
function child(file: string): (...args: string[]) => Promise<{ stdout: string }> {
  const script = join(file, '..', 'child.mjs');
  writeFileSync(
    script,
    `import { compileCached, runCachedBundle } from ${JSON.stringify(SOURCE)};
    const file = ${JSON.stringify(file)};
    if (process.argv[2] === 'check') process.stdout.write(compileCached(file, 'stack list').cache);
    else runCachedBundle(file);`,
  );
  return (...args) => run(process.execPath, ['--import', import.meta.resolve('tsx'), script, ...args]);
}

const caches = (file: string) => readdirSync(join(file, '..')).filter((name) => name.endsWith('.cache'));

describe('the CLI bundle code cache', () => {
  it('names a run by its command words, leaving out options and their values', () => {
    assert.equal(commandKey(['node', 'hearth', '--db', 'x', 'stack', 'list']), 'stack list');
    assert.equal(commandKey(['node', 'hearth', '--db=x.db', 'stack', 'show', 'mine']), 'stack show');
    assert.equal(commandKey(['node', 'hearth', 'manage', 'token', 'list']), 'manage token');
    assert.equal(commandKey(['node', 'hearth', '--version']), '');
  });

  it('runs the bundle as a CommonJS module, writes its cache and uses it the next time', () => {
    const file = bundle();
    const first = compileCached(file, 'stack list');
    assert.equal(first.cache, 'none');
    first.run();
    assert.deepEqual((globalThis as Record<string, unknown>).codeCacheTest, {
      sep: '/',
      file,
      exports: true,
    });
    first.save();
    assert.equal(caches(file).length, 1);

    // (Compiled again in this process, V8 takes its own copy, not the cache: see child.)
    const second = compileCached(file, 'stack list');
    assert.notEqual(second.cache, 'rejected');
    second.run();
    assert.equal((globalThis as Record<string, unknown>).codeCacheLater, 42);
    // Another command has a cache of its own.
    assert.equal(compileCached(file, 'stack show').cache, 'none');
  });

  it('does not use a cache made for another build of the bundle, even one of the same length', () => {
    const file = bundle();
    const first = compileCached(file, 'x');
    first.run();
    first.save();
    // V8 itself checks only the source's length: the cache must not be used for this one.
    writeFileSync(file, readFileSync(file, 'utf8').replace('n * 2', 'n * 3'));
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const second = compileCached(file, 'x');
    assert.equal(second.cache, 'none');
    second.run();
    assert.equal((globalThis as Record<string, unknown>).codeCacheLater, 63);
  });

  it('compiles from source when the cache is damaged, and replaces it', async () => {
    const file = bundle();
    const node = child(file);
    await node('stack', 'list');
    assert.equal((await node('check')).stdout, 'used');
    // V8's data begins with its magic number and the version and flags it was made with.
    const path = join(file, '..', caches(file)[0]!);
    const bytes = readFileSync(path);
    const data = 4 + bytes.readUInt32LE(0);
    bytes.fill(7, data, data + 16);
    writeFileSync(path, bytes);
    assert.equal((await node('check')).stdout, 'rejected');
    await node('stack', 'list');
    assert.equal((await node('check')).stdout, 'used');
    writeFileSync(path, 'not a cache');
    assert.equal((await node('check')).stdout, 'none');
  });

  it('uses no cache from a folder another user could write in', async () => {
    const file = bundle();
    const node = child(file);
    await node('stack', 'list');
    assert.equal((await node('check')).stdout, 'used');
    chmodSync(join(file, '..'), 0o777);
    assert.equal((await node('check')).stdout, 'none');
  });

  it('keeps the cache in a temporary folder of its user’s when the bundle’s cannot be written', () => {
    assert.ok(
      cachePath('/nonexistent/dir/hearth.cjs', 'x').startsWith(
        join(tmpdir(), `hearth-code-cache-${process.getuid!()}`),
      ),
    );
    assert.ok(cachePath(join(tmpdir(), 'hearth.cjs'), 'x').startsWith(join(tmpdir(), 'hearth.cjs.')));
  });

  it('is written safely by many processes at once', async () => {
    const file = bundle('process.stdout.write(String(require("node:os").cpus().length > 0));');
    const node = child(file);
    const outputs = await Promise.all(Array.from({ length: 6 }, () => node('stack', 'list')));
    for (const { stdout } of outputs) assert.equal(stdout, 'true');
    // One cache, whole (no temporary file left), which the next run uses.
    assert.equal(readdirSync(join(file, '..')).filter((name) => name.includes('.cache')).length, 1);
    assert.equal((await node('check')).stdout, 'used');
  });
});
