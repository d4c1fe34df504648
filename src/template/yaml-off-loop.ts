import { Worker } from 'node:worker_threads';
import type { YamlAnswer, YamlRequest } from './yaml-worker.js';

/**
 * YAML parsed off the event loop. A 200,000-resource YAML template takes the YAML loader half a
 * second to seconds in one call, which `hearth serve` cannot spend on its loop; a worker thread
 * parses it and sends back JSON text, which the caller parses in slices. One worker per process,
 * started when needed and ended when idle; where none can start (a build without the worker's file), or for a
 * document the fast loader leaves to the full parser, the answer is undefined and the caller
 * parses on its own thread as before.
 */
let worker: Worker | undefined;
let unavailable = false;
let nextId = 0;
const waiting = new Map<number, (json: string | undefined) => void>();

function startWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    // Run through tsx (development, the unit tests): a worker does not inherit its loader, so it
    // registers it before loading the entry's source.
    const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const entry = JSON.stringify(new URL('./yaml-worker.ts', import.meta.url).href);
    const boot = `import(${api}).then(({ register }) => { register(); return import(${entry}); })`;
    return new Worker(boot, { eval: true });
  }
  // Built (tsc, or the tests' bundle of the CLI): the entry is a .js file beside this one.
  return new Worker(new URL('./yaml-worker.js', import.meta.url));
}

function started(): Worker | undefined {
  if (worker || unavailable) return worker;
  try {
    const w = startWorker();
    w.unref();
    w.on('message', ({ id, json }: YamlAnswer) => {
      waiting.get(id)?.(json);
      waiting.delete(id);
      // Big YAML documents are rare: an idle worker goes (an idle one can hold a test runner's
      // process open), and the next one starts anew.
      if (waiting.size === 0 && worker === w) {
        worker = undefined;
        void w.terminate();
      }
    });
    w.on('error', () => {
      if (worker === w) stop();
    });
    w.on('exit', () => {
      if (worker === w) stop();
    });
    worker = w;
  } catch {
    unavailable = true;
  }
  return worker;
}

/** Every question waiting gets no answer (its caller parses itself); no new worker starts. */
function stop(): void {
  unavailable = true;
  worker = undefined;
  for (const answer of waiting.values()) answer(undefined);
  waiting.clear();
}

/** The JSON text of a YAML document parsed in the worker, or undefined: parse it yourself. */
export function yamlToJsonOffLoop(text: string, maxDepth: number): Promise<string | undefined> {
  const w = started();
  if (!w) return Promise.resolve(undefined);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, text, maxDepth } satisfies YamlRequest);
  });
}
