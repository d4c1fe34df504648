import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { fnmatch, isTemplateType, resolveTemplateUrl } from '../../src/template/environment/index.js';

describe('resolveTemplateUrl', () => {
  it('keeps refs with a scheme as they are', () => {
    assert.equal(resolveTemplateUrl('/a/env.yaml', 'http://h/x.yaml'), 'http://h/x.yaml');
    assert.equal(resolveTemplateUrl('/a/env.yaml', 'file:///x/y.yaml'), 'file:///x/y.yaml');
    assert.equal(resolveTemplateUrl('http://h/a/env.yaml', 'https://o/z.yaml'), 'https://o/z.yaml');
  });

  it('joins to the directory of a local base, normalising . and ..', () => {
    assert.equal(resolveTemplateUrl('/a/b/env.yaml', 'nested.yaml'), 'file:///a/b/nested.yaml');
    assert.equal(resolveTemplateUrl('/a/b/env.yaml', './x/../y/./t.yaml'), 'file:///a/b/y/t.yaml');
    assert.equal(resolveTemplateUrl('/a/b/env.yaml', '../../../up.yaml'), 'file:///up.yaml');
    assert.equal(resolveTemplateUrl('/a/b/env.yaml', '/abs/t.yaml'), 'file:///abs/t.yaml');
    assert.equal(resolveTemplateUrl('/a/b/', 't.yaml'), 'file:///a/b/t.yaml');
  });

  it('takes a relative local base from the working directory', () => {
    const expected = new URL('sub/t.yaml', pathToFileURL(`${process.cwd()}/envs/env.yaml`)).href;
    assert.equal(resolveTemplateUrl('envs/env.yaml', 'sub/t.yaml'), expected);
  });

  it('joins to URL bases', () => {
    assert.equal(resolveTemplateUrl('file:///a/b/env.yaml', '../t.yaml'), 'file:///a/t.yaml');
    assert.equal(resolveTemplateUrl('http://h/x/y/env.yaml', 't.yaml'), 'http://h/x/y/t.yaml');
    assert.equal(resolveTemplateUrl('http://h/x/y/env.yaml', '/t.yaml'), 'http://h/t.yaml');
    assert.equal(resolveTemplateUrl('http://h/x/y/', 'z/t.yaml'), 'http://h/x/y/z/t.yaml');
  });
});

describe('isTemplateType', () => {
  it('tells template references from plugin types', () => {
    for (const t of [
      'a.yaml',
      'a.yml',
      'a.template',
      'a.json',
      'dir/a',
      './a',
      'http://h/a',
      'file:///a',
      'a::b.yaml',
    ]) {
      assert.equal(isTemplateType(t), true, t);
    }
    for (const t of ['OS::Nova::Server', 'OS::Heat::None', 'My::Type', 'plain', 'OS::Foo/Bar']) {
      assert.equal(isTemplateType(t), false, t);
    }
  });
});

describe('fnmatch', () => {
  it('matches like Python fnmatchcase', () => {
    const cases: [string, string, boolean][] = [
      ['web_1', 'web_*', true],
      ['web_', 'web_*', true],
      ['aweb_1', 'web_*', false],
      ['web_1', 'web_?', true],
      ['web_12', 'web_?', false],
      ['Web_1', 'web_*', false],
      ['group_3', 'group_[0-9]', true],
      ['group_x', 'group_[0-9]', false],
      ['group_x', 'group_[!0-9]', true],
      ['a]', 'a[]]', true],
      ['a[', 'a[', true],
      ['a.b', 'a.b', true],
      ['axb', 'a.b', false],
      ['a+b(c)', 'a+b(*)', true],
      ['line\nbreak', 'line*', true],
      ['x', '*', true],
      ['', '*', true],
      ['a\\b', 'a[\\]b', true],
    ];
    for (const [name, pattern, expected] of cases)
      assert.equal(fnmatch(name, pattern), expected, `${name} ~ ${pattern}`);
  });
});
