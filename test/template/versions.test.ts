import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateError } from '../../src/template/errors.js';
import { parseSource } from '../../src/template/source.js';
import { parseTemplate } from '../../src/template/template.js';
import { allVersions, findVersion } from '../../src/template/versions.js';

// The function sets Heat gives each version (heat/engine/hot/template.py), written out in full so a
// change to the table in versions.ts cannot silently agree with itself.
const BASE_2014 = [
  'get_attr',
  'get_file',
  'get_param',
  'get_resource',
  'list_join',
  'resource_facade',
  'str_replace',
];
const EXPECTED: Record<string, string[]> = {
  '2013-05-23': [
    ...BASE_2014,
    'Fn::GetAZs',
    'Ref',
    'Fn::Select',
    'Fn::Join',
    'Fn::Split',
    'Fn::Replace',
    'Fn::Base64',
    'Fn::MemberListToMap',
    'Fn::ResourceFacade',
  ],
  '2014-10-16': [...BASE_2014, 'Fn::Select'],
  '2015-04-30': [...BASE_2014, 'Fn::Select', 'repeat', 'digest'],
  '2015-10-15': [...BASE_2014, 'repeat', 'digest', 'str_split'],
  '2016-04-08': [...BASE_2014, 'repeat', 'digest', 'str_split', 'map_merge'],
  '2016-10-14': [...BASE_2014, 'repeat', 'digest', 'str_split', 'map_merge', 'yaql', 'map_replace', 'if'],
};
EXPECTED['2017-02-24'] = [...EXPECTED['2016-10-14']!, 'filter', 'str_replace_strict'];
EXPECTED['2017-09-01'] = [
  ...EXPECTED['2017-02-24']!,
  'make_url',
  'list_concat',
  'str_replace_vstrict',
  'list_concat_unique',
  'contains',
];
EXPECTED['2018-03-02'] = EXPECTED['2017-09-01'];
EXPECTED['2018-08-31'] = EXPECTED['2017-09-01'];
EXPECTED['2021-04-16'] = EXPECTED['2017-09-01'];

function parse(text: string) {
  return parseTemplate(parseSource('t.yaml', text));
}

describe('template versions', () => {
  it('knows every version from 2013-05-23 to 2021-04-16', () => {
    assert.deepEqual(
      allVersions().map((v) => v.date),
      Object.keys(EXPECTED),
    );
  });

  for (const [date, names] of Object.entries(EXPECTED)) {
    it(`${date} has exactly Heat's functions`, () => {
      assert.deepEqual(findVersion(date)!.functions.names().sort(), [...names].sort());
    });
  }

  it('resolves release aliases', () => {
    const pairs = {
      newton: '2016-10-14',
      ocata: '2017-02-24',
      pike: '2017-09-01',
      queens: '2018-03-02',
      rocky: '2018-08-31',
      wallaby: '2021-04-16',
    };
    for (const [alias, date] of Object.entries(pairs)) assert.equal(findVersion(alias)?.date, date);
    assert.equal(findVersion('2019-01-01'), undefined);
  });

  it('gives condition functions from 2016-10-14, yaql and contains from 2017-09-01', () => {
    assert.deepEqual(findVersion('2016-04-08')!.conditionFunctions.names(), []);
    assert.deepEqual(findVersion('newton')!.conditionFunctions.names().sort(), [
      'and',
      'equals',
      'get_param',
      'not',
      'or',
    ]);
    assert.deepEqual(findVersion('pike')!.conditionFunctions.names().sort(), [
      'and',
      'contains',
      'equals',
      'get_param',
      'not',
      'or',
      'yaql',
    ]);
  });

  it('rejects a function the version does not have, naming both versions', () => {
    const err = assert.throws(
      () =>
        parse(`heat_template_version: 2015-04-30
resources:
  r:
    type: OS::Heat::None
    properties:
      x: {str_split: [',', 'a,b']}
`),
      (e: unknown) => e instanceof TemplateError && e.kind === 'version',
    );
    void err;
    try {
      parse(
        `heat_template_version: 2015-04-30\nresources:\n  r:\n    type: X\n    properties:\n      x: {str_split: [',', 'a']}\n`,
      );
    } catch (e) {
      const msg = (e as Error).message;
      assert.match(
        msg,
        /t\.yaml:6:7: resources\.r\.properties\.x: function "str_split" is not available in heat_template_version 2015-04-30; it was introduced in heat_template_version 2015-10-15/,
      );
    }
  });

  it('rejects CFN functions removed after 2013-05-23', () => {
    assert.throws(
      () =>
        parse(`heat_template_version: 2014-10-16\noutputs:\n  o:\n    value: {"Fn::Join": [",", [a, b]]}\n`),
      /outputs\.o\.value: function "Fn::Join" is not supported in heat_template_version 2014-10-16/,
    );
    assert.doesNotThrow(() =>
      parse(`heat_template_version: 2013-05-23\noutputs:\n  o:\n    value: {"Fn::Join": [",", [a, b]]}\n`),
    );
  });

  it('rejects value functions inside conditions', () => {
    assert.throws(
      () => parse(`heat_template_version: 2016-10-14\nconditions:\n  c: {get_attr: [a, b]}\n`),
      /conditions\.c: function "get_attr" cannot be used in a condition/,
    );
  });

  it('gates sections and keys by version', () => {
    assert.throws(
      () => parse(`heat_template_version: 2016-04-08\nconditions: {}\n`),
      /t\.yaml:2:1: conditions: "conditions" is not a valid section in heat_template_version 2016-04-08/,
    );
    assert.throws(
      () => parse(`heat_template_version: 2016-04-08\nresources:\n  r: {type: A, condition: c}\n`),
      /resources\.r\.condition: "condition" is not a valid keyword inside a resource/,
    );
    assert.throws(
      () => parse(`heat_template_version: 2016-04-08\noutputs:\n  o: {value: 1, condition: true}\n`),
      /outputs\.o\.condition/,
    );
    assert.throws(
      () => parse(`heat_template_version: 2016-04-08\nresources:\n  r: {type: A, deletion_policy: retain}\n`),
      /invalid deletion policy "retain"/,
    );
    assert.doesNotThrow(() =>
      parse(`heat_template_version: 2016-10-14\nresources:\n  r: {type: A, deletion_policy: retain}\n`),
    );
  });

  it('requires a known heat_template_version', () => {
    assert.throws(() => parse('description: x\n'), /heat_template_version" key is missing/);
    assert.throws(
      () => parse('heat_template_version: 2012-01-01\n'),
      /"2012-01-01" is not a supported heat_template_version/,
    );
    assert.throws(
      () => parse('HeatTemplateFormatVersion: 2010-09-09\n'),
      /"HeatTemplateFormatVersion: 2010-09-09". "HeatTemplateFormatVersion" should be: 2012-12-12/,
    );
  });
});
