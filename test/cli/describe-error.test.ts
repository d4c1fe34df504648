import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeError, maskUrlPasswords } from '../../src/cli/errors.js';

describe('describeError', () => {
  it('masks the password of any URL a message quotes, keeping user and host', () => {
    assert.equal(
      describeError(new Error('cannot reach postgres://hearth:s3cret@db:5432/h?sslmode=require (timeout)')),
      'cannot reach postgres://hearth:***@db:5432/h?sslmode=require (timeout)',
    );
    assert.equal(
      maskUrlPasswords('a postgresql://:pw@h/db and b https://u:p@x'),
      'a postgresql://:***@h/db and b https://u:***@x',
    );
  });

  it('masks a password with an unencoded @ or / up to its end', () => {
    assert.equal(maskUrlPasswords('postgres://u:p@ss/w@h/db'), 'postgres://u:***@h/db');
  });

  it('leaves URLs without a password, and other text, alone', () => {
    for (const text of ['postgres://u@h/db', 'mailto:a@b', 'user:pass', 'file:///tmp/a@b']) {
      assert.equal(maskUrlPasswords(text), text);
    }
  });

  it('still shortens file URLs under the working directory', () => {
    assert.equal(describeError(new Error('in file:///w/d/t.yaml'), '/w/d'), 'in t.yaml');
  });

  it('writes other file URLs as absolute paths, keeping line and column, decoding escapes', () => {
    assert.equal(
      describeError(new Error('bad (file:///tmp/x.yaml:4:5: resources.s.type)'), '/w/d'),
      'bad (/tmp/x.yaml:4:5: resources.s.type)',
    );
    assert.equal(
      describeError(new Error('in file:///tmp/my%20dir/t.yaml:3 and file:///w/d/sub/n.yaml'), '/w/d'),
      'in /tmp/my dir/t.yaml:3 and sub/n.yaml',
    );
    assert.equal(describeError(new Error('in file:///w/dx/t.yaml'), '/w/d'), 'in /w/dx/t.yaml');
  });
});
