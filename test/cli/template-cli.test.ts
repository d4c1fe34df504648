import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { hearth } from './helpers.js';

function workdir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const TEMPLATE = `heat_template_version: 2018-08-31
description: CLI test
parameters:
  flavor:
    type: string
    label: Flavor
    description: the flavor
    default: m1.small
    constraints:
      - allowed_values: [m1.small, m1.large]
  count:
    type: number
    constraints:
      - range: {min: 1, max: 5}
        description: between one and five
  secret:
    type: string
    hidden: true
    default: hunter2
parameter_groups:
  - label: sizing
    parameters: [flavor, count]
outputs:
  joined:
    value: {list_join: [',', [{get_param: flavor}, {str_replace: {template: n, params: {n: {get_param: count}}}}]]}
`;

describe('hearth template validate', () => {
  it('prints what Heat validate prints, as json', () => {
    const dir = workdir({ 't.yaml': TEMPLATE });
    const r = hearth(
      [
        'template',
        'validate',
        '-t',
        't.yaml',
        '--parameter',
        'count=3',
        '--parameter',
        'secret=Given7',
        '-f',
        'json',
      ],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.Description, 'CLI test');
    assert.deepEqual(out.Parameters.flavor, {
      Type: 'String',
      Description: 'the flavor',
      Default: 'm1.small',
      NoEcho: 'false',
      Label: 'Flavor',
      AllowedValues: ['m1.small', 'm1.large'],
    });
    // As Heat's user_value: a parameter left to its default shows no Value.
    assert.equal(out.Parameters.flavor.Value, undefined);
    assert.equal(out.Parameters.count.Type, 'Number');
    assert.equal(out.Parameters.count.Value, 3);
    assert.equal(out.Parameters.count.MinValue, 1);
    assert.equal(out.Parameters.count.ConstraintDescription, 'between one and five');
    assert.equal(out.Parameters.secret.NoEcho, 'true');
    // The template's own default is shown as written (as Heat); a value given is never shown.
    assert.equal(out.Parameters.secret.Default, 'hunter2');
    assert.equal(out.Parameters.secret.Value, '******');
    assert.ok(!r.stdout.includes('Given7'), 'a hidden value never appears');
    assert.deepEqual(out.ParameterGroups, [{ label: 'sizing', parameters: ['flavor', 'count'] }]);
  });

  it('is non-strict by default and strict on request', () => {
    const dir = workdir({ 't.yaml': TEMPLATE });
    assert.equal(hearth(['template', 'validate', '-t', 't.yaml'], dir).code, 0);
    const strict = hearth(['template', 'validate', '-t', 't.yaml', '--strict'], dir);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /count/);
  });

  it('reports a constraint failure with the constraint description', () => {
    const dir = workdir({ 't.yaml': TEMPLATE });
    const r = hearth(['template', 'validate', '-t', 't.yaml', '--parameter', 'count=9'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /between one and five/);
  });

  it('takes parameters from environment files merged in order', () => {
    const dir = workdir({
      't.yaml': TEMPLATE,
      'a.yaml': 'parameters:\n  count: 2\n  flavor: m1.large\n',
      'b.yaml': 'parameters:\n  count: 4\n',
    });
    const r = hearth(
      ['template', 'validate', '-t', 't.yaml', '-e', 'a.yaml', '-e', 'b.yaml', '-f', 'json'],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.Parameters.count.Value, 4);
    assert.equal(out.Parameters.flavor.Value, 'm1.large');
  });

  it('names file, line, column and path on errors and exits non-zero', () => {
    const dir = workdir({
      'bad.yaml': 'heat_template_version: 2015-04-30\noutputs:\n  o:\n    value: {str_split: [",", "a,b"]}\n',
    });
    const r = hearth(['template', 'validate', '-t', 'bad.yaml'], dir);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^Error: bad\.yaml:4:5: outputs\.o\.value: function "str_split" is not available in heat_template_version 2015-04-30/,
    );
  });

  it('reports YAML syntax errors with a position', () => {
    const dir = workdir({ 'bad.yaml': 'heat_template_version: 2015-04-30\nresources: [\n' });
    const r = hearth(['template', 'validate', '-t', 'bad.yaml'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Error: bad\.yaml:\d+:\d+: invalid YAML/);
  });

  it('reports a missing file without a stack trace', () => {
    const r = hearth(['template', 'validate', '-t', '/nonexistent/t.yaml']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^Error: cannot read "\/nonexistent\/t\.yaml"/);
    assert.ok(!r.stderr.includes('    at '), 'no stack trace');
  });

  it('exits 2 on bad usage', () => {
    assert.equal(hearth(['template', 'validate']).code, 2);
  });
});

describe('hearth template graph', () => {
  const files = {
    't.yaml': `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net}
  subnet: {type: OS::Neutron::Subnet, properties: {network: {get_resource: net}, cidr: 10.0.0.0/24}}
  server:
    type: OS::Nova::Server
    properties: {image: cirros, flavor: m1.tiny, networks: [{subnet: {get_resource: subnet}}]}
`,
  };

  it('prints the dependency graph as json', () => {
    const r = hearth(['template', 'graph', '-t', 't.yaml', '-f', 'json'], workdir(files));
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.nodes, ['net', 'subnet', 'server']);
    assert.deepEqual(out.edges, [
      { from: 'subnet', to: 'net' },
      { from: 'server', to: 'subnet' },
    ]);
    assert.equal(out.types.server, 'OS::Nova::Server');
  });

  it('names a mistyped type with a suggestion, at the path as given (absolute outside the working directory)', () => {
    const dir = workdir({
      'x.yaml': 'heat_template_version: 2018-08-31\nresources:\n  s:\n    type: OS::Nova::Sever\n',
    });
    const r = hearth(['template', 'validate', '-t', join(dir, 'x.yaml')]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `Error: The Resource Type (OS::Nova::Sever) could not be found. (${join(dir, 'x.yaml')}:4:5: resources.s.type; did you mean OS::Nova::Server?)\n`,
    );
  });

  it('prints the dependency graph as dot', () => {
    const r = hearth(['template', 'graph', '-t', 't.yaml'], workdir(files));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^digraph/);
    assert.match(r.stdout, /"server" -> "subnet"/);
    // One backslash: DOT's line break between the name and the type (a doubled one draws "\n").
    assert.ok(r.stdout.includes('"server" [label="server\\nOS::Nova::Server"]'), r.stdout);
  });

  it('stops quietly when its reader closes the pipe, as a Unix tool does', () => {
    const resources = Array.from({ length: 20_000 }, (_, i) => `  r${i}: {type: OS::Heat::None}`).join('\n');
    const dir = workdir({ 'big.yaml': `heat_template_version: 2018-08-31\nresources:\n${resources}\n` });
    const command = [process.execPath, ...hearthNodeArgs(), 'template', 'graph', '-t', 'big.yaml']
      .map((word) => `'${word}'`)
      .join(' ');
    const r = spawnSync('bash', ['-c', `${command} 2>err.txt | head -1; echo "status=\${PIPESTATUS[0]}"`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.match(r.stdout, /^digraph "stack" \{\nstatus=141\n$/, r.stdout);
    assert.equal(readFileSync(join(dir, 'err.txt'), 'utf8'), '', 'no EPIPE trace');
  });
});

describe('hearth template functions', () => {
  it('lists exactly the functions of a version', () => {
    const r = hearth(['template', 'functions', '--template-version', '2015-04-30', '-f', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const names = JSON.parse(r.stdout).template_functions.map((f: { functions: string }) => f.functions);
    assert.ok(names.includes('repeat') && names.includes('Fn::Select'));
    assert.ok(!names.includes('str_split'));
  });

  it('accepts aliases and lists condition functions on request', () => {
    const r = hearth([
      'template',
      'functions',
      '--template-version',
      'pike',
      '--with-conditions',
      '-f',
      'json',
    ]);
    const names = JSON.parse(r.stdout).template_functions.map((f: { functions: string }) => f.functions);
    assert.ok(names.includes('equals') && names.includes('make_url'));
  });

  it('rejects an unknown version', () => {
    const r = hearth(['template', 'functions', '--template-version', '2099-01-01']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown template version "2099-01-01"/);
    assert.match(
      r.stderr,
      /AWSTemplateFormatVersion\.2010-09-09, HeatTemplateFormatVersion\.2012-12-12, 2013-05-23/,
    );
  });

  it('lists a CloudFormation-format version’s functions by Heat’s name, each once', () => {
    const r = hearth([
      'template',
      'functions',
      '--template-version',
      'AWSTemplateFormatVersion.2010-09-09',
      '--with-conditions',
      '-f',
      'json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const names = JSON.parse(r.stdout).template_functions.map((f: { functions: string }) => f.functions);
    assert.deepEqual(names.slice(-5), ['Fn::If', 'Fn::Equals', 'Fn::Not', 'Fn::And', 'Fn::Or']);
    assert.equal(names.filter((n: string) => n === 'Ref' || n === 'Fn::FindInMap').length, 2);
    assert.equal(names.length, 16);
  });
});
