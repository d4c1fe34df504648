import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseOptions } from '../../src/sandbox/cfntools/options.js';
import { cfnEndpoint, parseCredentials } from '../../src/sandbox/cfntools/remote.js';
import { ScriptRun, type ToolName } from '../../src/sandbox/cfntools/script.js';
import { CORPUS } from '../support/shared.js';

/** Runs a script against recording tools: each call, and the statuses the tools are told to give. */
async function interpret(script: string, statuses: Partial<Record<ToolName, number>> = {}) {
  const calls: string[] = [];
  const others: string[] = [];
  const exit = await new ScriptRun({
    tool: async (name, args) => {
      calls.push([name, ...args].join(' | '));
      return statuses[name] ?? 0;
    },
    other: async (words) => {
      others.push(words[0]!);
      return 0;
    },
    alive: () => true,
  }).run(script);
  return { calls, others, exit };
}

const ERROR_EXIT = `#!/bin/bash -v
# Helper function
function error_exit
{
  /opt/aws/bin/cfn-signal -e 1 -r "$1" 'http://h/wc?sig=1'
  exit 1
}
`;

describe('sandbox heat-cfntools: the UserData script interpreted', () => {
  it('runs cfn-init then the success signal, other commands taken as done', async () => {
    const r = await interpret(
      `${ERROR_EXIT}/opt/aws/bin/cfn-init -s mystack -r WebServer \\\n    --region nova || error_exit 'Failed to run cfn-init'\nyum -y install httpd\n/opt/aws/bin/cfn-signal -e 0 -r "Setup complete" 'http://h/wc?sig=1'\n`,
    );
    assert.deepEqual(r.calls, [
      'cfn-init | -s | mystack | -r | WebServer | --region | nova',
      'cfn-signal | -e | 0 | -r | Setup complete | http://h/wc?sig=1',
    ]);
    assert.deepEqual(r.others, ['yum']);
    assert.equal(r.exit, 0);
  });

  it('a failed cfn-init takes the || error_exit branch: FAILURE with the reason, and the script ends', async () => {
    const r = await interpret(
      `${ERROR_EXIT}/opt/aws/bin/cfn-init -s s -r R || error_exit 'Failed to run cfn-init'\n/opt/aws/bin/cfn-signal -e 0 'http://h/wc'\n`,
      { 'cfn-init': 1 },
    );
    assert.deepEqual(r.calls, [
      'cfn-init | -s | s | -r | R',
      'cfn-signal | -e | 1 | -r | Failed to run cfn-init | http://h/wc?sig=1',
    ]);
    assert.equal(r.exit, 1);
  });

  it('`$?` right after cfn-init is its status; here-documents and comments are never commands', async () => {
    const r = await interpret(
      `cat << EOF | mysql -u root\n/opt/aws/bin/cfn-signal -e 9 http://not/a/call\nEOF\n# /opt/aws/bin/cfn-signal -e 8 x\n/opt/aws/bin/cfn-init -s s -r R\n/opt/aws/bin/cfn-signal -e $? 'http://h/wc'\n`,
      { 'cfn-init': 1 },
    );
    assert.deepEqual(r.calls, ['cfn-init | -s | s | -r | R', 'cfn-signal | -e | 1 | http://h/wc']);
    assert.deepEqual(r.others, ['cat', 'mysql']);
  });

  it('variables, `&&`, `name()` functions with return', async () => {
    const r = await interpret(
      `URL="http://h/x"\nsig() { cfn-signal -e "$1" -r "$2" "$URL"; return 3; }\nfalse && cfn-init\nsig 0 "all ok"\necho $? > /tmp/x\n`,
    );
    assert.deepEqual(r.calls, ['cfn-signal | -e | 0 | -r | all ok | http://h/x']);
    assert.deepEqual(r.others, ['echo']);
  });

  it('reads every cfn-init and cfn-signal of the corpus scripts in order', async () => {
    const template = JSON.parse(
      readFileSync(join(CORPUS, 'cfn/F17/PuppetMaster_Single_Instance.template'), 'utf8'),
    ) as { Resources: Record<string, { Properties?: { UserData?: unknown } }> };
    // The UserData with its references as placeholders.
    const parts = (
      (template.Resources.PuppetMasterInstance!.Properties!.UserData as Record<string, unknown>)[
        'Fn::Base64'
      ] as { 'Fn::Join': [string, unknown[]] }
    )['Fn::Join'][1];
    const script = parts.map((p) => (typeof p === 'string' ? p : 'REF')).join('');
    const r = await interpret(script, { 'cfn-init': 1 });
    assert.deepEqual(r.calls, [
      'cfn-init | --region | REF | -s | REF | -r | PuppetMasterInstance | --access-key | REF | --secret-key | REF',
      'cfn-signal | -e | 1 | REF',
    ]);
  });
});

describe('sandbox heat-cfntools: options and boot files', () => {
  it('parses as argparse does: attached values, `=`, flags, the positional URL', () => {
    assert.deepEqual(parseOptions('cfn-signal', ['-e0', '--reason=done', '-k', 'http://u']), {
      ok: true,
      values: { exitCode: '0', reason: 'done', insecure: 'true', url: 'http://u' },
    });
    const missing = parseOptions('cfn-signal', ['-e', '0']);
    assert.ok(!missing.ok && /required: url/.test(missing.error));
    const unknown = parseOptions('cfn-init', ['-s', 'x', '--bogus']);
    assert.ok(!unknown.ok && /unrecognized arguments: --bogus/.test(unknown.error));
    const noValue = parseOptions('cfn-init', ['-r']);
    assert.ok(!noValue.ok && /expected one argument/.test(noValue.error));
  });

  it('finds the CFN API as heat-cfntools do, and reads a credential file', () => {
    assert.equal(
      cfnEndpoint('http://10.0.0.5:8000/v1/\n', '[Boto]\ncfn_region_endpoint = 127.0.0.1\n'),
      'http://127.0.0.1:8000/v1/',
    );
    assert.equal(cfnEndpoint('http://localhost:4321/v1/', undefined), 'http://localhost:4321/v1/');
    assert.equal(cfnEndpoint(undefined, undefined), undefined);
    assert.deepEqual(parseCredentials('AWSAccessKeyId=hiak_1\nAWSSecretKey = s3cr3t\n'), {
      accessKey: 'hiak_1',
      secretKey: 's3cr3t',
    });
  });
});
