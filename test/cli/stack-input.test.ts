import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { parameterFileValues, pollSeconds, withHooks } from '../../src/cli/commands/stack-input.js';
import {
  emptyEnvironment,
  environmentToJSON,
  parseEnvironment,
  ResourceRegistry,
} from '../../src/template/environment/index.js';

// What heatclient's stack create/update do to the inputs on the client side: parameter files
// (heat_utils.format_parameter_file) and hooks (template_utils.hooks_to_env).

const dir = mkdtempSync(join(tmpdir(), 'hearth-stack-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'tpl'));
writeFileSync(join(dir, 'tpl', 'key.pub'), 'ssh-ed25519 AAAA me@host\n');
writeFileSync(join(dir, 'here.txt'), 'from the working directory');
writeFileSync(join(dir, 'tpl', 'blob.bin'), Buffer.from([0xff, 0xfe, 0x00, 0x01]));

describe('--parameter-file values', () => {
  it("reads a relative file from the template's directory, as heatclient does, content as it is", () => {
    assert.deepEqual(parameterFileValues(['key=key.pub'], 'tpl/t.yaml', dir), {
      key: 'ssh-ed25519 AAAA me@host\n',
    });
    // An absolute path is itself.
    assert.deepEqual(parameterFileValues([`k=${join(dir, 'here.txt')}`], 'tpl/t.yaml', dir), {
      k: 'from the working directory',
    });
  });

  it('reads from the working directory when there is no template (update --existing)', () => {
    assert.deepEqual(parameterFileValues(['k=here.txt'], undefined, dir), {
      k: 'from the working directory',
    });
  });

  it('sends what is not UTF-8 base64-encoded, as heatclient does', () => {
    assert.deepEqual(parameterFileValues(['b=blob.bin'], 'tpl/t.yaml', dir), { b: '//4AAQ==\n' });
  });

  it('names the file it cannot read, and says KEY=FILE is expected for a bad pair', () => {
    assert.throws(
      () => parameterFileValues(['key=missing.txt'], 'tpl/t.yaml', dir),
      /--parameter-file key: cannot read "missing\.txt": ENOENT.*tpl\/missing\.txt/,
    );
    for (const bad of ['key.pub', '=key.pub', 'key=']) {
      assert.throws(
        () => parameterFileValues([bad], 'tpl/t.yaml', dir),
        new RegExp(`--parameter-file expects KEY=FILE, got "${bad.replace('.', '\\.')}"`),
      );
    }
  });
});

describe('--poll seconds', () => {
  it('takes a whole number above 0', () => {
    assert.equal(pollSeconds('5'), 5);
    assert.equal(pollSeconds(' 12 '), 12);
    for (const bad of ['0', '-1', '1.5', 'soon', '']) {
      assert.throws(() => pollSeconds(bad), InvalidArgumentError, bad);
    }
  });
});

describe('--pre-create / --pre-update hooks in the environment', () => {
  const hooksOf = (env: ReturnType<typeof emptyEnvironment>, name: string, path: string[] = []) => [
    ...new ResourceRegistry(env).hooksFor(name, path),
  ];

  it("writes resource_registry.resources as heatclient's hooks_to_env, nested paths split at /", () => {
    const env = withHooks(emptyEnvironment(), ['server', 'nested/inner', '/group/*/'], 'pre-create');
    assert.deepEqual(environmentToJSON(env).resource_registry, {
      resources: {
        server: { hooks: ['pre-create'] },
        nested: { inner: { hooks: ['pre-create'] } },
        group: { '*': { hooks: ['pre-create'] } },
      },
    });
    assert.deepEqual(hooksOf(env, 'server'), ['pre-create']);
    assert.deepEqual(hooksOf(env, 'inner', ['nested']), ['pre-create']);
    assert.deepEqual(hooksOf(env, '0', ['group']), ['pre-create']);
    assert.deepEqual(hooksOf(env, 'other'), []);
  });

  it('keeps what the environment already says of the resource (its hooks, its type mappings)', () => {
    const file = parseEnvironment(
      'file:///env.yaml',
      'resource_registry:\n  resources:\n    server: {hooks: pre-update, "OS::Heat::None": "OS::Heat::Value"}\n',
    );
    const env = withHooks(file, ['server'], 'pre-create');
    assert.deepEqual(hooksOf(env, 'server').sort(), ['pre-create', 'pre-update']);
    assert.deepEqual(new ResourceRegistry(env).resolveType('OS::Heat::None', 'server'), {
      kind: 'plugin',
      type: 'OS::Heat::Value',
    });
    // The given environment is not changed.
    assert.deepEqual(hooksOf(file, 'server'), ['pre-update']);
  });

  it('refuses an empty resource path', () => {
    assert.throws(
      () => withHooks(emptyEnvironment(), ['/'], 'pre-update'),
      /--pre-update expects a resource name/,
    );
  });
});
