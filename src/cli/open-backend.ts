import type { Command } from 'commander';
import type { Backend } from './backend.js';
import { EmbeddedBackend } from './backends/embedded.js';
import { RemoteBackend } from './backends/remote.js';
import type { GlobalOptions } from './embedded.js';

/** The global options that choose the backend (see main.ts). */
export interface BackendOptions extends GlobalOptions {
  url?: string;
  token?: string;
}

type Print = (s: string) => void;

/** Opens the backend the global options choose: the API at `--url` (or HEARTH_URL), else embedded. */
export async function openBackend(program: Command, print: Print): Promise<Backend> {
  const opts = program.opts<BackendOptions>();
  const url = opts.url ?? process.env.HEARTH_URL;
  if (url !== undefined && url !== '') {
    if (opts.db !== undefined) throw new Error('--db is for the embedded engine; it does not go with --url');
    return RemoteBackend.open(url, opts.token ?? process.env.HEARTH_TOKEN, print);
  }
  if (opts.token !== undefined) throw new Error('--token goes with --url (the embedded engine takes none)');
  return EmbeddedBackend.open(opts, print);
}

/** Runs `fn` with the backend the global options choose, always closing it. */
export async function withBackend<T>(
  program: Command,
  print: Print,
  fn: (backend: Backend) => Promise<T>,
): Promise<T> {
  const backend = await openBackend(program, print);
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}
