import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayDeclareDeletionPolicy } from '../../src/template/deletion-policy.js';

describe('a scan for deletion policies', () => {
  it('finds none only where no key could spell one', () => {
    const plain = 'resources:\n  a: {type: OS::Heat::Value, properties: {value: "x\\ty"}}\n';
    assert.equal(mayDeclareDeletionPolicy(plain), false);
    assert.equal(mayDeclareDeletionPolicy(`${plain}  b: {type: T, deletion_policy: Retain}\n`), true);
    assert.equal(mayDeclareDeletionPolicy('{"Resources": {"A": {"DeletionPolicy": "Retain"}}}'), true);
    // Escapes that could spell the key inside a quoted scalar (YAML, JSON).
    assert.equal(mayDeclareDeletionPolicy('a: {"deletion\\x5fpolicy": Retain}'), true);
    assert.equal(mayDeclareDeletionPolicy('{"a": {"deletion\\u005fpolicy": "Retain"}}'), true);
    assert.equal(mayDeclareDeletionPolicy('a: {"deletion_\\\n  policy": Retain}'), true);
  });
});
