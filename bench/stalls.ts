// What held a server's event loop while requests waited: reads the server's V8 CPU profile and the
// windows of slow requests that bench/responsive.ts logs (BENCH_PROFILE=DIR writes both), groups
// them by stall, and prints for each of the longest the frames on the stack in most of its
// samples (inclusive share), the garbage collector's share included.
//   node .bench-dist/bench/stalls.js DIR [WINDOWS=15]
// Both files use the monotonic clock in microseconds (V8's profile timestamps, process.hrtime).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [dir, countArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: stalls.js DIR [WINDOWS]');
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
const slow = JSON.parse(readFileSync(join(dir, 'slow.json'), 'utf8')) as [number, number][];

const parent = new Map<number, number>();
const byId = new Map<number, ProfileNode>();
for (const node of profile.nodes) {
  byId.set(node.id, node);
  for (const child of node.children ?? []) parent.set(child, node.id);
}
const frameName = (id: number) => {
  const f = byId.get(id)!.callFrame;
  const where = f.url
    ? ` ${f.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/')}:${f.lineNumber + 1}`
    : '';
  return `${f.functionName || '(anonymous)'}${where}`;
};

// Sample times, absolute.
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));

// One stall answers every request that waited on it at about the same moment: requests answered
// within 10 ms of each other form one window, from the earliest one's sending to the answers.
const windows: [number, number][] = [];
for (const [a, b] of slow.sort((x, y) => x[1] - y[1])) {
  const last = windows.at(-1);
  if (last && b - last[1] <= 10_000) {
    last[0] = Math.min(last[0], a);
    last[1] = b;
  } else windows.push([a, b]);
}
windows.sort((x, y) => y[1] - y[0] - (x[1] - x[0]));

console.log(`${slow.length} slow requests in ${windows.length} windows`);
for (const [a, b] of windows.slice(0, Number(countArg ?? 15))) {
  const counts = new Map<string, number>();
  let n = 0;
  for (let i = 0; i < times.length; i++) {
    if (times[i]! < a || times[i]! > b) continue;
    n++;
    const seen = new Set<string>();
    for (let at: number | undefined = profile.samples[i]; at !== undefined; at = parent.get(at)) {
      const name = frameName(at);
      if (!seen.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
      seen.add(name);
    }
  }
  const at = ((a - profile.startTime) / 1e6).toFixed(1);
  console.log(`\n${((b - a) / 1000).toFixed(0)} ms window at ${at} s, ${n} samples:`);
  const top = [...counts]
    .filter(([name]) => name !== '(root)')
    .sort((x, y) => y[1] - x[1])
    .slice(0, 14);
  for (const [name, c] of top)
    console.log(`  ${((100 * c) / Math.max(n, 1)).toFixed(0).padStart(3)}% ${name}`);
}
