import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSandbox } from '../../src/sandbox/index.js';
import {
  agentOf,
  bootServer,
  deployment,
  type FakeHeat,
  fakeHeat,
  occ,
  signalInputs,
  until,
  userData,
} from './agent-helpers.js';

/**
 * The guest agent with a state file: its scratch folder lies beside the file and goes with the
 * server; a restarted sandbox's agents carry on, sending a signal left pending and never rerunning
 * what they applied.
 */

const COUNTING = '#!/bin/sh\necho run >> "$counter"';

describe('sandbox guest agent: state file, restart, start delay', () => {
  let heat: FakeHeat;
  let dir: string;
  before(async () => {
    heat = await fakeHeat();
    dir = mkdtempSync(join(tmpdir(), 'hearth-agent-restart-'));
  });
  after(async () => {
    await heat.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const lines = (name: string) =>
    existsSync(join(dir, name))
      ? readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).length
      : 0;

  it('resumes after a restart: the pending signal is sent, nothing reruns; deleting the server removes its folder', async () => {
    const file = join(dir, 'cloud.db');
    const noise = { bootDelayMs: 0, agentPollIntervalMs: 15 };
    heat.refuseSignals = 1_000;
    heat.metadata = {
      'os-collect-config': occ(heat, 'request'),
      deployments: [
        deployment('a1', COUNTING, {
          counter: join(dir, 'a1'),
          ...signalInputs(heat, 'CFN_SIGNAL', 'first'),
          // A pre-signed URL: its token never shows in the agent's listing.
          deploy_signal_id: `${heat.url}/signal/hsig_payload.mac`,
        }),
      ],
    };
    let { app } = createSandbox({ file, noise });
    const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }));
    const refused = await until('a refused signal', async () => {
      const config = (await agentOf(app, id))?.configs[0];
      return (config?.signal_attempts ?? 0) >= 1 ? config : undefined;
    });
    assert.match(String(refused.signal_error), /POST http:\/\/127\.0\.0\.1:\d+\/signal\/<secret>: 503/);
    assert.ok(
      existsSync(join(`${file}.agents`, id, 'deployed', 'a1.json')),
      'the scratch folder is beside the state',
    );
    await app.close();

    heat.refuseSignals = 0;
    heat.metadata = {
      ...heat.metadata,
      deployments: [
        ...(heat.metadata.deployments as unknown[]),
        deployment('a2', COUNTING, {
          counter: join(dir, 'a2'),
          ...signalInputs(heat, 'NO_SIGNAL', 'second'),
        }),
      ],
    };
    ({ app } = createSandbox({ file }));
    try {
      const signal = await until('the resumed signal', () =>
        heat.signals.find((s) => s.path === '/signal/hsig_payload.mac'),
      );
      assert.equal(signal.body.deploy_status_code, 0);
      await until('the new config', async () =>
        (await agentOf(app, id))?.configs.find((c) => c.config_id === 'a2' && c.signal === 'none'),
      );
      assert.equal(lines('a1'), 1, 'the first config ran once across the restart');
      assert.equal(lines('a2'), 1);

      const r = await app.inject({ method: 'POST', url: `/admin/server/${id}/delete` });
      assert.equal(r.statusCode, 200, r.body);
      await until('the agent gone', async () => ((await agentOf(app, id)) ? undefined : true));
      await until('its folder removed', () => !existsSync(join(`${file}.agents`, id)));
    } finally {
      await app.close();
    }
  });

  it('waits agentStartDelayMs after the server is ACTIVE before its first poll', async () => {
    heat.metadata = { 'os-collect-config': occ(heat, 'request'), deployments: [] };
    const { app } = createSandbox({
      noise: { bootDelayMs: 0, agentPollIntervalMs: 15, agentStartDelayMs: 600 },
    });
    try {
      const reads = heat.reads.request;
      const id = await bootServer(app, userData({ 'os-collect-config': occ(heat, 'request') }));
      await sleep(200);
      assert.equal(heat.reads.request, reads, 'no poll before the start delay');
      assert.equal((await agentOf(app, id))!.last_poll_at, null);
      await until('the first poll', async () => (await agentOf(app, id))?.last_poll_at);
    } finally {
      await app.close();
    }
  });
});
