import assert from 'node:assert/strict';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  type Config,
  defaultConfig,
  detectFormat,
  envVarName,
  expandHome,
  loadConfig,
  loadConfigDetailed,
  OPTION_NAMES,
} from '../../src/config/index.js';
import { scratch } from './helpers.js';

const tmp = scratch();

const DEFAULTS: Config = {
  action_retry_limit: 5,
  client_retry_limit: 2,
  max_resources_per_stack: 1_000_000,
  max_nested_stack_depth: 5,
  max_template_size: 524_288,
  max_json_body_size: 1_048_576,
  max_json_body_depth: 128,
  max_events_per_stack: 1000,
  event_purge_batch_size: 200,
  stack_action_timeout: 3600,
  convergence_engine: true,
  observe_on_update: false,
  convergence_migrate_on_update: false,
  num_engine_workers: Math.max(4, availableParallelism()),
  periodic_interval: 60,
  engine_life_check_timeout: 2,
  enable_stack_adopt: false,
  default_software_config_transport: 'POLL_SERVER_CFN',
  database: join(homedir(), '.hearth/hearth.db'),
  database_pool_size: 10,
  log_level: 'info',
  work_lease_ms: 30_000,
  heartbeat_interval_ms: 1000,
  engine_dead_after_ms: 5000,
  shutdown_timeout_ms: 20_000,
  background_engine: true,
  work_batch_size: 256,
  drift_concurrency: 16,
  observe_heal_limit: 3,
  observe_heal_window: 3600,
  max_document_depth: 64,
  max_document_nodes: 50_000_000,
  max_document_aliases: 1000,
  bind_host: '127.0.0.1',
  bind_port: 8004,
  auth_mode: 'standalone',
  token_expiration: 3600,
  keystone_url: 'http://127.0.0.1:5000/v3',
  keystone_service_user: 'heat',
  keystone_service_password: '',
  keystone_service_project: 'service',
  keystone_service_user_domain: 'Default',
  keystone_service_project_domain: 'Default',
  keystone_token_cache_time: 30,
  keystone_timeout: 10,
  trusts_delegated_roles: '',
  openstack_cloud: '',
  openstack_cloud_shared: false,
  cloud_rate_limit: 0,
  cloud_rate_burst: 0,
  max_stacks_per_tenant: 512,
  api_write_rate_limit: 50,
  api_write_rate_burst: 500,
  public_api_url: '',
  auth_encryption_key: '',
};

describe('loadConfig: defaults', () => {
  it('gives every option its documented default with no file, environment or overrides', () => {
    assert.deepEqual(loadConfig({ env: {} }), DEFAULTS);
  });

  it('has Heat’s defaults for Heat’s options, except the limits Hearth raises', () => {
    const config = loadConfig({ env: {} });
    assert.equal(config.action_retry_limit, 5);
    assert.equal(config.client_retry_limit, 2);
    assert.equal(config.max_nested_stack_depth, 5);
    assert.equal(config.max_events_per_stack, 1000);
    assert.equal(config.event_purge_batch_size, 200);
    assert.equal(config.stack_action_timeout, 3600);
    assert.equal(config.periodic_interval, 60);
    assert.equal(config.engine_life_check_timeout, 2);
    assert.equal(config.convergence_engine, true);
    assert.equal(config.observe_on_update, false);
    assert.ok(config.num_engine_workers >= 4);
  });

  it('expands ~ in the default database path', () => {
    assert.equal(loadConfig({ env: {} }).database, join(homedir(), '.hearth', 'hearth.db'));
    assert.equal(defaultConfig().database, '~/.hearth/hearth.db');
  });

  it('returns a frozen object', () => {
    const config = loadConfig({ env: {} });
    assert.ok(Object.isFrozen(config));
  });

  it('reads process.env when no env is passed', () => {
    const saved = process.env.HEARTH_PERIODIC_INTERVAL;
    process.env.HEARTH_PERIODIC_INTERVAL = '17';
    try {
      assert.equal(loadConfig().periodic_interval, 17);
    } finally {
      if (saved === undefined) delete process.env.HEARTH_PERIODIC_INTERVAL;
      else process.env.HEARTH_PERIODIC_INTERVAL = saved;
    }
  });
});

describe('loadConfig: YAML and JSON files', () => {
  it('reads a flat YAML map of every type', () => {
    const file = tmp.file(
      'all.yaml',
      [
        '# comment',
        'action_retry_limit: 3',
        'max_resources_per_stack: -1',
        'convergence_engine: false',
        'observe_on_update: yes # YAML 1.2 reads yes as a string; it is a boolean word all the same',
        'log_level: DEBUG',
        'database: /var/lib/hearth/hearth.db',
        'bind_host: 0.0.0.0',
        'bind_port: "9004"',
        '',
      ].join('\n'),
    );
    const config = loadConfig({ file, env: {} });
    assert.equal(config.action_retry_limit, 3);
    assert.equal(config.max_resources_per_stack, -1);
    assert.equal(config.convergence_engine, false);
    assert.equal(config.observe_on_update, true);
    assert.equal(config.log_level, 'debug');
    assert.equal(config.database, '/var/lib/hearth/hearth.db');
    assert.equal(config.bind_host, '0.0.0.0');
    assert.equal(config.bind_port, 9004);
    assert.equal(config.client_retry_limit, 2, 'options not in the file keep their defaults');
  });

  it('reads a JSON file', () => {
    const file = tmp.file('c.json', '{"max_template_size": 1024, "convergence_migrate_on_update": true}');
    const config = loadConfig({ file, env: {} });
    assert.equal(config.max_template_size, 1024);
    assert.equal(config.convergence_migrate_on_update, true);
  });

  it('treats an empty file, or one with only comments, as setting nothing', () => {
    for (const text of ['', '# nothing\n', '\n\n', '---\n']) {
      assert.deepEqual(loadConfig({ file: tmp.file('empty.yaml', text), env: {} }), DEFAULTS);
    }
  });

  it('ignores a byte-order mark', () => {
    const file = tmp.file('bom.yaml', '\ufeffaction_retry_limit: 1\n');
    assert.equal(loadConfig({ file, env: {} }).action_retry_limit, 1);
  });

  it('leaves database URLs and :memory: alone, and expands ~/', () => {
    for (const [value, expected] of [
      ['sqlite:///tmp/x.db', 'sqlite:///tmp/x.db'],
      [':memory:', ':memory:'],
      ['relative/h.db', 'relative/h.db'],
      ['~/h.db', join(homedir(), 'h.db')],
    ]) {
      const file = tmp.file('db.yaml', `database: '${value}'\n`);
      assert.equal(loadConfig({ file, env: {} }).database, expected);
    }
  });

  it('reads the file named by HEARTH_CONFIG when no file is passed', () => {
    const file = tmp.file('env.yaml', 'action_retry_limit: 9\n');
    assert.equal(loadConfig({ env: { HEARTH_CONFIG: file } }).action_retry_limit, 9);
  });

  it('prefers the file passed to HEARTH_CONFIG', () => {
    const passed = tmp.file('passed.yaml', 'action_retry_limit: 1\n');
    const named = tmp.file('named.yaml', 'action_retry_limit: 2\n');
    assert.equal(loadConfig({ file: passed, env: { HEARTH_CONFIG: named } }).action_retry_limit, 1);
  });

  it('reads no file when HEARTH_CONFIG is empty', () => {
    assert.deepEqual(loadConfig({ env: { HEARTH_CONFIG: '' } }), DEFAULTS);
  });
});

describe('loadConfig: INI files (heat.conf lines)', () => {
  it('reads [DEFAULT] with = and :, comments, quotes and oslo’s boolean words', () => {
    const file = tmp.file(
      'heat.conf',
      [
        '# Copied from heat.conf',
        '; another comment',
        '[DEFAULT]',
        'action_retry_limit = 4',
        'client_retry_limit:1',
        'max_resources_per_stack = -1',
        "bind_host = '0.0.0.0'",
        'database = "sqlite:///var/lib/hearth.db"',
        'convergence_engine = False',
        'observe_on_update = on',
        'log_level = warn',
        '',
      ].join('\n'),
    );
    const config = loadConfig({ file, env: {} });
    assert.equal(config.action_retry_limit, 4);
    assert.equal(config.client_retry_limit, 1);
    assert.equal(config.max_resources_per_stack, -1);
    assert.equal(config.bind_host, '0.0.0.0');
    assert.equal(config.database, 'sqlite:///var/lib/hearth.db');
    assert.equal(config.convergence_engine, false);
    assert.equal(config.observe_on_update, true);
    assert.equal(config.log_level, 'warn');
  });

  it('counts options before any section header as [DEFAULT], and reads CRLF lines', () => {
    const file = tmp.file('flat.ini', 'periodic_interval = 30\r\n[DEFAULT]\r\nstack_action_timeout = 60\r\n');
    const config = loadConfig({ file, env: {} });
    assert.equal(config.periodic_interval, 30);
    assert.equal(config.stack_action_timeout, 60);
  });

  it('reads every boolean word oslo.config accepts', () => {
    const words: [string, boolean][] = [
      ['true', true],
      ['True', true],
      ['t', true],
      ['yes', true],
      ['Y', true],
      ['on', true],
      ['1', true],
      ['false', false],
      ['FALSE', false],
      ['f', false],
      ['no', false],
      ['n', false],
      ['off', false],
      ['0', false],
    ];
    for (const [word, value] of words) {
      const file = tmp.file('bool.conf', `[DEFAULT]\nobserve_on_update = ${word}\n`);
      assert.equal(loadConfig({ file, env: {} }).observe_on_update, value, word);
    }
  });
});

describe('detectFormat', () => {
  it('goes by the extension first', () => {
    assert.equal(detectFormat('/etc/hearth/heat.conf', 'a: 1'), 'ini');
    assert.equal(detectFormat('x.INI', ''), 'ini');
    assert.equal(detectFormat('x.cfg', ''), 'ini');
    assert.equal(detectFormat('hearth.conf.yaml', '[DEFAULT]'), 'yaml');
    assert.equal(detectFormat('x.yml', ''), 'yaml');
    assert.equal(detectFormat('x.json', '{}'), 'yaml');
  });

  it('otherwise looks at the first line that is not blank or a comment', () => {
    assert.equal(detectFormat('hearthrc', '# c\n\n[DEFAULT]\na = 1\n'), 'ini');
    assert.equal(detectFormat('hearthrc', '; c\naction_retry_limit = 1\n'), 'ini');
    assert.equal(detectFormat('hearthrc', '# c\naction_retry_limit: 1\n'), 'yaml');
    assert.equal(detectFormat('hearthrc', '{"a": 1}'), 'yaml');
    assert.equal(detectFormat('hearthrc', ''), 'yaml');
  });

  it('reads an extensionless INI file as INI', () => {
    const file = tmp.file('hearthrc', '[DEFAULT]\naction_retry_limit = 8\n');
    assert.equal(loadConfig({ file, env: {} }).action_retry_limit, 8);
  });
});

describe('loadConfig: environment variables', () => {
  it('sets every option from HEARTH_<UPPERCASE_NAME>', () => {
    assert.equal(envVarName('action_retry_limit'), 'HEARTH_ACTION_RETRY_LIMIT');
    const env = {
      HEARTH_ACTION_RETRY_LIMIT: '3',
      HEARTH_CONVERGENCE_ENGINE: 'no',
      HEARTH_LOG_LEVEL: 'Trace',
      HEARTH_DATABASE: ' /srv/h.db ',
      HEARTH_BIND_PORT: '0',
      HEARTH_MAX_RESOURCES_PER_STACK: '-1',
      HEARTH_NUM_ENGINE_WORKERS: '+2',
    };
    const config = loadConfig({ env });
    assert.equal(config.action_retry_limit, 3);
    assert.equal(config.convergence_engine, false);
    assert.equal(config.log_level, 'trace');
    assert.equal(config.database, '/srv/h.db', 'surrounding spaces are dropped');
    assert.equal(config.bind_port, 0);
    assert.equal(config.max_resources_per_stack, -1);
    assert.equal(config.num_engine_workers, 2);
  });

  it('has a variable for every option, each round-tripping its default', () => {
    const defaults = defaultConfig();
    const env: Record<string, string> = {};
    // An option whose default is empty means "unset": an empty variable is no value.
    const settable = OPTION_NAMES.filter((name) => defaults[name] !== '');
    for (const name of settable) env[envVarName(name)] = String(defaults[name]);
    const { config, sources } = loadConfigDetailed({ env });
    assert.deepEqual(config, { ...defaults, database: join(homedir(), '.hearth/hearth.db') });
    for (const name of OPTION_NAMES) {
      // An empty default means "not set", and an empty variable counts as unset.
      const expected =
        defaults[name] === '' ? { kind: 'default' } : { kind: 'env', variable: envVarName(name) };
      assert.deepEqual(sources[name], expected, name);
    }
  });

  it('ignores the CLI’s variables and the test suite’s', () => {
    const env = {
      HEARTH_CONFIG: '',
      HEARTH_DB: '/x.db',
      HEARTH_URL: 'http://h:8004',
      HEARTH_PROJECT: 'demo',
      HEARTH_PROPERTY_SCALE: '50',
    };
    assert.deepEqual(loadConfig({ env }), DEFAULTS);
  });

  it('treats empty and blank variables as unset, and ignores other variables', () => {
    const env = {
      HEARTH_ACTION_RETRY_LIMIT: '',
      HEARTH_LOG_LEVEL: '  ',
      PATH: '/bin',
      hearth_log_level: 'x',
    };
    assert.deepEqual(loadConfig({ env }), DEFAULTS);
  });
});

describe('loadConfig: precedence', () => {
  const file = tmp.file('p.yaml', 'action_retry_limit: 1\nclient_retry_limit: 1\nperiodic_interval: 1\n');

  it('defaults < file < environment < overrides', () => {
    const { config, sources } = loadConfigDetailed({
      file,
      env: { HEARTH_CLIENT_RETRY_LIMIT: '2', HEARTH_PERIODIC_INTERVAL: '2' },
      overrides: { periodic_interval: 3 },
    });
    assert.equal(config.stack_action_timeout, 3600);
    assert.equal(config.action_retry_limit, 1);
    assert.equal(config.client_retry_limit, 2);
    assert.equal(config.periodic_interval, 3);
    assert.deepEqual(sources.stack_action_timeout, { kind: 'default' });
    assert.deepEqual(sources.action_retry_limit, { kind: 'file', file, line: 1, column: 21 });
    assert.deepEqual(sources.client_retry_limit, { kind: 'env', variable: 'HEARTH_CLIENT_RETRY_LIMIT' });
    assert.deepEqual(sources.periodic_interval, { kind: 'override' });
  });

  it('reports the file and its format', () => {
    const loaded = loadConfigDetailed({ file, env: {} });
    assert.equal(loaded.file, file);
    assert.equal(loaded.format, 'yaml');
    const none = loadConfigDetailed({ env: {} });
    assert.equal(none.file, undefined);
    assert.equal(none.format, undefined);
  });

  it('ignores overrides whose value is undefined (flags not given)', () => {
    const config = loadConfig({
      file,
      env: {},
      overrides: { action_retry_limit: undefined, database: undefined },
    });
    assert.equal(config.action_retry_limit, 1);
    assert.equal(config.database, DEFAULTS.database);
  });

  it('lets --db (an override) win over the database option and HEARTH_DATABASE, with ~ expanded', () => {
    const dbFile = tmp.file('db.yaml', 'database: /from/file.db\n');
    const config = loadConfig({
      file: dbFile,
      env: { HEARTH_DATABASE: '/from/env.db' },
      overrides: { database: '~/from-flag.db' },
    });
    assert.equal(config.database, join(homedir(), 'from-flag.db'));
  });

  it('checks heartbeat_interval_ms against work_lease_ms after all sources are merged', () => {
    const config = loadConfig({
      env: { HEARTH_WORK_LEASE_MS: '5000' },
      overrides: { heartbeat_interval_ms: 1000 },
    });
    assert.equal(config.work_lease_ms, 5000);
    assert.equal(config.heartbeat_interval_ms, 1000);
  });

  it('checks engine_dead_after_ms against heartbeat_interval_ms after all sources are merged', () => {
    const config = loadConfig({
      env: { HEARTH_HEARTBEAT_INTERVAL_MS: '2000' },
      overrides: { engine_dead_after_ms: 4001 },
    });
    assert.equal(config.heartbeat_interval_ms, 2000);
    assert.equal(config.engine_dead_after_ms, 4001);
  });

  it('reads the engine lifecycle and pool options from every source', () => {
    const file = tmp.file('life.conf', '[DEFAULT]\nshutdown_timeout_ms = 0\ndatabase_pool_size = 3\n');
    const config = loadConfig({ file, env: { HEARTH_ENGINE_DEAD_AFTER_MS: '60000' } });
    assert.equal(config.shutdown_timeout_ms, 0);
    assert.equal(config.database_pool_size, 3);
    assert.equal(config.engine_dead_after_ms, 60_000);
  });

  it('leaves a database URL as written: no ~ expansion, password and query intact', () => {
    const url = 'postgres://u:s%40cret@db.example:5432/hearth?options=-c%20search_path%3Dx';
    assert.equal(loadConfig({ env: {}, overrides: { database: url } }).database, url);
    assert.equal(loadConfig({ env: { HEARTH_DATABASE: url } }).database, url);
  });
});

describe('expandHome', () => {
  it('expands ~ and ~/ only', () => {
    assert.equal(expandHome('~', '/home/u'), '/home/u');
    assert.equal(expandHome('~/a/b.db', '/home/u'), '/home/u/a/b.db');
    assert.equal(expandHome('~other/x', '/home/u'), '~other/x');
    assert.equal(expandHome('/abs/~/x', '/home/u'), '/abs/~/x');
    assert.equal(expandHome('postgres://u:p@h/~/db', '/home/u'), 'postgres://u:p@h/~/db');
    assert.equal(expandHome(':memory:', '/home/u'), ':memory:');
  });
});
