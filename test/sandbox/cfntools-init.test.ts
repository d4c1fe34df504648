import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { applyInit, type CommandPolicy, executionList } from '../../src/sandbox/cfntools/init.js';
import { parseIni } from '../../src/sandbox/cfntools/hup.js';
import type { JsonObject } from '../../src/util/json.js';

/** cfn-init's application of AWS::CloudFormation::Init under a scratch root, by command policy. */

const scratch = mkdtempSync(join(tmpdir(), 'hearth-cfn-init-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
const space = (policy: CommandPolicy = 'succeed', timeoutMs = 10_000) => ({
  root: join(scratch, `guest-${n++}`),
  policy,
  timeoutMs,
  children: new Set<never>(),
});

const init = (config: JsonObject): JsonObject => ({ 'AWS::CloudFormation::Init': config });

describe('sandbox heat-cfntools: cfn-init applies AWS::CloudFormation::Init', () => {
  it('writes files under the root (strings and JSON), records the rest, commands by name order', async () => {
    const s = space();
    const r = await applyInit(
      s,
      init({
        config: {
          packages: { yum: { httpd: [] } },
          services: { systemd: { httpd: { enabled: 'true' } } },
          files: {
            '/etc/app/app.conf': { content: 'port=80\n', mode: '000644', owner: 'root', group: 'root' },
            '/etc/app/data.json': { content: { a: [1] } },
            '/etc/yum.repos.d/x.repo': { source: 'https://example.invalid/x.repo' },
          },
          commands: { b: { command: 'echo b' }, a: { command: ['echo', 'a'] } },
        },
      }),
      undefined,
    );
    assert.equal(r.status, 0, r.error ?? '');
    assert.equal(readFileSync(join(s.root, 'etc/app/app.conf'), 'utf8'), 'port=80\n');
    assert.equal(
      readFileSync(join(s.root, 'etc/app/data.json'), 'utf8'),
      '{\n    "a": [\n        1\n    ]\n}',
    );
    assert.ok(!existsSync(join(s.root, 'etc/yum.repos.d/x.repo')), 'a source is recorded, not fetched');
    assert.deepEqual(
      r.files.map((f) => [f.path, f.mode, f.owner, f.bytes, f.source]),
      [
        ['/etc/app/app.conf', '000644', 'root', 8, null],
        ['/etc/app/data.json', null, null, 30, null],
        ['/etc/yum.repos.d/x.repo', null, null, null, 'https://example.invalid/x.repo'],
      ],
    );
    assert.deepEqual(
      r.commands.map((c) => [c.name, c.status]),
      [
        ['a', 0],
        ['b', 0],
      ],
    );
    assert.deepEqual(r.recorded, [
      {
        config: 'config',
        packages: { yum: { httpd: [] } },
        services: { systemd: { httpd: { enabled: 'true' } } },
      },
    ]);
  });

  it('policy run: commands run in the root with their env, test and cwd; a failure fails cfn-init', async () => {
    const s = space('run');
    const r = await applyInit(
      s,
      init({
        config: {
          files: { '/srv/in.txt': { content: 'hello' } },
          commands: {
            '1-copy': {
              command: 'cat in.txt > out.txt && echo "$GREETING" >> out.txt',
              cwd: '/srv',
              env: { GREETING: 'hi' },
            },
            '2-skipped': { command: 'touch skipped', test: 'false' },
            '3-ignored': { command: 'exit 4', ignoreErrors: 'true' },
            '4-fails': { command: 'exit 5' },
            '5-never': { command: 'touch never' },
          },
        },
      }),
      undefined,
    );
    assert.equal(r.status, 1);
    assert.equal(r.error, '4-fails has failed.');
    assert.equal(readFileSync(join(s.root, 'srv/out.txt'), 'utf8'), 'hellohi\n');
    assert.ok(!existsSync(join(s.root, 'skipped')) && !existsSync(join(s.root, 'never')));
    assert.deepEqual(
      r.commands.map((c) => [c.name, c.status]),
      [
        ['1-copy', 0],
        ['2-skipped', null],
        ['3-ignored', 4],
        ['4-fails', 5],
      ],
    );
  });

  it('policy run: a command past the time limit is killed and fails', async () => {
    const r = await applyInit(
      space('run', 200),
      init({ config: { commands: { slow: { command: 'sleep 30' } } } }),
      undefined,
    );
    assert.equal(r.status, 1);
    assert.match(r.commands[0]!.output, /killed after 200 ms/);
  });

  it('policy fail fails each command unless ignoreErrors; a bad mode fails; `..` stops at the root', async () => {
    const failed = await applyInit(
      space('fail'),
      init({ config: { commands: { x: { command: 'true' } } } }),
      undefined,
    );
    assert.equal(failed.error, 'x has failed.');
    const ignored = await applyInit(
      space('fail'),
      init({ config: { commands: { x: { command: 'true', ignoreErrors: true } } } }),
      undefined,
    );
    assert.equal(ignored.status, 0);
    const mode = await applyInit(
      space(),
      init({ config: { files: { '/a': { content: '', mode: 'rw' } } } }),
      undefined,
    );
    assert.match(mode.error ?? '', /invalid mode rw/);
    const s = space();
    const escape = await applyInit(
      s,
      init({ config: { files: { '/../../x': { content: 'no' } } } }),
      undefined,
    );
    assert.equal(escape.status, 0, escape.error ?? '');
    assert.ok(existsSync(join(s.root, 'x')));
  });

  it('configSets: default, a chosen list, nested ConfigSet references; errors as cfn-init gives them', async () => {
    const sets = { default: ['one', { ConfigSet: 'more' }], more: ['two'], other: ['two'] };
    assert.deepEqual(executionList(sets, undefined), ['one', 'two']);
    assert.deepEqual(executionList(sets, 'other, more'), ['two', 'two']);
    assert.equal(executionList(undefined, undefined), undefined);
    assert.throws(() => executionList(undefined, 'x'), /Template has no configSets/);
    assert.throws(() => executionList({ a: ['x'] }, undefined), /no default configSet/);
    assert.throws(() => executionList(sets, 'nope'), /Requested configSet 'nope' not in configSets/);
    assert.throws(
      () => executionList({ default: [{ ConfigSet: 'gone' }] }, undefined),
      /Undefined ConfigSet 'gone'/,
    );
    const s = space();
    const r = await applyInit(
      s,
      init({
        configSets: sets,
        one: { files: { '/1': { content: '1' } } },
        two: { files: { '/2': { content: '2' } } },
      }),
      undefined,
    );
    assert.equal(r.status, 0, r.error ?? '');
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['/1', '/2'],
    );
    const none = await applyInit(space(), { other: 1 }, undefined);
    assert.equal(none.error, 'invalid metadata');
    const missing = await applyInit(space(), init({ configSets: { default: ['x'] } }), undefined);
    assert.match(missing.error ?? '', /Could not find 'x' set in template/);
  });

  it("reads cfn-hup's configuration files as configparser does", () => {
    const ini = parseIni(
      '[main]\nstack=s\ncredential-file = /etc/cfn/c\n# comment\n[hook]\ntriggers: post.update\n',
    );
    assert.equal(ini.get('main')?.get('credential-file'), '/etc/cfn/c');
    assert.equal(ini.get('hook')?.get('triggers'), 'post.update');
  });
});
