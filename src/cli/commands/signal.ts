import type { Command } from 'commander';
import { findStack } from '../../engine/operations.js';
import { signalError, signalResource, signalSettled } from '../../engine/signal.js';
import { isPlainObject, type JsonObject, typeName } from '../../util/json.js';
import { localProject, withEngine } from '../embedded.js';
import { readLocalFile } from './template.js';

interface SignalOptions {
  data?: string;
  dataFile?: string;
}

/** `stack resource signal`: sends a signal and runs the engine until it has been handled. */
export function registerSignalCommand(resource: Command, program: Command): void {
  resource
    .command('signal <stack> <resource>')
    .description('Signal a resource (its type must handle signals), with optional JSON data')
    .option('--data <json>', 'JSON data (an object) to send to the signal handler')
    .option('--data-file <file>', 'a file containing the JSON data')
    .action(async (name: string, resourceName: string, opts: SignalOptions) => {
      const details = signalData(opts);
      await withEngine(program, async (engine) => {
        const found = await findStack(engine.deps, localProject(), name);
        const signalId = await signalResource(engine.deps, found.id, resourceName, details);
        // Queued, so it survives this process; run the engine until it has been handled, to tell how.
        await engine.runUntil(() => signalSettled(engine.deps, signalId));
        const error = await signalError(engine.deps, found.id, resourceName, signalId);
        if (error) throw new Error(error);
      });
    });
}

/** The signal's data: checked before anything is opened, as the openstack client does. */
function signalData(opts: SignalOptions): JsonObject | null {
  if (opts.data !== undefined && opts.dataFile !== undefined) {
    throw new Error('give the signal data with --data or --data-file, not both');
  }
  const text = opts.dataFile !== undefined ? readLocalFile(opts.dataFile) : opts.data;
  if (text === undefined) return null;
  const option = opts.dataFile !== undefined ? `--data-file ${opts.dataFile}` : '--data';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${option} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isPlainObject(data)) throw new Error(`${option} must be a JSON object, not a ${typeName(data)}`);
  return data as JsonObject;
}
