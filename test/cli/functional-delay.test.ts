import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { type EventRow, parseJson, statuses, T, Workdir } from './workdir.js';
import { hearthNodeArgs } from '../support/hearth-command.js';

// OS::Heat::Delay end to end: the wait is persisted polling, so the engine runs other stacks while
// it lasts, and a process killed during the wait leaves a deadline the next one keeps.

// Long enough that the other stack finishes inside it on a loaded machine (the wait costs no CPU).
const WAIT = 30;

const DELAYED = `heat_template_version: 2018-08-31
resources:
  delay: {type: OS::Heat::Delay, properties: {min_wait: ${WAIT}}}
  after: {type: ${T}, depends_on: delay, properties: {value: after}}
`;

const QUICK = `heat_template_version: 2018-08-31
resources:
  a: {type: ${T}, properties: {value: a}}
  b: {type: ${T}, properties: {value: {get_attr: [a, output]}}}
`;

/** Starts `hearth` on the workdir's database as a process the test can kill. */
function startKillable(w: Workdir, args: string[]) {
  const child = spawn(process.execPath, [...hearthNodeArgs(), '--db', w.db, ...args], {
    cwd: w.dir,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((res) => child.on('exit', () => res()));
  return { kill: async () => (child.kill('SIGKILL'), await exited) };
}

type TimedEvent = EventRow & { event_time: string };

describe('OS::Heat::Delay through the CLI', () => {
  it('takes at least min_wait, blocks no worker, and keeps its deadline across a killed engine', async () => {
    const w = new Workdir({ 'delay.yaml': DELAYED, 'quick.yaml': QUICK });
    const slow = startKillable(w, ['stack', 'create', 'slow', '-t', 'delay.yaml', '--wait']);
    await w.until('the delay is waiting', async () => {
      const r = await w.run(['stack', 'resource', 'list', 'slow', '-f', 'json']);
      return r.code === 0 && statuses(parseJson(r.stdout)).delay === 'CREATE_IN_PROGRESS';
    });

    // Another stack is created from start to end while the delay waits.
    assert.equal(
      await w.finished(['stack', 'create', 'quick', '-t', 'quick.yaml', '--wait']),
      'CREATE_COMPLETE',
    );
    assert.equal(await w.status('slow'), 'CREATE_IN_PROGRESS');

    // The engine running the slow create dies; another picks the operation up.
    await slow.kill();
    const restarted = Date.now();
    await w.ok(['stack', 'run', 'slow']);
    assert.equal(await w.status('slow'), 'CREATE_COMPLETE');

    const events = await w.json<TimedEvent[]>(['stack', 'event', 'list', 'slow']);
    const at = (name: string, status: string) =>
      Date.parse(events.find((e) => e.resource_name === name && e.resource_status === status)!.event_time);
    const began = at('delay', 'CREATE_IN_PROGRESS');
    const ended = at('delay', 'CREATE_COMPLETE');
    assert.ok(ended - began >= WAIT * 1000, `waited ${ended - began} ms`);
    assert.ok(at('after', 'CREATE_IN_PROGRESS') >= ended, 'its dependent started after the wait');
    // Had the new engine started the wait again, it would have ended WAIT seconds after the restart.
    assert.ok(ended < restarted + WAIT * 1000, 'the deadline set before the kill was kept');
  });
});
