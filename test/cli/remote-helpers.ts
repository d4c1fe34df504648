import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type ServeProcess, startServe } from '../api/serve-process.js';
import { type CliResult, hearth, workdir } from './helpers.js';

/** Templates and files for the remote-mode tests. */
export const T = 'OS::Heat::TestResource';
export const TEMPLATE = `heat_template_version: 2018-08-31
parameters:
  word: {type: string, default: one}
resources:
  first: {type: ${T}, properties: {value: {get_param: word}}}
  second: {type: ${T}, properties: {value: {get_attr: [first, output]}}}
  member: {type: member.yaml}
outputs:
  echoed: {value: {get_attr: [second, output]}}
  file: {value: {get_attr: [member, text]}}
`;
export const MEMBER = `heat_template_version: 2018-08-31
resources:
  inner: {type: OS::Heat::Value, properties: {value: {get_file: data.txt}}}
outputs:
  text: {value: {get_attr: [inner, value]}}
`;
export const FILES = {
  't.yaml': TEMPLATE,
  'member.yaml': MEMBER,
  'data.txt': 'from a file',
  'bad.yaml': `heat_template_version: 2018-08-31\nresources:\n  ok: {type: ${T}}\n  r: {type: ${T}, depends_on: ok, properties: {fail: true}}\n`,
  'slow.yaml': `heat_template_version: 2018-08-31\nparameters:\n  v: {type: string, default: a}\n  secs: {type: number, default: 0}\nresources:\n  a: {type: ${T}, properties: {value: {get_param: v}, action_wait_secs: {update: {get_param: secs}}}}\n`,
};

export const HEAT_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** A printed document with ids and times (which differ between two runs) replaced by placeholders. */
export function normalized(text: string): unknown {
  const start = text.search(/^[[{]/m);
  assert.ok(start >= 0, `no JSON in:\n${text}`);
  return JSON.parse(text.slice(start), (key, value: unknown) => {
    if ((key === 'id' || key === 'parent') && typeof value === 'string') return '<id>';
    if (key === 'physical_resource_id' && value !== '') return '<physical id>';
    if (key.endsWith('_time') && value !== null) {
      assert.match(String(value), HEAT_TIME, `${key} as Heat writes times`);
      return '<time>';
    }
    return value;
  });
}

export function ok(r: CliResult, what: string): string {
  assert.equal(r.code, 0, `${what} exited ${r.code}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

export interface RemoteSetup {
  /** The work directory holding FILES, and the embedded engine's state file. */
  dir: string;
  /** The project endpoint of the server, for --url. */
  url(): string;
  /** `hearth --url <server> ...` in the work directory. */
  remote(args: string[], env?: Record<string, string>): CliResult;
  /** The same command on the embedded engine (its own state file). */
  embedded(args: string[]): CliResult;
}

/** A `hearth serve` child process (noauth) for the suite, started before its tests and stopped after. */
export function remoteSetup(files: Record<string, string> = FILES): RemoteSetup {
  let server: ServeProcess;
  let url = '';
  const w = workdir(files);
  before(async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'hearth-serve-')), 'state.db');
    server = await startServe(['--db', db, 'serve', '--auth', 'noauth', '--port', '0']);
    url = `${server.url}/v1/admin`;
  });
  after(() => server.stop());
  return {
    dir: w.dir,
    url: () => url,
    remote: (args, env = {}) => hearth(['--url', url, ...args], w.dir, env),
    embedded: (args) => w.run(args),
  };
}
