import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ConfigError,
  describeSource,
  isConfigError,
  type Config,
  loadConfig,
} from '../../src/config/index.js';
import { configError, oneIssue, scratch } from './helpers.js';

const tmp = scratch();

/** The one problem with a YAML file of this text. */
function yamlIssue(text: string): { file: string; message: string } {
  const file = tmp.file('bad.yaml', text);
  return { file, message: oneIssue({ file, env: {} }) };
}

/** The one problem with an INI file of this text. */
function iniIssue(text: string): { file: string; message: string } {
  const file = tmp.file('bad.conf', text);
  return { file, message: oneIssue({ file, env: {} }) };
}

function envIssue(env: Record<string, string>): string {
  return oneIssue({ env });
}

function overrideIssue(overrides: Record<string, unknown>): string {
  return oneIssue({ env: {}, overrides: overrides as Partial<Config> });
}

describe('config errors: the file itself', () => {
  it('a file given explicitly that does not exist', () => {
    const file = `${tmp.dir('d')}/missing.yaml`;
    const err = configError({ file, env: {} });
    assert.equal(err.message, `invalid configuration: ${file}: config file does not exist`);
    assert.deepEqual(err.issues[0]!.source, { kind: 'file', file });
    assert.equal(err.issues[0]!.option, undefined);
  });

  it('a file named by HEARTH_CONFIG that does not exist says so', () => {
    const file = `${tmp.dir('d')}/missing.yaml`;
    assert.equal(
      oneIssue({ env: { HEARTH_CONFIG: file } }),
      `${file}: config file does not exist (named by HEARTH_CONFIG)`,
    );
  });

  it('a directory', () => {
    const dir = tmp.dir('confdir');
    assert.equal(oneIssue({ file: dir, env: {} }), `${dir}: config file is a directory`);
  });

  it('an empty path', () => {
    assert.equal(oneIssue({ file: '', env: {} }), ': the config file path is empty');
  });

  it('invalid YAML, with line and column', () => {
    const { file, message } = yamlIssue('action_retry_limit: 1\nlog_level: [debug\n');
    assert.match(message, new RegExp(`^${file}:\\d+:\\d+: invalid YAML: `));
  });

  it('a YAML document that is not a map', () => {
    for (const text of ['- action_retry_limit\n', 'just a string\n', '42\n']) {
      const { file, message } = yamlIssue(text);
      assert.equal(message, `${file}:1:1: a config file must be a map of option names to values`);
    }
  });

  it('a YAML key that is not a plain string', () => {
    const { file, message } = yamlIssue('action_retry_limit: 1\n[a, b]: 2\n');
    assert.equal(message, `${file}:2:1: an option name must be a plain string`);
  });
});

describe('config errors: unknown options', () => {
  it('in a YAML file, with the nearest option', () => {
    const { file, message } = yamlIssue('log_level: info\naction_retry_limt: 3\n');
    assert.equal(
      message,
      `${file}:2:1: unknown option "action_retry_limt" (did you mean action_retry_limit?)`,
    );
  });

  it('in a YAML file, with nothing near', () => {
    const { file, message } = yamlIssue('frobnicate: 3\n');
    assert.equal(message, `${file}:1:1: unknown option "frobnicate"`);
  });

  it('a Heat section written as a YAML map', () => {
    const { file, message } = yamlIssue('DEFAULT:\n  action_retry_limit: 3\n');
    assert.equal(
      message,
      `${file}:1:1: unknown option "DEFAULT": a YAML config file is a flat map, so write the options at the top level`,
    );
  });

  it('a heat.conf setting that Hearth names differently', () => {
    const { file, message } = iniIssue('[DEFAULT]\ndebug = True\n');
    assert.equal(
      message,
      `${file}:2:1: unknown option "debug": Hearth sets verbosity with log_level (debug = true is log_level = debug)`,
    );
  });

  it('a Heat option Hearth does not have, in an INI file', () => {
    const { file, message } = iniIssue('[DEFAULT]\nmax_server_name_length = 10\n');
    assert.equal(message, `${file}:2:1: unknown option "max_server_name_length"`);
  });

  it('an environment variable, with the nearest variable', () => {
    assert.equal(
      envIssue({ HEARTH_ACTION_RETRY_LIMT: '3' }),
      'environment variable HEARTH_ACTION_RETRY_LIMT: unknown option "action_retry_limt" (did you mean HEARTH_ACTION_RETRY_LIMIT?)',
    );
  });

  it('an environment variable with nothing near lists the variables that are not options', () => {
    assert.equal(
      envIssue({ HEARTH_FROBNICATE: '1' }),
      'environment variable HEARTH_FROBNICATE: unknown option "frobnicate" (HEARTH_<OPTION> variables set options; ' +
        'the others with that prefix are HEARTH_CONFIG, HEARTH_DB, HEARTH_URL, HEARTH_PROJECT, HEARTH_PROPERTY_SCALE, ' +
        'HEARTH_TEST_BACKEND, HEARTH_TEST_POSTGRES, HEARTH_TEST_DATABASE, HEARTH_TEST_CLI, HEARTH_TEST_CONCURRENCY, HEARTH_TEST_NEWCOMER, HEARTH_TEST_SCREENSHOTS, ' +
        'HEARTH_TEST_REAL_OPENSTACK)',
    );
  });

  it('an environment variable in the wrong case', () => {
    assert.equal(
      envIssue({ HEARTH_log_level: 'debug' }),
      'environment variable HEARTH_log_level: unknown option "log_level" (did you mean HEARTH_LOG_LEVEL?)',
    );
  });

  it('an override', () => {
    assert.equal(
      overrideIssue({ databse: '/x.db' }),
      'command-line override: unknown option "databse" (did you mean database?)',
    );
  });
});

describe('config errors: values of the wrong type', () => {
  const cases: [string, string, string][] = [
    // [YAML line, column of the value, expected message after the place]
    ['action_retry_limit: three', '21', 'option action_retry_limit expects an integer >= 0, got "three"'],
    ['action_retry_limit: -1', '21', 'option action_retry_limit expects an integer >= 0, got the number -1'],
    [
      'action_retry_limit: 1.5',
      '21',
      'option action_retry_limit expects an integer >= 0, got the number 1.5',
    ],
    ['action_retry_limit: "1.0"', '21', 'option action_retry_limit expects an integer >= 0, got "1.0"'],
    [
      'action_retry_limit: true',
      '21',
      'option action_retry_limit expects an integer >= 0, got the boolean true',
    ],
    ['action_retry_limit: [1]', '21', 'option action_retry_limit expects an integer >= 0, got a list'],
    ['action_retry_limit: {a: 1}', '21', 'option action_retry_limit expects an integer >= 0, got a map'],
    ['action_retry_limit: ""', '21', 'option action_retry_limit expects an integer >= 0, got an empty value'],
    ['action_retry_limit: null', '21', 'option action_retry_limit expects an integer >= 0, got no value'],
    [
      'max_template_size: 99999999999999999999',
      '20',
      'option max_template_size expects an integer >= 1, got the number 100000000000000000000',
    ],
    ['bind_port: 65536', '12', 'option bind_port expects an integer from 0 to 65535, got the number 65536'],
    [
      'max_resources_per_stack: -2',
      '26',
      'option max_resources_per_stack expects an integer >= -1, got the number -2',
    ],
    [
      'convergence_engine: maybe',
      '21',
      'option convergence_engine expects a boolean (true/false, yes/no, on/off, 1/0), got "maybe"',
    ],
    [
      'convergence_engine: 2',
      '21',
      'option convergence_engine expects a boolean (true/false, yes/no, on/off, 1/0), got the number 2',
    ],
    ['log_level: loud', '12', 'option log_level expects one of trace, debug, info, warn, error, got "loud"'],
    ['database: ""', '11', 'option database expects a non-empty string, got an empty value'],
    ['bind_host: [a, b]', '12', 'option bind_host expects a non-empty string, got a list'],
  ];
  for (const [line, column, detail] of cases) {
    it(line, () => {
      const { file, message } = yamlIssue(`${line}\n`);
      assert.equal(message, `${file}:1:${column}: ${detail}`);
    });
  }

  it('never shows a rejected secret’s value (keystone_service_password), only its kind', () => {
    const { file, message } = yamlIssue('keystone_service_password: 12.25\n');
    assert.equal(
      message,
      `${file}:1:28: option keystone_service_password expects a non-empty string, got a value not shown (a secret)`,
    );
    assert.ok(!message.includes('12.25'));
    assert.match(yamlIssue('keystone_service_password: [pw]\n').message, /got a list$/);
    assert.match(yamlIssue('keystone_service_password: ""\n').message, /got an empty value$/);
    const override = overrideIssue({ keystone_service_password: 4711 });
    assert.match(override, /keystone_service_password expects a non-empty string, got a value not shown/);
    assert.ok(!override.includes('4711'));
  });

  it('an empty YAML value is pointed at where the value should be', () => {
    const { file, message } = yamlIssue('log_level: info\naction_retry_limit:\n');
    assert.equal(message, `${file}:2:20: option action_retry_limit expects an integer >= 0, got no value`);
  });

  it('names the option and what it expects in the issue', () => {
    const file = tmp.file('typed.yaml', 'bind_port: http\n');
    const issue = configError({ file, env: {} }).issues[0]!;
    assert.equal(issue.option, 'bind_port');
    assert.equal(issue.expected, 'an integer from 0 to 65535');
    assert.deepEqual(issue.source, { kind: 'file', file, line: 1, column: 12 });
    assert.equal(issue.detail, 'option bind_port expects an integer from 0 to 65535, got "http"');
  });

  it('an INI value, pointing at the value', () => {
    const { file, message } = iniIssue('[DEFAULT]\nstack_action_timeout =   1h\n');
    assert.equal(message, `${file}:2:26: option stack_action_timeout expects an integer >= 1, got "1h"`);
  });

  it('an empty INI value', () => {
    const { file, message } = iniIssue('[DEFAULT]\nbind_host =\n');
    assert.equal(message, `${file}:2:12: option bind_host expects a non-empty string, got an empty value`);
  });

  it('an INI value followed by a comment, with a hint', () => {
    const { file, message } = iniIssue('[DEFAULT]\naction_retry_limit = 3  # retries\n');
    assert.equal(
      message,
      `${file}:2:22: option action_retry_limit expects an integer >= 0, got "3  # retries" ` +
        '(in an INI file a comment after a value is part of the value: put it on a line of its own)',
    );
  });

  it('an environment variable', () => {
    assert.equal(
      envIssue({ HEARTH_ACTION_RETRY_LIMIT: 'three' }),
      'environment variable HEARTH_ACTION_RETRY_LIMIT: option action_retry_limit expects an integer >= 0, got "three"',
    );
    assert.equal(
      envIssue({ HEARTH_OBSERVE_ON_UPDATE: 'sometimes' }),
      'environment variable HEARTH_OBSERVE_ON_UPDATE: option observe_on_update expects a boolean ' +
        '(true/false, yes/no, on/off, 1/0), got "sometimes"',
    );
    assert.equal(
      envIssue({ HEARTH_NUM_ENGINE_WORKERS: '0' }),
      'environment variable HEARTH_NUM_ENGINE_WORKERS: option num_engine_workers expects an integer >= 1, got "0"',
    );
  });

  it('a long value is cut short in the message', () => {
    const message = envIssue({ HEARTH_BIND_PORT: 'x'.repeat(200) });
    assert.equal(
      message,
      `environment variable HEARTH_BIND_PORT: option bind_port expects an integer from 0 to 65535, got "${'x'.repeat(57)}..."`,
    );
  });

  it('overrides of the wrong type', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ action_retry_limit: '3' }, 'option action_retry_limit expects an integer >= 0, got "3"'],
      [{ action_retry_limit: 1.5 }, 'option action_retry_limit expects an integer >= 0, got 1.5'],
      [{ action_retry_limit: -1 }, 'option action_retry_limit expects an integer >= 0, got -1'],
      [{ action_retry_limit: Number.NaN }, 'option action_retry_limit expects an integer >= 0, got NaN'],
      [
        { convergence_engine: 1 },
        'option convergence_engine expects a boolean (true/false, yes/no, on/off, 1/0), got number 1',
      ],
      [{ database: '' }, 'option database expects a non-empty string, got ""'],
      [{ database: null }, 'option database expects a non-empty string, got null'],
      [{ bind_host: ['a'] }, 'option bind_host expects a non-empty string, got a list'],
      [{ bind_host: { a: 1 } }, 'option bind_host expects a non-empty string, got an object'],
      [
        { log_level: 'DEBUG' },
        'option log_level expects one of trace, debug, info, warn, error, got "DEBUG"',
      ],
    ];
    for (const [overrides, detail] of cases) {
      assert.equal(overrideIssue(overrides), `command-line override: ${detail}`);
    }
  });
});

describe('config errors: INI syntax', () => {
  it('a section other than [DEFAULT], whose lines are then skipped', () => {
    const { file, message } = iniIssue(
      '[DEFAULT]\naction_retry_limit = 1\n[keystone_authtoken]\nauth_url = x\n',
    );
    assert.equal(
      message,
      `${file}:3:1: section [keystone_authtoken] is not supported: Hearth reads its options from [DEFAULT] only`,
    );
  });

  it('[database], with a pointer to the database option', () => {
    const { file, message } = iniIssue('[database]\nconnection = mysql://x\n');
    assert.equal(
      message,
      `${file}:1:1: section [database] is not supported: Hearth reads its options from [DEFAULT] only ` +
        '(Heat’s [database] connection is Hearth’s database option)',
    );
  });

  it('options after [DEFAULT] again are read', () => {
    const file = tmp.file('again.conf', '[other]\nx = 1\n[DEFAULT]\naction_retry_limit = 7\n');
    const err = configError({ file, env: {} });
    assert.equal(err.issues.length, 1);
    assert.match(err.issues[0]!.message, /section \[other\]/);
  });

  it('a malformed section header', () => {
    const { file, message } = iniIssue('[DEFAULT\naction_retry_limit = 1\n');
    assert.equal(message, `${file}:1:1: malformed section header "[DEFAULT"`);
  });

  it('a line that is not name = value', () => {
    const { file, message } = iniIssue('[DEFAULT]\naction_retry_limit 3\n');
    assert.equal(message, `${file}:2:1: expected "name = value", got "action_retry_limit 3"`);
  });

  it('a line with no name', () => {
    const { file, message } = iniIssue('[DEFAULT]\n= 3\n');
    assert.equal(message, `${file}:2:1: an option name is missing before "="`);
  });

  it('a continuation line', () => {
    const { file, message } = iniIssue('[DEFAULT]\nbind_host = a\n  b\n');
    assert.equal(message, `${file}:3:1: continuation lines (indented lines) are not supported`);
  });
});

describe('config errors: duplicates', () => {
  it('an option set twice in a YAML file', () => {
    const { file, message } = yamlIssue('action_retry_limit: 1\nlog_level: info\naction_retry_limit: 2\n');
    assert.equal(message, `${file}:3:1: option action_retry_limit is set twice (first at ${file}:1:1)`);
  });

  it('an option set twice in an INI file, across [DEFAULT] sections', () => {
    const { file, message } = iniIssue('[DEFAULT]\nlog_level = info\n[DEFAULT]\nlog_level = debug\n');
    assert.equal(message, `${file}:4:1: option log_level is set twice (first at ${file}:2:1)`);
  });
});

describe('config errors: heartbeat_interval_ms and work_lease_ms', () => {
  it('blames work_lease_ms when only it was set', () => {
    assert.equal(
      envIssue({ HEARTH_WORK_LEASE_MS: '1000' }),
      'environment variable HEARTH_WORK_LEASE_MS: heartbeat_interval_ms must be less than work_lease_ms, ' +
        'or leases expire between heartbeats: heartbeat_interval_ms (1000, default) >= ' +
        'work_lease_ms (1000, environment variable HEARTH_WORK_LEASE_MS)',
    );
  });

  it('blames heartbeat_interval_ms when it was set', () => {
    const file = tmp.file('hb.yaml', 'heartbeat_interval_ms: 40000\nengine_dead_after_ms: 100000\n');
    const err = configError({ file, env: {} });
    assert.equal(err.issues.length, 1);
    assert.equal(err.issues[0]!.option, 'heartbeat_interval_ms');
    assert.equal(
      err.issues[0]!.message,
      `${file}:1:24: heartbeat_interval_ms must be less than work_lease_ms, or leases expire between heartbeats: ` +
        `heartbeat_interval_ms (40000, ${file}:1:24) >= work_lease_ms (30000, default)`,
    );
  });

  it('is not checked while other problems stand', () => {
    const err = configError({ env: { HEARTH_WORK_LEASE_MS: '1', HEARTH_LOG_LEVEL: 'loud' } });
    assert.equal(err.issues.length, 1);
    assert.equal(err.issues[0]!.option, 'log_level');
  });
});

describe('config errors: engine_dead_after_ms and heartbeat_interval_ms', () => {
  it('blames engine_dead_after_ms when it was set, naming both values and their sources', () => {
    assert.equal(
      envIssue({ HEARTH_ENGINE_DEAD_AFTER_MS: '2000' }),
      'environment variable HEARTH_ENGINE_DEAD_AFTER_MS: engine_dead_after_ms must be more than twice ' +
        'heartbeat_interval_ms, or one late heartbeat makes a live engine look dead: ' +
        'engine_dead_after_ms (2000, environment variable HEARTH_ENGINE_DEAD_AFTER_MS) <= ' +
        '2 * heartbeat_interval_ms (1000, default)',
    );
  });

  it('blames heartbeat_interval_ms when only it was set (the default 5000 is then too short)', () => {
    const err = configError({ env: {}, overrides: { heartbeat_interval_ms: 2500 } });
    assert.equal(err.issues.length, 1);
    assert.equal(err.issues[0]!.option, 'heartbeat_interval_ms');
    assert.match(
      err.issues[0]!.message,
      /^command-line override: engine_dead_after_ms must be more than twice/,
    );
    assert.match(
      err.issues[0]!.message,
      /engine_dead_after_ms \(5000, default\) <= 2 \* heartbeat_interval_ms \(2500,/,
    );
  });

  it('accepts just over twice, refuses exactly twice', () => {
    assert.doesNotThrow(() => loadConfig({ env: {}, overrides: { engine_dead_after_ms: 2001 } }));
    const err = configError({ env: {}, overrides: { engine_dead_after_ms: 2000 } });
    assert.equal(err.issues[0]!.option, 'engine_dead_after_ms');
  });

  it('reports both broken pairs at once', () => {
    const err = configError({ env: { HEARTH_WORK_LEASE_MS: '800', HEARTH_ENGINE_DEAD_AFTER_MS: '1500' } });
    assert.deepEqual(
      err.issues.map((i) => i.option),
      ['work_lease_ms', 'engine_dead_after_ms'],
    );
  });
});

describe('ConfigError', () => {
  it('lists every problem: the file’s in line order, then the environment’s, then the overrides’', () => {
    const file = tmp.file(
      'many.conf',
      '[DEFAULT]\nmax_template_size = big\n[nova]\nx = 1\n[DEFAULT]\nbogus = 1\n',
    );
    const err = configError({
      file,
      env: { HEARTH_LOG_LEVEL: 'loud', HEARTH_BIND_PORT: '-5' },
      overrides: { periodic_interval: 0 },
    });
    assert.ok(isConfigError(err));
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'ConfigError');
    assert.equal(
      err.message,
      [
        'invalid configuration (6 problems):',
        `  ${file}:2:21: option max_template_size expects an integer >= 1, got "big"`,
        `  ${file}:3:1: section [nova] is not supported: Hearth reads its options from [DEFAULT] only`,
        `  ${file}:6:1: unknown option "bogus"`,
        '  environment variable HEARTH_BIND_PORT: option bind_port expects an integer from 0 to 65535, got "-5"',
        '  environment variable HEARTH_LOG_LEVEL: option log_level expects one of trace, debug, info, warn, error, got "loud"',
        '  command-line override: option periodic_interval expects an integer >= 1, got 0',
      ].join('\n'),
    );
    assert.deepEqual(
      err.issues.map((i) => i.option),
      ['max_template_size', undefined, 'bogus', 'bind_port', 'log_level', 'periodic_interval'],
    );
  });

  it('is a plain ConfigError built from issues', () => {
    const err = new ConfigError([]);
    assert.equal(err.issues.length, 0);
    assert.ok(!isConfigError(new Error('x')));
  });

  it('describes every kind of source', () => {
    assert.equal(describeSource({ kind: 'default' }), 'default');
    assert.equal(describeSource({ kind: 'file', file: '/h.yaml' }), '/h.yaml');
    assert.equal(describeSource({ kind: 'file', file: '/h.yaml', line: 3 }), '/h.yaml:3');
    assert.equal(describeSource({ kind: 'file', file: '/h.yaml', line: 3, column: 7 }), '/h.yaml:3:7');
    assert.equal(describeSource({ kind: 'env', variable: 'HEARTH_X' }), 'environment variable HEARTH_X');
    assert.equal(describeSource({ kind: 'override' }), 'command-line override');
  });
});
