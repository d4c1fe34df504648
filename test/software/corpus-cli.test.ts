import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  cleanUp,
  deploySequence,
  pristineImage,
  scriptTemplate,
  type StackDriver,
} from './corpus-scenarios.js';
import {
  addKeypair,
  agentCloud,
  BASE_NETWORK,
  outputsOf,
  type StackView,
  SoftwareHearth,
} from './harness.js';

// Issue 22's acceptance through the Hearth CLI: the corpus's script-config templates created,
// updated and deleted by `hearth stack ... --wait` (the engine in the CLI process) on the
// sandbox, whose agents poll and signal a `hearth serve --no-workers` on the same store.

type Row = Record<string, string>;

function cliDriver(h: SoftwareHearth): StackDriver {
  return {
    create: async (name, template, args) =>
      void (await h.cli(['stack', 'create', name, '-t', template, ...args, '--wait'])),
    update: async (name, template, args) =>
      void (await h.cli(['stack', 'update', name, '-t', template, ...args, '--wait'])),
    async delete(name) {
      await h.cli(['stack', 'delete', name, '--yes', '--wait']);
      const shown = await h.run(['stack', 'show', name]);
      assert.notEqual(shown.code, 0, 'the stack is gone');
    },
    async show(name) {
      const view = await h.json<StackView>(['stack', 'show', name]);
      return { status: view.stack_status, reason: view.stack_status_reason, outputs: outputsOf(view) };
    },
    async ids(name) {
      const rows = await h.json<Row[]>(['stack', 'resource', 'list', name]);
      return Object.fromEntries(rows.map((r) => [r.resource_name, r.physical_resource_id]));
    },
    async events(name) {
      const rows = await h.json<Row[]>(['stack', 'event', 'list', name]);
      return rows.map((r) => ({ resource: r.resource_name!, status: r.resource_status! }));
    },
  };
}

describe('software-config corpus templates through the Hearth CLI on the sandbox', () => {
  const cloud = agentCloud();
  let h: SoftwareHearth;
  let driver: StackDriver;

  before(async () => {
    await addKeypair(cloud);
    h = await new SoftwareHearth().start();
    driver = cliDriver(h);
    writeFileSync(join(h.dir, 'base.yaml'), BASE_NETWORK);
    await h.cli(['stack', 'create', 'base', '-t', 'base.yaml', '--wait']);
  });
  after(async () => {
    await h?.stop();
    cleanUp();
  });

  it('example-script-template.yaml: create, an update of inputs reruns the config, delete', async () => {
    await scriptTemplate(driver, cloud, 'script');
  });

  it('example-deploy-sequence.yaml: deployments in dependency order across two servers', async () => {
    await deploySequence(driver, cloud, 'sequence');
  });

  it('example-config-pristine-image.yaml with boot-config/none_env.yaml', async () => {
    await pristineImage(driver, cloud, 'pristine');
  });
});
