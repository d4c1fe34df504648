import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const WEB = join(ROOT, 'web');
const BUILT = join(ROOT, 'dist', 'web', 'index.html');

/** The newest modification time of the files under `dir` (the web sources). */
function newest(dir: string): number {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

/**
 * Builds the console (vite build web, as `npm run build` does) when dist/web is missing or older
 * than a file of web/ (a working tree being edited); a fresh checkout's `npm ci` has built it.
 */
export function ensureConsoleBuilt(): void {
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newest(WEB)) return;
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', 'web'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vite build web exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
}
