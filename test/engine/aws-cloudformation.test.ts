import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { signalCredentials, SignalSigner } from '../../src/auth/signal-tokens.js';
import { fetchRemoteTemplate } from '../../src/engine/context/remote-template.js';
import { decide } from '../../src/engine/context/update-decision.js';
import { updateWaitConditionHandlePlugin } from '../../src/resources/heat/update-wait-condition-handle.js';
import { previewStackUpdate } from '../../src/engine/operations/preview.js';
import { findStack } from '../../src/engine/operations/queries.js';
import { signalResource } from '../../src/engine/operations/signal.js';
import type { JsonObject } from '../../src/util/json.js';
import { Harness } from './harness.js';

// AWS::CloudFormation::WaitCondition with OS::Heat::UpdateWaitConditionHandle, and
// AWS::CloudFormation::Stack, through the in-process engine.

const signer = new SignalSigner(Buffer.from('k'.repeat(32)));
const credentials = { signalCredentials: signalCredentials.bind(null, signer, 'http://hearth.test:8004') };

const WAITS = (v: string) => `heat_template_version: 2013-05-23
resources:
  every_update: {type: OS::Heat::UpdateWaitConditionHandle}
  plain: {type: AWS::CloudFormation::WaitConditionHandle}
  wc:
    type: AWS::CloudFormation::WaitCondition
    properties: {Handle: {get_resource: every_update}, Timeout: 600}
  other: {type: OS::Heat::Value, properties: {value: ${v}}}
outputs:
  url: {value: {get_resource: every_update}}
  plain: {value: {get_resource: plain}}
  data: {value: {get_attr: [wc, Data]}}
`;

const cfnSignal = (id: string, data: string): JsonObject => ({
  Status: 'SUCCESS',
  Reason: 'configured',
  UniqueId: id,
  Data: data,
});

/** Runs what is due without moving the clock: a wait is only ended by what wakes it. */
async function runDueNow(h: Harness): Promise<void> {
  while ((await h.engine.worker.runDue(10_000)) > 0);
}

describe('OS::Heat::UpdateWaitConditionHandle', () => {
  it('is replaced on every stack update: a new URL, no signals, and its wait condition waits again', async () => {
    const h = await Harness.create(credentials);
    await h.create('s', WAITS('a'));
    await runDueNow(h);
    assert.equal(await h.status('s'), 'CREATE_IN_PROGRESS', 'waiting for the signal');
    const stackId = (await findStack(h.deps, 'p', 's')).id;
    await signalResource(h.deps, stackId, 'every_update', cfnSignal('vm1', 'first'));
    await runDueNow(h);
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const created = await h.outputs('s');
    assert.equal(created.data, '{"vm1": "first"}');
    const url = new URL(String(created.url));
    assert.equal(url.origin, 'http://hearth.test:8004');
    assert.match(url.pathname, /^\/cfn\/v1\/waitcondition\/arn%3Aopenstack%3Aheat%3A%3Ap%3Astacks\/s\//);

    // Only `other` changes, yet the handle is replaced, and the condition with it (its Handle
    // changed): what the preview says too.
    const preview = await previewStackUpdate(
      h.deps,
      h.engine.cache,
      stackId,
      { template: h.input(WAITS('b')) },
      false,
    );
    assert.deepEqual(Object.fromEntries(preview.map((c) => [c.name, c.change])), {
      every_update: 'replaced',
      plain: 'unchanged',
      wc: 'replaced',
      other: 'updated',
    });
    await h.update('s', WAITS('b'));
    await runDueNow(h);
    assert.equal(await h.status('s'), 'UPDATE_IN_PROGRESS', 'waiting for a new signal');
    await signalResource(h.deps, stackId, 'every_update', cfnSignal('vm1', 'second'));
    await runDueNow(h);
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    const updated = await h.outputs('s');
    assert.notEqual(updated.url, created.url);
    assert.equal(updated.plain, created.plain, 'an AWS handle is not replaced');
    assert.equal(updated.data, '{"vm1": "second"}');
    const rows = await h.rows('s');
    assert.deepEqual(
      rows.map((r) => `${r.name} ${r.action}_${r.status}`).sort(),
      [
        'every_update CREATE_COMPLETE',
        'other UPDATE_COMPLETE',
        'plain CREATE_COMPLETE',
        'wc CREATE_COMPLETE',
      ],
      'the replaced rows are gone',
    );
  });

  it('is left alone by a re-convergence to the template it has (a scaling signal, a heal)', () => {
    const row = {
      action: 'CREATE',
      status: 'COMPLETE',
      unhealthy: false,
      type: updateWaitConditionHandlePlugin.type,
      physicalId: 'id',
      properties: {},
      templateId: 't1',
    } as const;
    const type = updateWaitConditionHandlePlugin.type;
    assert.equal(decide(updateWaitConditionHandlePlugin, row, type, {}, undefined, 't1'), 'none');
    assert.equal(decide(updateWaitConditionHandlePlugin, row, type, {}, undefined, 't2'), 'replace');
  });

  it('an OS::Heat::WaitCondition waits on an AWS handle too (Heat takes any handle)', async () => {
    const h = await Harness.create(credentials);
    await h.create(
      'mixed',
      `heat_template_version: 2013-05-23
resources:
  handle: {type: AWS::CloudFormation::WaitConditionHandle}
  wc: {type: OS::Heat::WaitCondition, properties: {handle: {get_resource: handle}, timeout: 600}}
outputs:
  data: {value: {get_attr: [wc, data]}}
`,
    );
    await runDueNow(h);
    const stackId = (await findStack(h.deps, 'p', 'mixed')).id;
    await signalResource(h.deps, stackId, 'handle', cfnSignal('vm1', 'ok'));
    await runDueNow(h);
    assert.equal(await h.status('mixed'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.outputs('mixed'), { data: '{"vm1": "ok"}' });
  });

  it('an AWS WaitCondition refuses a Handle that is not its stack’s AWS handle, with Heat’s words', async () => {
    const h = await Harness.create(credentials);
    await h.create(
      'bad',
      `heat_template_version: 2013-05-23
resources:
  os_handle: {type: OS::Heat::WaitConditionHandle}
  wc:
    type: AWS::CloudFormation::WaitCondition
    properties: {Handle: {get_resource: os_handle}, Timeout: 10}
`,
    );
    await h.settle();
    const wc = (await h.rows('bad')).find((r) => r.name === 'wc')!;
    assert.equal(wc.status, 'FAILED');
    assert.match(wc.reason, /^ValueError: resources\.wc: "[\w-]+" is not a valid URL$/);
  });
});

const CHILD = (greeting: string) => `heat_template_version: 2013-05-23
parameters:
  name: {type: string}
resources:
  v: {type: OS::Heat::TestResource, properties: {value: {list_join: [' ', ['${greeting}', {get_param: name}]]}}}
outputs:
  greeting: {value: {get_attr: [v, output]}}
`;

const PARENT = (name: string, url = 'http://templates.test/child.yaml') => `heat_template_version: 2013-05-23
resources:
  child:
    type: AWS::CloudFormation::Stack
    properties:
      TemplateURL: ${url}
      TimeoutInMinutes: 5
      Parameters: {name: ${name}}
outputs:
  greeting: {value: {get_attr: [child, Outputs.greeting]}}
`;

describe('AWS::CloudFormation::Stack', () => {
  it('creates, updates (fetching its template again) and deletes a child from TemplateURL', async () => {
    const served = new Map([['http://templates.test/child.yaml', CHILD('hello')]]);
    const fetched: string[] = [];
    const h = await Harness.create({
      fetchTemplate: async (url) => {
        fetched.push(url);
        const text = served.get(url);
        if (text === undefined) throw new Error(`Failed to retrieve template from ${url}`);
        return text;
      },
    });
    await h.create('s', PARENT('a'));
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    assert.deepEqual(await h.outputs('s'), { greeting: 'hello a' });
    const top = await h.stack('s');
    const [child] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
    const objects = (await h.live()).map((o) => o.id);

    await h.update('s', PARENT('b'));
    await h.settle();
    assert.equal(await h.status('s'), 'UPDATE_COMPLETE');
    assert.deepEqual(await h.outputs('s'), { greeting: 'hello b' });

    // The same properties, a new template at the URL: the update fetches it.
    served.set('http://templates.test/child.yaml', CHILD('goodbye'));
    await h.update('s', PARENT('b'));
    await h.settle();
    assert.deepEqual(await h.outputs('s'), { greeting: 'goodbye b' });
    const [same] = await h.deps.store.tx((tx) => tx.stacks.list({ parentId: top.id }));
    assert.equal(same!.id, child!.id, 'the child is updated, not replaced');
    assert.deepEqual(
      (await h.live()).map((o) => o.id),
      objects,
      'its resource updated in place',
    );
    assert.ok(fetched.length >= 3, fetched.join());

    await h.delete('s');
    await h.settle();
    assert.equal(await h.status('s'), 'DELETE_COMPLETE');
    assert.deepEqual(await h.live(), []);
  });

  it('fails with Heat’s words when the template cannot be fetched, or its scheme is not http(s)', async () => {
    const h = await Harness.create({
      fetchTemplate: async (url) => {
        throw new Error(`Failed to retrieve template from ${url}`);
      },
    });
    for (const [name, url, why] of [
      [
        'gone',
        'http://templates.test/gone.yaml',
        'Failed to retrieve template from http://templates.test/gone.yaml',
      ],
      ['local', 'file:///etc/passwd', 'Invalid URL scheme file'],
    ] as const) {
      await h.create(name, PARENT('a', url));
      await h.settle();
      const row = (await h.rows(name)).find((r) => r.name === 'child')!;
      assert.equal(row.status, 'FAILED');
      assert.equal(
        row.reason,
        `ValueError: resources.child: Could not fetch remote template '${url}': ${why}`,
      );
    }
  });
});

describe('fetchRemoteTemplate', () => {
  it('reads an http URL, and refuses a failing one, one too large and another scheme', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/t.yaml') res.end('heat_template_version: 2013-05-23\n');
      else if (req.url === '/big') res.end('x'.repeat(2000));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      assert.equal(await fetchRemoteTemplate(`${base}/t.yaml`, 1000), 'heat_template_version: 2013-05-23\n');
      await assert.rejects(fetchRemoteTemplate(`${base}/none`, 1000), {
        message: `Failed to retrieve template from ${base}/none`,
      });
      await assert.rejects(fetchRemoteTemplate(`${base}/big`, 1000), {
        message: 'Template exceeds maximum allowed size (1000 bytes)',
      });
      await assert.rejects(fetchRemoteTemplate('ftp://x/t.yaml', 1000), {
        message: 'Invalid URL scheme ftp',
      });
    } finally {
      server.close();
    }
  });
});
