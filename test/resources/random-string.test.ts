import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceFailure } from '../../src/resources/contract.js';
import { generateString, randomStringPlugin } from '../../src/resources/heat/random-string.js';
import { TemplateError } from '../../src/template/errors.js';
import { UNKNOWN, type Value } from '../../src/template/functions/types.js';
import { diffProperties, schemaToHeatJSON } from '../../src/template/properties/index.js';
import { FakeResource, rejection, seededRandom } from './helpers.js';

function count(s: string, chars: string): number {
  return [...s].filter((c) => chars.includes(c)).length;
}

describe('OS::Heat::RandomString', () => {
  it('generates 32 letters and digits by default, kept in data as value and reference id', async () => {
    const r = new FakeResource(randomStringPlugin, { name: 'rs', stackName: 'sample' });
    assert.equal(r.referenceId(), 'rs', 'before create, the reference id is the name');
    const run = await r.create();
    assert.equal(run.polls, 0);
    const value = r.data.value;
    assert.equal(typeof value, 'string');
    assert.match(value as string, /^[A-Za-z0-9]{32}$/);
    assert.match(r.physicalId!, /^sample-rs-[a-z2-7]{12}$/);
    assert.equal(await r.attribute('value'), value);
    assert.equal(r.referenceId(), value);
    assert.deepEqual(await randomStringPlugin.getReality(r.ctx()), {
      state: 'present',
      properties: r.storedProperties,
    });
  });

  it('keeps the value a retried create already stored', async () => {
    const r = new FakeResource(randomStringPlugin);
    await r.create({ length: 12 });
    const first = r.data.value;
    const again = await randomStringPlugin.create(r.ctx(), r.storedProperties!);
    assert.equal(again.data?.value, first);
    assert.equal(again.physicalId, r.physicalId);
  });

  it('uses ctx.random: the same seed gives the same string, another seed another', async () => {
    const make = async (seed: number) => {
      const r = new FakeResource(randomStringPlugin, { random: seededRandom(seed) });
      await r.create({ length: 40 });
      return r.data.value;
    };
    assert.equal(await make(7), await make(7));
    assert.notEqual(await make(7), await make(8));
  });

  it('honours the minimum of every class and sequence', async () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = new FakeResource(randomStringPlugin, { random: seededRandom(seed) });
      await r.create({
        length: 10,
        character_classes: [
          { class: 'uppercase', min: 2 },
          { class: 'digits', min: 3 },
        ],
        character_sequences: [{ sequence: '!@#', min: 2 }],
      });
      const s = r.data.value as string;
      assert.equal(s.length, 10);
      assert.match(s, /^[A-Z0-9!@#]+$/);
      assert.ok(count(s, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') >= 2, s);
      assert.ok(count(s, '0123456789') >= 3, s);
      assert.ok(count(s, '!@#') >= 2, s);
    }
  });

  it('draws only from the classes asked for', async () => {
    const cases: [string, RegExp][] = [
      ['letters', /^[A-Za-z]+$/],
      ['lowercase', /^[a-z]+$/],
      ['uppercase', /^[A-Z]+$/],
      ['digits', /^[0-9]+$/],
      ['hexdigits', /^[0-9A-F]+$/],
      ['octdigits', /^[0-7]+$/],
    ];
    for (const [cls, pattern] of cases) {
      const r = new FakeResource(randomStringPlugin);
      await r.create({ length: 64, character_classes: [{ class: cls }] });
      assert.match(r.data.value as string, pattern, cls);
    }
  });

  it('takes the hidden sequence property as one more class', async () => {
    const r = new FakeResource(randomStringPlugin);
    await r.create({ length: 50, sequence: 'octdigits' });
    assert.match(r.data.value as string, /^[0-7]{50}$/);
    const both = new FakeResource(randomStringPlugin);
    await both.create({
      length: 50,
      sequence: 'digits',
      character_classes: [{ class: 'lowercase', min: 10 }],
    });
    const s = both.data.value as string;
    assert.match(s, /^[a-z0-9]{50}$/);
    assert.ok(count(s, 'abcdefghijklmnopqrstuvwxyz') >= 10);
    assert.ok(count(s, '0123456789') >= 1);
  });

  it('refuses a length below the combined minimums, in validation and at create', async () => {
    const props: Record<string, Value> = {
      length: 4,
      character_classes: [{ class: 'digits', min: 3 }],
      character_sequences: [{ sequence: 'xy', min: 2 }],
    };
    const r = new FakeResource(randomStringPlugin);
    const converted = r.props(props);
    assert.throws(
      () => randomStringPlugin.validate!(converted, ['resources', 'rs', 'properties']),
      (err: unknown) =>
        err instanceof TemplateError &&
        /Length property cannot be smaller than combined character class and character sequence minimums/.test(
          err.message,
        ),
    );
    const err = await rejection(() => r.create(props));
    assert.ok(err instanceof ResourceFailure);
    // Unknown parts are checked once known.
    randomStringPlugin.validate!({ ...converted, length: UNKNOWN }, []);
    // Exactly the minimum is fine.
    await new FakeResource(randomStringPlugin).create({ ...props, length: 5 });
  });

  it('refuses an empty sequence with a minimum', () => {
    const r = new FakeResource(randomStringPlugin);
    const props = r.props({ character_sequences: [{ sequence: '', min: 1 }], character_classes: [] });
    assert.throws(() => randomStringPlugin.validate!(props, []), /cannot be empty/);
  });

  it('checks the schema: length 1 to 512, class names', () => {
    const r = new FakeResource(randomStringPlugin);
    assert.throws(() => r.props({ length: 0 }), /0 is out of range \(min: 1, max: 512\)/);
    assert.throws(() => r.props({ length: 513 }));
    assert.throws(() => r.props({ character_classes: [{ class: 'symbols' }] }), /not an allowed value/);
    assert.throws(() => r.props({ character_sequences: [{ min: 1 }] }), /sequence not assigned/);
  });

  it('replaces on any change: no property updates in place', () => {
    const r = new FakeResource(randomStringPlugin);
    const before = r.props({ salt: 'a' });
    const changes: Record<string, Value>[] = [
      { salt: 'b' },
      { length: 8 },
      { character_classes: [{ class: 'digits' }] },
    ];
    for (const change of changes) {
      const diff = diffProperties(randomStringPlugin.properties, before, r.props({ salt: 'a', ...change }));
      assert.ok(diff.requiresReplacement.length > 0, JSON.stringify(change));
    }
  });

  it('hides the sequence property from resource_types show', () => {
    const body = schemaToHeatJSON(
      randomStringPlugin.type,
      randomStringPlugin.properties,
      randomStringPlugin.attributes,
      {
        supportStatus: randomStringPlugin.supportStatus!,
      },
    );
    assert.deepEqual(Object.keys(body.properties as object), [
      'length',
      'character_classes',
      'character_sequences',
      'salt',
    ]);
    assert.deepEqual(body.attributes, {
      value: {
        description:
          'The random string generated by this resource. This value is also available by referencing the resource.',
        type: 'string',
      },
      show: { description: 'Detailed information about resource.', type: 'map' },
    });
  });

  it('generateString shuffles: the minimums are not always in front', () => {
    const random = seededRandom(3);
    const fronts = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const s = generateString(
        8,
        [
          { chars: ['x'], min: 1 },
          { chars: [...'abcdef'], min: 0 },
        ],
        random,
      );
      fronts.add(s[0]!);
      assert.equal(count(s, 'x') >= 1, true);
    }
    assert.ok(fronts.size > 1);
  });
});
