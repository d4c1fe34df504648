// The background engine's one-per-file lock: a live holder keeps it, a killed one's file is taken over.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { backgroundFiles, releaseLock, takeLock } from '../../src/cli/background-engine.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.ok(r.pid);
  return r.pid;
}

describe('background engine lock', () => {
  it('names its files after the store', () => {
    assert.deepEqual(backgroundFiles('/x/state.db'), {
      lock: '/x/state.db.engine.pid',
      log: '/x/state.db.engine.log',
    });
  });

  it('one holder at a time; only the holder lets go', () => {
    const lock = join(dir, 'one.pid');
    assert.equal(takeLock(lock), true);
    assert.equal(readFileSync(lock, 'utf8').trim(), String(process.pid));
    assert.equal(takeLock(lock), false, 'held by a live process (this one)');
    writeFileSync(lock, `${process.ppid}\n`);
    releaseLock(lock);
    assert.equal(existsSync(lock), true, "another process's lock stays");
    writeFileSync(lock, `${process.pid}\n`);
    releaseLock(lock);
    assert.equal(existsSync(lock), false);
  });

  it('takes over the lock of a process that died', () => {
    const lock = join(dir, 'dead.pid');
    writeFileSync(lock, `${deadPid()}\n`);
    assert.equal(takeLock(lock), true);
    assert.equal(readFileSync(lock, 'utf8').trim(), String(process.pid));
  });

  it('takes over a lock not refreshed for long (its pid may have been reused)', () => {
    const lock = join(dir, 'old.pid');
    writeFileSync(lock, `${process.ppid}\n`);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    assert.equal(takeLock(lock), true);
  });

  it('takes over a lock holding no pid once it is old, not while fresh', () => {
    const lock = join(dir, 'empty.pid');
    writeFileSync(lock, '');
    assert.equal(takeLock(lock), false, 'fresh: its holder is writing it');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    assert.equal(takeLock(lock), true);
  });
});
