import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workdir } from './helpers.js';

// The CLI reads the same inputs the API does (embedded mode validates templates in-process): a
// hostile template or option is a clear error and a non-zero exit, never a stack trace.

const DEEP = 10_000;

function clearError(r: { code: number; stderr: string }, pattern: RegExp): void {
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, pattern);
  assert.ok(!r.stderr.includes('    at '), `no stack trace:\n${r.stderr.slice(0, 2000)}`);
  assert.ok(!/RangeError|Maximum call stack/.test(r.stderr), r.stderr.slice(0, 2000));
}

describe('hearth: input limits', () => {
  it('template validate refuses templates nested 10,000 deep, JSON or YAML, naming the file', () => {
    const { run } = workdir({
      'deep.json': `{"heat_template_version":"2018-08-31","outputs":{"o":{"value":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}}}`,
      'deep.yaml': `heat_template_version: 2018-08-31\noutputs:\n  o:\n    value: ${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`,
      'block.yaml': `heat_template_version: 2018-08-31\noutputs:\n  o:\n    value:\n      ${'- '.repeat(DEEP)}x\n`,
    });
    for (const file of ['deep.json', 'deep.yaml', 'block.yaml']) {
      const r = run(['template', 'validate', '-t', file]);
      clearError(
        r,
        new RegExp(
          `^Error: ${file.replace('.', '\\.')}(:\\d+:\\d+)?: document is nested deeper than 64 levels`,
        ),
      );
    }
  });

  it('template validate refuses a JSON parameter nested 10,000 deep and a resource name with NUL', () => {
    const { run } = workdir({
      'p.yaml': 'heat_template_version: 2018-08-31\nparameters:\n  p: {type: json}\n',
      'nul.yaml': 'heat_template_version: 2018-08-31\nresources:\n  "a\\0b": {type: OS::Heat::None}\n',
    });
    const deep = run([
      'template',
      'validate',
      '-t',
      'p.yaml',
      '--parameter',
      `p=${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
    ]);
    clearError(deep, /parameters\.p: .*nested deeper than 64 levels/);
    const nul = run(['template', 'validate', '-t', 'nul.yaml']);
    clearError(
      nul,
      /^Error: nul\.yaml:3:3: resources\["a\\u0000b"\]: the resource name "a\\u0000b" contains the unprintable character U\+0000/,
    );
  });

  it('stack create refuses a --timeout beyond Heat’s limit or not a whole number', () => {
    const { run } = workdir({ 't.yaml': 'heat_template_version: 2018-08-31\n' });
    for (const timeout of ['1000000000000', '9223372036854775808', '-1', '1.5', 'soon']) {
      const r = run(['stack', 'create', 'x', '-t', 't.yaml', '--timeout', timeout]);
      clearError(r, /--timeout/);
    }
    const listed = run(['stack', 'list', '-f', 'json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), [], 'nothing was created');
  });
});
