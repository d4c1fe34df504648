import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TemplateError } from '../../src/template/errors.js';
import { cronExpressionError } from '../../src/template/parameters/cron.js';
import {
  type Constraint,
  checkConstraints,
  customConstraintError,
  isKnownCustomConstraint,
  knownCustomConstraints,
  matchesWhole,
  type ParameterType,
  registerCustomConstraint,
} from '../../src/template/parameters/index.js';
import { expirationValidator, parseIsoTime } from '../../src/template/parameters/time-constraints.js';
import type { Json } from '../../src/util/json.js';

const PATH = ['parameters', 'p'];

function check(type: ParameterType, constraints: Constraint[], value: Json) {
  checkConstraints(
    { name: 'p', type, hasDefault: false, hidden: false, immutable: false, constraints },
    value,
    PATH,
  );
}

function fails(type: ParameterType, constraints: Constraint[], value: Json, message: string | RegExp) {
  assert.throws(
    () => check(type, constraints, value),
    (err: unknown) => {
      assert.ok(err instanceof TemplateError);
      assert.equal(err.kind, 'parameter');
      assert.deepEqual(err.path, PATH);
      if (typeof message === 'string') assert.equal(err.detail, message);
      else assert.match(err.detail, message);
      return true;
    },
  );
}

describe('checkConstraints: each kind, generated message and description', () => {
  test('length counts characters, items or keys', () => {
    const c: Constraint[] = [{ kind: 'length', min: 1, max: 3 }];
    check('string', c, 'abc');
    check('string', c, '😀😀😀');
    check('comma_delimited_list', c, ['a', 'b']);
    check('json', c, { a: 1 });
    fails('string', c, 'abcd', 'length (4) is out of range (min: 1, max: 3)');
    fails('comma_delimited_list', c, [], 'length (0) is out of range (min: 1, max: 3)');
    fails('json', [{ kind: 'length', max: 1 }], [1, 2], 'length (2) is out of range (min: None, max: 1)');
    fails(
      'string',
      [{ kind: 'length', min: 8, description: 'at least 8 characters' }],
      'short',
      'at least 8 characters',
    );
  });

  test('range', () => {
    const c: Constraint[] = [{ kind: 'range', min: 1, max: 10 }];
    check('number', c, 1);
    check('number', c, 10);
    fails('number', c, 22, '22 is out of range (min: 1, max: 10)');
    fails('number', [{ kind: 'range', min: 0.5 }], 0.25, '0.25 is out of range (min: 0.5, max: None)');
    fails('number', [{ kind: 'range', max: 4, description: 'too many' }], 5, 'too many');
  });

  test('modulo uses Python semantics for negative values', () => {
    const odd: Constraint[] = [{ kind: 'modulo', step: 2, offset: 1 }];
    check('number', odd, 3);
    check('number', odd, -1);
    fails('number', odd, 4, '4 is not a multiple of 2 with an offset of 1');
    fails('number', odd, 2.5, '2.5 is not a multiple of 2 with an offset of 1');
    check('number', [{ kind: 'modulo', step: -3, offset: -1 }], 5);
    fails('number', [{ kind: 'modulo', step: 2, offset: 0, description: 'must be even' }], 3, 'must be even');
  });

  test('allowed_values converts to the parameter type', () => {
    const ab: Constraint[] = [{ kind: 'allowed_values', values: ['a', 'b'] }];
    check('string', ab, 'a');
    fails('string', ab, 'x', '"x" is not an allowed value ["a", "b"]');
    check('string', [{ kind: 'allowed_values', values: [1, 2] }], '1');
    check('number', [{ kind: 'allowed_values', values: ['1', 2.5] }], 1);
    check('number', [{ kind: 'allowed_values', values: [1, 2.5] }], 2.5);
    fails('number', [{ kind: 'allowed_values', values: [1, 2] }], 3, '3 is not an allowed value [1, 2]');
    check('boolean', [{ kind: 'allowed_values', values: ['yes'] }], true);
    fails(
      'boolean',
      [{ kind: 'allowed_values', values: [true] }],
      false,
      'false is not an allowed value [true]',
    );
    fails('string', [{ kind: 'allowed_values', values: ['a'], description: 'pick a' }], 'b', 'pick a');
  });

  test('allowed_values on a list requires every item to be allowed, compared as written', () => {
    const c: Constraint[] = [{ kind: 'allowed_values', values: ['a', 'b', 1] }];
    check('comma_delimited_list', c, ['a', 'b', 'a']);
    check('comma_delimited_list', c, []);
    fails('comma_delimited_list', c, ['a', 'c'], '["a", "c"] is not an allowed value ["a", "b", 1]');
    fails('comma_delimited_list', c, ['1'], /is not an allowed value/);
  });

  test('allowed_pattern must match the whole value', () => {
    const digits: Constraint[] = [{ kind: 'allowed_pattern', pattern: '[0-9]+' }];
    check('string', digits, '123');
    fails('string', digits, 'abc', '"abc" does not match pattern "[0-9]+"');
    fails('string', digits, '123abc', '"123abc" does not match pattern "[0-9]+"');
    fails('string', digits, '', '"" does not match pattern "[0-9]+"');
    fails(
      'string',
      [{ kind: 'allowed_pattern', pattern: '[a-z]+', description: 'lower case only' }],
      'A',
      'lower case only',
    );
  });

  test('custom_constraint', () => {
    const ip: Constraint[] = [{ kind: 'custom_constraint', name: 'ip_addr' }];
    check('string', ip, '10.0.0.1');
    fails('string', ip, '10.0.0', "Error validating value '10.0.0': Invalid IP address");
    fails(
      'string',
      [{ kind: 'custom_constraint', name: 'ip_addr', description: 'an IP please' }],
      'x',
      'an IP please',
    );
    fails(
      'string',
      [{ kind: 'custom_constraint', name: 'iso_8601' }],
      'soon',
      "Error validating value 'soon'",
    );
  });

  test('constraints are checked in order and the first failure is reported', () => {
    const c: Constraint[] = [
      { kind: 'length', min: 2, description: 'first' },
      { kind: 'allowed_pattern', pattern: 'b+', description: 'second' },
    ];
    fails('string', c, 'a', 'first');
    fails('string', c, 'aa', 'second');
  });

  test('skipCustom leaves custom constraints out', () => {
    const schema = {
      name: 'p',
      type: 'string' as const,
      hasDefault: false,
      hidden: false,
      immutable: false,
      constraints: [{ kind: 'custom_constraint' as const, name: 'ip_addr' }],
    };
    checkConstraints(schema, 'nope', PATH, { skipCustom: true });
    assert.throws(() => checkConstraints(schema, 'nope', PATH));
  });
});

describe('Python patterns', () => {
  test('Heat matches at the start and requires the match to reach the end', () => {
    assert.equal(matchesWhole('[a-z]+', 'abc'), true);
    assert.equal(matchesWhole('[a-z]+', 'abc1'), false);
    assert.equal(matchesWhole('b', 'ab'), false);
    // re.match picks the first alternative, which does not reach the end: Heat rejects this too.
    assert.equal(matchesWhole('a|ab', 'ab'), false);
    assert.equal(matchesWhole('ab|a', 'ab'), true);
  });

  test('Python-only syntax is translated', () => {
    assert.equal(matchesWhole('(?P<x>a)(?P=x)', 'aa'), true);
    assert.equal(matchesWhole('(?P<x>a)(?P=x)', 'ab'), false);
    assert.equal(matchesWhole('\\Aab\\Z', 'ab'), true);
    assert.equal(matchesWhole('(?i)abc', 'ABC'), true);
    assert.equal(matchesWhole('x{,2}', 'xx'), true);
    assert.equal(matchesWhole('x{,2}', 'xxx'), false);
    assert.equal(matchesWhole('[]a]+', ']a'), true);
    assert.equal(matchesWhole('ab$', 'ab'), true);
    assert.equal(matchesWhole('[$]', '$'), true);
  });
});

describe('custom constraint registry', () => {
  test('knows exactly the names of Heat’s heat.constraints entry points', () => {
    const names = knownCustomConstraints();
    assert.equal(names.length, 70);
    for (const n of ['ip_addr', 'net_cidr', 'ip_or_cidr', 'mac_addr', 'iso_8601', 'timezone', 'dns_name']) {
      assert.ok(names.includes(n), n);
    }
    for (const n of [
      'nova.flavor',
      'glance.image',
      'neutron.network',
      'test_constr',
      'octavia.pool',
      'ironic.node',
    ]) {
      assert.ok(names.includes(n), n);
    }
    assert.deepEqual(names, [...names].sort());
    assert.equal(isKnownCustomConstraint('nova.flavour'), false);
  });

  test('cloud-backed constraints pass offline until a validator is registered', () => {
    assert.equal(customConstraintError('nova.flavor', 'no-such-flavor'), undefined);
    const restore = registerCustomConstraint('nova.flavor', (v) =>
      v === 'm1.small' ? undefined : 'Flavor not found',
    );
    try {
      assert.equal(customConstraintError('nova.flavor', 'm1.small'), undefined);
      assert.equal(customConstraintError('nova.flavor', 'x'), "Error validating value 'x': Flavor not found");
    } finally {
      restore();
    }
    assert.equal(customConstraintError('nova.flavor', 'x'), undefined);
  });

  test('a plugin may add a new name, and remove it again', () => {
    const restore = registerCustomConstraint('acme.widget', () => '');
    assert.ok(isKnownCustomConstraint('acme.widget'));
    assert.equal(customConstraintError('acme.widget', 'w'), "Error validating value 'w'");
    restore();
    assert.equal(isKnownCustomConstraint('acme.widget'), false);
    assert.match(customConstraintError('acme.widget', 'w') ?? '', /constraint not found/);
  });
});

describe('offline custom constraints', () => {
  const ok = (name: string, value: Json) =>
    assert.equal(customConstraintError(name, value), undefined, `${name} ${value}`);
  const bad = (name: string, value: Json) =>
    assert.notEqual(customConstraintError(name, value), undefined, `${name} ${value}`);

  test('ip_addr (Heat’s own test cases)', () => {
    for (const v of [
      '1.1.1.1',
      '1.0.1.1',
      '255.255.255.255',
      '2002:2002::20c:29ff:fe7d:811a',
      '::1',
      '2002::',
    ])
      ok('ip_addr', v);
    for (const v of [
      '1.1',
      '1.1.',
      '1.1.1',
      '1.1.1.256',
      '1.a.1.1',
      '01.1.1.1',
      '2002::2001::1',
      '2002::g',
      '20c:29ff:fe7d:811a',
    ]) {
      bad('ip_addr', v);
    }
    bad('ip_addr', 5);
    bad('ip_addr', ' 1.1.1.1');
  });

  test('net_cidr and ip_or_cidr', () => {
    for (const v of ['10.0.0.0/24', '6000::/64', '10.0.0.1/32', '0.0.0.0/0']) ok('net_cidr', v);
    for (const v of [
      '::/129',
      'Invalid cidr',
      '300.0.0.0/24',
      '10.0.0.0/33',
      '10.0.0/24',
      '10.0/24',
      '8.8.8.0/ 24',
      '8.8.8.8',
      '10.0.0.0/08',
    ]) {
      bad('net_cidr', v);
    }
    assert.match(customConstraintError('net_cidr', '8.8.8.8') ?? '', /'8.8.8.8\/32' is recommended/);
    for (const v of ['10.0.0.0/24', '1.1.1.1', '::1', '6000::/64']) ok('ip_or_cidr', v);
    for (const v of ['10.0.0', '10.0/24', '2002::g', '1.1.1.256']) bad('ip_or_cidr', v);
  });

  test('mac_addr', () => {
    for (const v of [
      '01:23:45:67:89:ab',
      '01-23-45-67-89-AB',
      '0123.4567.89ab',
      '0123456789ab',
      '012345-6789ab',
    ])
      ok('mac_addr', v);
    for (const v of ['8.8.8.8', '0a-1b-3c-4d-5e-6f-1f', '0a-1b-3c-4d-5e-xx', '']) bad('mac_addr', v);
  });

  test('dns_name, dns_domain, rel_dns_name', () => {
    ok('dns_name', 'openstack.org.');
    ok('dns_name', 'my-host');
    ok('dns_name', '');
    assert.equal(
      customConstraintError('dns_name', '-host.org'),
      "Error validating value '-host.org': '-host.org' not in valid format. Reason: Name '-host' must not start or end with a hyphen.",
    );
    bad('dns_name', 'a..b');
    bad('dns_name', 'Upper.org');
    bad('dns_name', 'host.123.');
    bad('dns_name', `${'a'.repeat(64)}.org`);
    ok('dns_domain', 'openstack.org.');
    assert.match(customConstraintError('dns_domain', 'openstack.org') ?? '', /must end with '\.'/);
    ok('rel_dns_name', 'myvm.openstack');
    assert.match(customConstraintError('rel_dns_name', 'myvm.openstack.') ?? '', /is a FQDN/);
    bad('rel_dns_name', 'a'.repeat(253));
  });

  test('iso_8601 and expiration', () => {
    for (const v of [
      '2050-01-01',
      '2050-01-01T23:59:59',
      '2050-01-01T23:59:59+00:00',
      '2050-01-01T23:59:59+0000',
      '2050',
      '20500101',
      '2050-01-01 10:00Z',
    ]) {
      ok('iso_8601', v);
    }
    for (const v of ['Fri 13th, 2050', '2050-13-01', '2050-02-30', '2050-01-01T24:00', '205001', ''])
      bad('iso_8601', v);
    assert.equal(parseIsoTime('2050-01-01T01:00:00+01:00'), Date.UTC(2050, 0, 1));
    assert.equal(parseIsoTime('2020-01-01T00:00:00.5Z'), Date.UTC(2020, 0, 1, 0, 0, 0, 500));
    ok('expiration', '2050-01-01');
    ok('expiration', '');
    assert.match(customConstraintError('expiration', '2000-01-01') ?? '', /Expiration time is out of date/);
    assert.match(customConstraintError('expiration', 'later') ?? '', /Unable to parse date string 'later'/);
    const at2020 = expirationValidator(() => Date.UTC(2020, 0, 1));
    assert.equal(at2020('2020-01-02'), undefined);
    assert.notEqual(at2020('2019-12-31T23:59:59Z'), undefined);
  });

  test('timezone', () => {
    for (const v of ['Asia/Taipei', 'UTC', 'America/New_York', 'US/Eastern', 'Etc/GMT+5', ''])
      ok('timezone', v);
    for (const v of ['Foo/Bar', 'america/new_york', 'utc', '+01:00', 5]) bad('timezone', v as Json);
  });

  test('cron_expression', () => {
    for (const v of [
      '0 23 * * *',
      '*/15 0-6,22 1 jan-mar mon#2',
      '0 0 L * ?',
      '0 0 * * 5L',
      '@daily',
      '0 0 * * 7',
      '0 0 1 1 * 30',
    ]) {
      ok('cron_expression', v);
    }
    ok('cron_expression', '');
    assert.match(cronExpressionError('0 24 * * *') ?? '', /hour 24 is out of range 0-23/);
    assert.match(cronExpressionError('* * *') ?? '', /Exactly 5, 6 or 7 columns/);
    for (const v of [
      '61 * * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 8',
      '*/0 * * * *',
      '5-1 * * * *',
      'x * * * *',
    ]) {
      bad('cron_expression', v);
    }
  });

  test('json_string', () => {
    ok('json_string', '{"key": "value"}');
    ok('json_string', '');
    assert.match(customConstraintError('json_string', "{'key': 'value'}") ?? '', /JSON string .* is invalid/);
  });
});
