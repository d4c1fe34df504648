import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CloudConfigError,
  cloudsYamlSearchPath,
  describeCloud,
  loadCloudSettings,
} from '../../src/openstack/config.js';

const CLOUDS = `
clouds:
  devstack:
    auth:
      auth_url: http://cloud.example:5000/v3
      username: alice
      password: s3cret-pw
      project_name: web
      user_domain_name: Users
      project_domain_id: prod
    region_name: RegionTwo
    interface: internal
    verify: false
  appcred:
    auth_type: v3applicationcredential
    auth:
      auth_url: http://cloud.example:5000
      application_credential_id: abc123
      application_credential_secret: topsecret
    cacert: /etc/ssl/cloud.pem
  bundle:
    verify: /etc/ssl/bundle.pem
    auth: {auth_url: http://k, token: t, project_id: p}
`;

describe('cloud settings (clouds.yaml and OS_* variables)', () => {
  let dir: string;
  let home: string;
  let cwd: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-clouds-'));
    home = join(dir, 'home');
    cwd = join(dir, 'work');
    mkdirSync(join(home, '.config', 'openstack'), { recursive: true });
    mkdirSync(cwd);
    writeFileSync(join(home, '.config', 'openstack', 'clouds.yaml'), CLOUDS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const load = (env: Record<string, string>, cloud?: string) =>
    loadCloudSettings({ env, cwd, home, ...(cloud ? { cloud } : {}) });

  it('reads a named cloud from ~/.config/openstack/clouds.yaml (OS_CLOUD)', () => {
    const settings = load({ OS_CLOUD: 'devstack' });
    assert.equal(settings.cloud, 'devstack');
    assert.equal(settings.origin, join(home, '.config', 'openstack', 'clouds.yaml'));
    assert.equal(settings.authType, 'password');
    assert.deepEqual(settings.auth, {
      authUrl: 'http://cloud.example:5000/v3',
      username: 'alice',
      password: 's3cret-pw',
      projectName: 'web',
      userDomainName: 'Users',
      projectDomainId: 'prod',
    });
    assert.equal(settings.regionName, 'RegionTwo');
    assert.equal(settings.interface, 'internal');
    assert.equal(settings.insecure, true);
  });

  it('reads an application credential cloud with a CA file', () => {
    const settings = load({}, 'appcred');
    assert.equal(settings.authType, 'v3applicationcredential');
    assert.equal(settings.auth.applicationCredentialId, 'abc123');
    assert.equal(settings.cacert, '/etc/ssl/cloud.pem');
    assert.equal(settings.interface, 'public');
    assert.equal(settings.insecure, false);
    // verify holding a path, as in requests, is the CA bundle.
    const bundle = load({}, 'bundle');
    assert.equal(bundle.cacert, '/etc/ssl/bundle.pem');
    assert.equal(bundle.insecure, false);
    assert.equal(bundle.authType, 'token');
  });

  it('prefers ./clouds.yaml, and OS_CLIENT_CONFIG_FILE before both', () => {
    const local = join(cwd, 'clouds.yaml');
    writeFileSync(
      local,
      'clouds:\n  devstack:\n    auth: {auth_url: http://local/v3, username: bob, password: x, project_id: p1}\n',
    );
    try {
      assert.equal(load({ OS_CLOUD: 'devstack' }).auth.username, 'bob');
      const explicit = join(dir, 'explicit.yaml');
      writeFileSync(
        explicit,
        'clouds:\n  devstack:\n    auth: {auth_url: http://e/v3, username: carol, password: x, project_id: p1}\n',
      );
      assert.equal(load({ OS_CLOUD: 'devstack', OS_CLIENT_CONFIG_FILE: explicit }).auth.username, 'carol');
      assert.deepEqual(cloudsYamlSearchPath({ env: { OS_CLIENT_CONFIG_FILE: explicit }, cwd, home }), [
        explicit,
        local,
        join(home, '.config', 'openstack', 'clouds.yaml'),
        '/etc/openstack/clouds.yaml',
      ]);
    } finally {
      rmSync(local);
    }
  });

  it('builds a cloud from OS_* variables alone, defaulting domains and interface', () => {
    const settings = load({
      OS_AUTH_URL: 'http://127.0.0.1:9/identity/v3',
      OS_USERNAME: 'demo',
      OS_PASSWORD: 'demo',
      OS_PROJECT_NAME: 'demo',
      OS_INTERFACE: 'publicURL',
      OS_INSECURE: 'true',
      OS_CACERT: '/ca.pem',
      OS_REGION_NAME: 'RegionOne',
    });
    assert.equal(settings.origin, 'environment');
    assert.equal(settings.cloud, undefined);
    assert.equal(settings.auth.userDomainId, 'default');
    assert.equal(settings.auth.projectDomainId, 'default');
    assert.equal(settings.interface, 'public');
    assert.equal(settings.insecure, true);
    assert.equal(settings.cacert, '/ca.pem');
    assert.equal(settings.regionName, 'RegionOne');
  });

  it('knows the auth types by their openstacksdk names, and infers one from the keys', () => {
    const base = { OS_AUTH_URL: 'http://k/v3', OS_PROJECT_ID: 'p' };
    assert.equal(
      load({ ...base, OS_AUTH_TYPE: 'v3password', OS_USER_ID: 'u', OS_PASSWORD: 'x' }).authType,
      'password',
    );
    assert.equal(load({ ...base, OS_AUTH_TYPE: 'token', OS_TOKEN: 't' }).authType, 'token');
    assert.equal(load({ ...base, OS_TOKEN: 't' }).authType, 'token');
    const credential = load({
      OS_AUTH_URL: 'http://k/v3',
      OS_APPLICATION_CREDENTIAL_NAME: 'ci',
      OS_APPLICATION_CREDENTIAL_SECRET: 's',
      OS_USERNAME: 'demo',
    });
    assert.equal(credential.authType, 'v3applicationcredential');
    assert.equal(credential.auth.userDomainId, 'default');
  });

  it('lets OS_* variables override the named cloud, and says so in the origin', () => {
    const settings = load({ OS_CLOUD: 'devstack', OS_PASSWORD: 'from-env', OS_REGION_NAME: 'RegionThree' });
    assert.equal(settings.auth.password, 'from-env');
    assert.equal(settings.auth.username, 'alice');
    assert.equal(settings.regionName, 'RegionThree');
    assert.match(settings.origin, /clouds\.yaml and environment$/);
    // An explicit --os-cloud wins over OS_CLOUD.
    assert.equal(load({ OS_CLOUD: 'devstack' }, 'appcred').cloud, 'appcred');
  });

  it('explains what is wrong, naming the file and key, never a secret', () => {
    const file = join(dir, 'bad.yaml');
    const error = (env: Record<string, string>, cloud?: string) => {
      try {
        load(env, cloud);
      } catch (e) {
        assert.ok(e instanceof CloudConfigError, String(e));
        assert.doesNotMatch(e.message, /s3cret-pw|topsecret|hunter2/);
        return e.message;
      }
      assert.fail('no error');
    };
    assert.match(error({}), /no cloud chosen: set OS_CLOUD/);
    assert.match(
      error({ OS_CLOUD: 'nope' }),
      /clouds\.yaml: no cloud 'nope' under clouds \(found devstack, appcred, bundle\)/,
    );
    assert.match(
      error({ OS_AUTH_URL: 'http://k/v3', OS_USERNAME: 'u', OS_PASSWORD: 'hunter2' }),
      /^environment: project_name \(OS_PROJECT_NAME\) or project_id \(OS_PROJECT_ID\) is not set$/,
    );
    assert.match(
      error({ OS_AUTH_URL: 'http://k/v3', OS_USERNAME: 'u', OS_PROJECT_ID: 'p' }),
      /password \(OS_PASSWORD\) is not set/,
    );
    assert.match(
      error({ OS_AUTH_URL: 'http://k/v3', OS_AUTH_TYPE: 'v3oidc', OS_PASSWORD: 'hunter2' }),
      /auth_type 'v3oidc' is not supported/,
    );
    assert.match(
      error({ OS_AUTH_URL: 'http://k', OS_INSECURE: 'maybe' }),
      /OS_INSECURE must be true or false/,
    );

    writeFileSync(file, 'clouds:\n  x:\n    auth:\n      auth_url: [1, 2]\n      password: hunter2\n');
    assert.equal(
      error({ OS_CLIENT_CONFIG_FILE: file }, 'x'),
      `${file}: clouds.x.auth.auth_url must be a string`,
    );
    writeFileSync(file, 'clouds:\n  x:\n    auth: {password: hunter2\n');
    assert.match(
      error({ OS_CLIENT_CONFIG_FILE: file }, 'x'),
      new RegExp(`^${file}: cannot read clouds.yaml: `),
    );
    writeFileSync(file, 'clouds:\n  x:\n    auth: {password: hunter2, username: u, project_id: p}\n');
    assert.equal(
      error({ OS_CLIENT_CONFIG_FILE: file }, 'x'),
      `${file} (cloud x): auth_url (OS_AUTH_URL) is not set`,
    );
    writeFileSync(
      file,
      'clouds:\n  x:\n    interface: sideways\n    auth: {auth_url: http://k, password: hunter2, username: u, project_id: p}\n',
    );
    assert.match(
      error({ OS_CLIENT_CONFIG_FILE: file }, 'x'),
      /interface must be public, internal or admin, not 'sideways'/,
    );
  });

  it('describes settings with the secrets masked', () => {
    const described = describeCloud(load({ OS_CLOUD: 'devstack' }));
    assert.equal((described.auth as Record<string, unknown>).password, '***');
    assert.equal((described.auth as Record<string, unknown>).username, 'alice');
    assert.doesNotMatch(JSON.stringify(described), /s3cret-pw/);
  });
});
