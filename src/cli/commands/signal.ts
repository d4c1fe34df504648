import type { Command } from 'commander';
import { isPlainObject, type JsonObject, typeName } from '../../util/json.js';
import type { Backend } from '../backend.js';
import { readLocalFile } from './template.js';

interface SignalOptions {
  data?: string;
  dataFile?: string;
}

type Run = <T>(fn: (backend: Backend) => Promise<T>) => Promise<T>;

/** `stack resource signal`: sends a signal; the embedded engine runs until it has been handled. */
export function registerSignalCommand(resource: Command, run: Run): void {
  resource
    .command('signal <stack> <resource>')
    .description('Signal a resource (its type must handle signals), with optional JSON data')
    .option('--data <json>', 'JSON data (an object) to send to the signal handler')
    .option('--data-file <file>', 'a file containing the JSON data')
    .action(async (name: string, resourceName: string, opts: SignalOptions) => {
      const details = signalData(opts);
      await run(async (backend) => backend.signal(await backend.findStack(name), resourceName, details));
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
