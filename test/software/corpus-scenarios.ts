/**
 * The corpus's script-config templates (hot/software-config, used in place) created, updated
 * with a changed input and deleted on the sandbox, whatever client drives the stack: the Hearth
 * CLI (corpus-cli.test.ts) or `openstack stack ...` against `hearth serve`
 * (corpus-openstack.test.ts). The agents run the scripts for real.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxCloud } from '../sandbox/support.js';
import { IMAGE, KEY, params, runs as agentRuns, SW_CORPUS } from './harness.js';

export const EXAMPLES = join(SW_CORPUS, 'example-templates');

/** What a scenario needs of a client. */
export interface StackDriver {
  /** `stack create NAME -t template ...args --wait`; must complete. */
  create(name: string, template: string, args: string[]): Promise<void>;
  update(name: string, template: string, args: string[]): Promise<void>;
  /** Deletes and waits until it is gone. */
  delete(name: string): Promise<void>;
  show(name: string): Promise<{ status: string; reason: string; outputs: Record<string, unknown> }>;
  /** Physical ids by resource name. */
  ids(name: string): Promise<Record<string, string>>;
  /** Resource names and statuses of the stack's events, oldest first. */
  events(name: string): Promise<{ resource: string; status: string }[]>;
}

const made: string[] = [];
/**
 * Removes the updated templates and the files the changed scripts wrote in /tmp (the corpus
 * script's own /tmp/baaaaa and /tmp/barmy stay: another test file may be running it).
 */
export function cleanUp(): void {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
}

/**
 * A copy of corpus template `file` (in example-templates/) with `changes` made (each must match
 * once), in a folder of its own whose `config-scripts` is the corpus's (for get_file).
 */
function changed(file: string, changes: [string, string][]): string {
  let text = readFileSync(join(EXAMPLES, file), 'utf8');
  for (const [from, to] of changes) {
    assert.equal(text.split(from).length, 2, `${file} has "${from}" once`);
    text = text.replace(from, to);
  }
  const dir = mkdtempSync(join(tmpdir(), 'hearth-sw-update-'));
  made.push(dir);
  symlinkSync(join(EXAMPLES, 'config-scripts'), join(dir, 'config-scripts'));
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

/** A name for a file the changed script writes in /tmp, unique to this run. */
function scratchName(tag: string): string {
  const name = `hearth-sw-${process.pid}-${tag}`;
  made.push(join('/tmp', name));
  return name;
}

const SERVER_PARAMS = params({ key_name: KEY, flavor: 'm1.tiny', image: IMAGE });

/**
 * example-script-template.yaml (or the pristine-image one, whose config is the same script):
 * two deployments of one script config on one server, each writing its result output; an update
 * changing one deployment's inputs reruns that one only (action UPDATE), with new outputs.
 */
export async function scriptTemplate(
  driver: StackDriver,
  cloud: SandboxCloud,
  name: string,
  {
    file = 'example-script-template.yaml',
    args = [] as string[],
    onCreated = (_ids: Record<string, string>): void | Promise<void> => undefined,
    onDeleted = (_ids: Record<string, string>): void | Promise<void> => undefined,
  } = {},
): Promise<void> {
  const template = join(EXAMPLES, file);
  await driver.create(name, template, [...args, ...SERVER_PARAMS]);
  const created = await driver.show(name);
  assert.equal(created.status, 'CREATE_COMPLETE', created.reason);
  const ids = await driver.ids(name);
  const server = ids.server!;
  assert.ok(server);
  await onCreated(ids);
  const out = created.outputs;
  assert.equal(out.result, `The file /tmp/baaaaa contains fooooo for server ${server} during CREATE`);
  assert.equal(out.other_result, `The file /tmp/barmy contains fu for server ${server} during CREATE`);
  assert.equal(out.status_code, 0);
  assert.equal(out.stdout, 'Writing to /tmp/baaaaa\nWritten to /tmp/baaaaa\n');
  // `sh -x` traces each command to stderr before the script's own line.
  assert.match(String(out.stderr), /^\+ echo Writing to \/tmp\/baaaaa\n/);
  assert.match(String(out.stderr), /Output to stderr\n$/);

  const bar = scratchName(name);
  const updated = changed(file, [
    ['foo: fooooo', 'foo: changed-foo'],
    ['bar: baaaaa', `bar: ${bar}`],
  ]);
  await driver.update(name, updated, [...args, ...SERVER_PARAMS]);
  const after = await driver.show(name);
  assert.equal(after.status, 'UPDATE_COMPLETE', after.reason);
  assert.equal(
    after.outputs.result,
    `The file /tmp/${bar} contains changed-foo for server ${server} during UPDATE`,
    'the changed input reran the config with action UPDATE',
  );
  assert.equal(after.outputs.stdout, `Writing to /tmp/${bar}\nWritten to /tmp/${bar}\n`);
  assert.equal(after.outputs.other_result, out.other_result, 'the unchanged deployment kept its outputs');
  assert.equal(readFileSync(join('/tmp', bar), 'utf8'), 'changed-foo\n', 'the script ran on this machine');
  const same = await driver.ids(name);
  assert.equal(same.server, server, 'the same server');
  assert.equal(same.deployment, ids.deployment, 'the deployment updated in place');
  const runs = await agentRuns(cloud);
  assert.deepEqual(runs.get(`${server}/deployment`), ['CREATE', 'UPDATE'], 'one run per action');
  assert.deepEqual(runs.get(`${server}/other_deployment`), ['CREATE'], 'unchanged: not run again');

  await driver.delete(name);
  assertServerGone(cloud, server);
  await onDeleted(ids);
}

/**
 * example-deploy-sequence.yaml: deployment_a on server_a, deployment_b on server_b with a's
 * stdout as input, deployment_c back on server_a after b; an update of c's input reruns c alone.
 */
export async function deploySequence(driver: StackDriver, cloud: SandboxCloud, name: string): Promise<void> {
  const template = join(EXAMPLES, 'example-deploy-sequence.yaml');
  await driver.create(name, template, SERVER_PARAMS);
  const created = await driver.show(name);
  assert.equal(created.status, 'CREATE_COMPLETE', created.reason);
  const a = String(created.outputs.deployment_a_stdout);
  const b = String(created.outputs.deployment_b_stdout);
  const c = String(created.outputs.deployment_c_stdout);
  assert.match(a, /^Previous: NONE\ndeployment_a is running on \S+ at .+\n$/);
  assert.equal(b.slice(0, `Previous: ${a}`.length), `Previous: ${a}`, "b's input was a's stdout");
  assert.match(b, /\ndeployment_b is running on \S+ at .+\n$/);
  assert.match(c, /^Previous: deployment_b\ndeployment_c is running on \S+ at .+\n$/);
  const events = await driver.events(name);
  const at = (resource: string, status: string) =>
    events.findIndex((e) => e.resource === resource && e.status === status);
  assert.ok(at('deployment_b', 'CREATE_COMPLETE') >= 0);
  assert.ok(
    at('deployment_c', 'CREATE_IN_PROGRESS') > at('deployment_b', 'CREATE_COMPLETE'),
    'c started after b completed',
  );
  const ids = await driver.ids(name);

  const updated = changed('example-deploy-sequence.yaml', [
    ["previous: 'deployment_b'", "previous: 'changed'"],
  ]);
  await driver.update(name, updated, SERVER_PARAMS);
  const after = await driver.show(name);
  assert.equal(after.status, 'UPDATE_COMPLETE', after.reason);
  assert.match(String(after.outputs.deployment_c_stdout), /^Previous: changed\ndeployment_c is running on /);
  assert.equal(after.outputs.deployment_a_stdout, a, 'a not rerun');
  assert.equal(after.outputs.deployment_b_stdout, b, 'b not rerun');
  const runs = await agentRuns(cloud);
  assert.deepEqual(
    [
      runs.get(`${ids.server_a}/deployment_a`),
      runs.get(`${ids.server_b}/deployment_b`),
      runs.get(`${ids.server_a}/deployment_c`),
    ],
    [['CREATE'], ['CREATE'], ['CREATE', 'UPDATE']],
  );

  await driver.delete(name);
  assertServerGone(cloud, ids.server_a!);
  assertServerGone(cloud, ids.server_b!);
}

/**
 * example-config-pristine-image.yaml with boot-config/none_env.yaml (the boot config the image
 * needs none of): the server boots with a SOFTWARE_CONFIG user_data whose cfn-init-data part
 * bootstraps the agent, behind a floating IP on network `private`.
 */
export async function pristineImage(driver: StackDriver, cloud: SandboxCloud, name: string): Promise<void> {
  await scriptTemplate(driver, cloud, name, {
    file: 'example-config-pristine-image.yaml',
    args: ['-e', join(SW_CORPUS, 'boot-config/none_env.yaml'), ...params({ private_net: 'private' })],
    onCreated: ({ server }) => {
      const booted = cloud.state
        .list<{ id: string; userData: string }>('server')
        .find((s) => s.id === server);
      const userData = Buffer.from(booted?.userData ?? '', 'base64').toString();
      assert.match(userData, /^Content-Type: multipart\/mixed/m, 'a multipart user_data');
      assert.match(userData, /filename="cfn-init-data"/, 'with the cfn-init-data part the agent starts from');
    },
  });
}

function assertServerGone(cloud: SandboxCloud, id: string): void {
  const live = cloud.state
    .list<{ id: string; deletedAt: number | null }>('server')
    .filter((s) => s.id === id && s.deletedAt === null);
  assert.deepEqual(live, [], `server ${id} deleted`);
}
