import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServeProcess, startServe } from '../api/serve-process.js';
import { hearth, workdir } from './helpers.js';
import { ok } from './remote-helpers.js';

// `--token` against `hearth serve --auth standalone`: a token from `hearth manage token create`
// works; a wrong or missing one is a clear error (exit 1) that never shows the token.

describe('hearth stack --url --token (standalone authentication)', () => {
  const w = workdir({
    't.yaml': 'heat_template_version: 2018-08-31\nresources:\n  r: {type: OS::Heat::None}\n',
  });
  let server: ServeProcess;
  let url: string;
  let token: string;

  before(async () => {
    const project = JSON.parse(
      ok(w.run(['manage', 'project', 'create', 'acme', '-f', 'json']), 'project'),
    ) as {
      id: string;
    };
    ok(w.run(['manage', 'user', 'create', 'ann', '--project', 'acme']), 'user');
    const made = ok(
      w.run(['manage', 'token', 'create', '--project', 'acme', '--user', 'ann', '-f', 'json']),
      'token',
    );
    token = (JSON.parse(made) as { token: string }).token;
    server = await startServe(['--db', w.db, 'serve', '--auth', 'standalone', '--port', '0']);
    url = `${server.url}/v1/${project.id}`;
  });
  after(() => server.stop());

  const cli = (args: string[], env: Record<string, string> = {}) => hearth(args, w.dir, env);

  it('acts with a token made by `hearth manage token create`, given by --token or HEARTH_TOKEN', () => {
    const created = cli(['--url', url, '--token', token, 'stack', 'create', 'a', '-t', 't.yaml', '--wait']);
    assert.equal(created.code, 0, created.stderr);
    assert.ok(!created.stdout.includes(token) && !created.stderr.includes(token));
    const listed = cli(['stack', 'list', '-f', 'value'], { HEARTH_URL: url, HEARTH_TOKEN: token });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, / a CREATE_COMPLETE /);
  });

  it('refuses a wrong token and a missing one with a clear error and exit code 1', () => {
    const wrong = `${token.slice(0, -4)}abcd`;
    const refused = cli(['--url', url, '--token', wrong, 'stack', 'list']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'Error: The token is unknown or has expired\n');
    assert.equal(refused.stdout, '');
    const missing = cli(['--url', url, 'stack', 'list']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'Error: Authentication required: send an X-Auth-Token header\n');
  });
});
