import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * crosses its threshold, on the committing thread: after a traversal start of 200,000 resources
 * it copies hundreds of MiB back into the database file there, holding the loop of `hearth serve`
 * for over a second. The driver turns it off (`wal_autocheckpoint = 0`) and, after each commit,
 * calls `committed()`: once the WAL is past the threshold, a worker thread with its own connection
 * runs a PASSIVE checkpoint (it never blocks this process's writer or readers). The worker starts
 * on first need, so the many small stores of a test run never start one.
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private running = false;
  private again = false;
  private closed = false;
  /** Set once a worker could not start or died: checkpoints run on the committing thread. */
  private fallbackOnly = false;

  constructor(
    private readonly file: string,
    /** What to run where no worker can start: the checkpoint on this thread. */
    private readonly fallback: () => void,
    /** WAL size past which a checkpoint is due: SQLite's own default, 1000 pages of 4 KiB. */
    private readonly thresholdBytes = 4096 * 1000,
  ) {}

  /** Called after each commit: asks for a checkpoint when the WAL has grown past the threshold. */
  committed(): void {
    if (this.closed || this.walBytes() < this.thresholdBytes) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.start();
  }

  private walBytes(): number {
    try {
      return statSync(`${this.file}-wal`).size;
    } catch {
      return 0;
    }
  }

  private start(): void {
    this.running = true;
    this.again = false;
    const worker = this.workerOrUndefined();
    if (!worker) {
      this.running = false;
      this.fallback();
      return;
    }
    worker.postMessage('checkpoint');
  }

  private workerOrUndefined(): Worker | undefined {
    if (this.worker || this.fallbackOnly) return this.worker;
    try {
      const module = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, file: this.file } });
      worker.unref();
      worker.on('message', () => {
        this.running = false;
        if (this.again && !this.closed) this.committed();
      });
      worker.on('error', () => {
        // A worker that died leaves checkpoints to the committing thread.
        this.worker = undefined;
        this.running = false;
        this.fallbackOnly = true;
      });
      this.worker = worker;
      return worker;
    } catch {
      this.fallbackOnly = true;
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

// CommonJS, run by the worker: one connection, a PASSIVE checkpoint per request. Its busy timeout
// is short: a checkpoint that meets another process's checkpoint just waits for the next commit.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { timeout: 100 });
parentPort.on('message', () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  parentPort.postMessage('done');
});
`;
