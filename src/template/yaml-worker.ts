// A worker thread's entry (yaml-off-loop.ts starts it): parses YAML documents with the fast
// loader and answers each with its JSON text, or with nothing when the main thread must parse it
// itself (anchors, syntax and depth errors: their exact messages are made there).
import { parentPort } from 'node:worker_threads';
import { loadYamlFast } from './yaml-fast.js';

export interface YamlRequest {
  id: number;
  text: string;
  maxDepth: number;
}

export interface YamlAnswer {
  id: number;
  json?: string;
}

parentPort?.on('message', ({ id, text, maxDepth }: YamlRequest) => {
  let json: string | undefined;
  try {
    const value = loadYamlFast(text, maxDepth);
    json = value === undefined ? undefined : JSON.stringify(value);
  } catch {
    json = undefined;
  }
  parentPort!.postMessage({ id, json } satisfies YamlAnswer);
});
