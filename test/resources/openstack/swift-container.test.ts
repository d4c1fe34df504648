import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { swiftContainerPlugin } from '../../../src/resources/openstack/swift/container.js';
import { ResourceFailure } from '../../../src/resources/contract.js';
import { type TypeRig, typeRig } from './sandbox-cloud.js';

type Answer = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// OS::Swift::Container on the sandbox's Swift, as Heat makes it.
describe('OS::Swift::Container on the sandbox cloud', () => {
  let rig: TypeRig;
  before(async () => {
    rig = await typeRig({ bootDelayMs: 0 });
  });
  after(() => rig?.close());

  const head = async (name: string) => rig.demo.request('object-store', 'HEAD', `/${name}`);
  const putObject = (container: string, name: string) =>
    rig.demo.request('object-store', 'PUT', `/${container}/${name}`, 'hello', {
      headers: { 'Content-Type': 'text/plain' },
    });

  it('makes one container with its ACLs and metadata however often the create runs, and the account its metadata', async () => {
    const props = {
      'X-Container-Read': '.r:*',
      'X-Container-Meta': { Web: 'yes' },
      'X-Account-Meta': { Temp: 'k1' },
    };
    const first = rig.resource(swiftContainerPlugin, 'k-c');
    await first.create(props);
    const again = rig.resource(swiftContainerPlugin, 'k-c');
    await again.create(props);
    assert.equal(again.physicalId, first.physicalId);
    assert.match(String(first.physicalId), /^st-res-/);
    const h = await head(first.physicalId!);
    assert.equal(h.headers.get('x-container-read'), '.r:*');
    assert.equal(h.headers.get('x-container-meta-web'), 'yes');
    const account = await rig.demo.request('object-store', 'GET', '', undefined, {
      query: { format: 'json' },
    });
    assert.equal(account.headers.get('x-account-meta-temp'), 'k1');
    assert.deepEqual(await swiftContainerPlugin.getReality(first.ctx()), {
      state: 'present',
      properties: { ...first.storedProperties, 'X-Container-Write': null },
    });

    await putObject(first.physicalId!, 'a.txt');
    assert.equal(await first.attribute('ObjectCount'), 1);
    assert.equal(await first.attribute('BytesUsed'), 5);
    const url = String(await first.attribute('WebsiteURL'));
    assert.ok(url.endsWith(`/${first.physicalId}`), url);
    assert.equal(await first.attribute('RootURL'), url.slice(0, url.lastIndexOf('/')));
    assert.equal(await first.attribute('DomainName'), new URL(url).hostname);
    assert.equal(((await first.attribute('HeadContainer')) as Answer)['x-container-object-count'], '1');

    // Not empty, no PurgeOnDelete: Heat's refusal; the container stays.
    await assert.rejects(first.delete(), (err: Error) => {
      assert.ok(err instanceof ResourceFailure);
      assert.match(err.message, /Deleting non-empty container \(st-res-\S+\) when PurgeOnDelete is False/);
      return true;
    });
    assert.equal((await head(first.physicalId!)).status, 204);
  });

  it('purges its objects first with PurgeOnDelete; a name given is the container; deleting twice is fine', async () => {
    const c = rig.resource(swiftContainerPlugin, 'k-purge');
    await c.create({ name: 'named-box', PurgeOnDelete: true });
    assert.equal(c.physicalId, 'named-box');
    await putObject('named-box', 'a.txt');
    await putObject('named-box', 'b.txt');
    await c.delete();
    await c.delete();
    await assert.rejects(head('named-box'), /404|not found/i);
    assert.deepEqual(await swiftContainerPlugin.getReality(c.ctx()), { state: 'gone' });
  });
});
