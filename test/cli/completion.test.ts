import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { allCommands, completionSpec } from '../../src/cli/completion/spec.js';
import { hearthNodeArgs } from '../support/hearth-command.js';
import { hearth, workdir } from './helpers.js';

/*
 * `hearth completion bash|zsh|fish`: the scripts the real command prints, checked by the real
 * shells where installed, and bash's run as bash runs it on a TAB.
 */

function installed(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

const dir = mkdtempSync(join(tmpdir(), 'hearth-completion-'));
const scripts: Record<string, string> = {};

/** An executable `hearth` (the test's way of running it) for the scripts to call, as a user's is. */
const command = join(dir, 'hearth');

before(() => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const printed = hearth(['completion', shell]);
    assert.equal(printed.code, 0, printed.stderr);
    scripts[shell] = join(dir, `hearth.${shell}`);
    writeFileSync(scripts[shell], printed.stdout);
  }
  const node = [process.execPath, ...hearthNodeArgs()].map(shellWord).join(' ');
  writeFileSync(command, `#!/bin/sh\nexec ${node} "$@"\n`);
  chmodSync(command, 0o755);
});

/**
 * What bash's completion function offers for `words` (the last one being completed), as bash
 * calls it on a TAB: COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set.
 */
function bashOffers(words: string[], env: Record<string, string> = {}): string[] {
  const line = words.join(' ');
  const program = `source ${shellWord(scripts.bash!)}
COMP_WORDS=(${words.map(shellWord).join(' ')})
COMP_CWORD=${words.length - 1}
COMP_LINE=${shellWord(line)}
COMP_POINT=${line.length}
_hearth
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('hearth completion', () => {
  it('prints a bash script bash reads without a syntax error', () => {
    const r = spawnSync('bash', ['-n', scripts.bash!], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it(
    'zsh reads its script without a syntax error',
    { skip: !installed('zsh') && 'zsh is not installed' },
    () => {
      const r = spawnSync('zsh', ['-n', scripts.zsh!], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    },
  );

  it(
    'fish reads its script without a syntax error',
    { skip: !installed('fish') && 'fish is not installed' },
    () => {
      const r = spawnSync('fish', ['-n', scripts.fish!], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
    },
  );

  it('bash: subcommands at each level', () => {
    assert.deepEqual(bashOffers(['hearth', 'stack', 'cr']), ['create']);
    const top = bashOffers(['hearth', '']);
    for (const name of ['stack', 'template', 'manage', 'serve', 'completion'])
      assert.ok(top.includes(name), name);
    assert.ok(!top.includes('__complete'), 'the hidden helper is not offered');
    assert.deepEqual(bashOffers(['hearth', 'stack', 'resource', 'l']), ['list']);
    // After the program's options and their values.
    assert.deepEqual(bashOffers(['hearth', '--db', 'x.db', 'stack', 'res']).sort(), ['resource', 'resume']);
  });

  it("bash: a command's options, and the values of a choice option", () => {
    const options = bashOffers(['hearth', 'stack', 'create', '-']);
    for (const flag of [
      '-t',
      '--template',
      '-e',
      '--environment',
      '--wait',
      '-f',
      '--format',
      '--max-width',
      '--help',
    ]) {
      assert.ok(options.includes(flag), `${flag} in ${options.join(' ')}`);
    }
    assert.ok(!options.includes('--existing'), 'an option of another command');
    assert.deepEqual(bashOffers(['hearth', 'stack', 'show', 'demo', '-f', '']), [
      'table',
      'json',
      'yaml',
      'value',
    ]);
    assert.deepEqual(bashOffers(['hearth', 'stack', 'update', 'demo', '--rollback', 'e']), ['enabled']);
    assert.deepEqual(bashOffers(['hearth', 'completion', '']), ['bash', 'zsh', 'fish']);
    assert.deepEqual(bashOffers(['hearth', 'completion', 'bash', '']), []);
  });

  it('bash: files for a file option', () => {
    writeFileSync(join(dir, 'web.yaml'), 'heat_template_version: 2018-08-31\n');
    assert.deepEqual(bashOffers(['hearth', 'stack', 'create', 'x', '-t', 'web']), ['web.yaml']);
  });

  it("bash: the stacks of the command line's store for a stack argument, none for a new stack's name", () => {
    const w = workdir({ 't.yaml': 'heat_template_version: 2018-08-31\nresources: {}\n' });
    for (const name of ['web', 'db-main'])
      assert.equal(w.run(['stack', 'create', name, '-t', 't.yaml', '--wait']).code, 0);
    assert.deepEqual(bashOffers([command, '--db', w.db, 'stack', 'show', '']).sort(), ['db-main', 'web']);
    assert.deepEqual(bashOffers([command, '--db', w.db, 'stack', 'delete', 'web', 'd']), ['db-main']);
    assert.deepEqual(bashOffers([command, 'stack', 'output', 'list', 'w'], { HEARTH_DB: w.db }), ['web']);
    assert.deepEqual(bashOffers([command, '--db', w.db, 'stack', 'create', '']), []);
  });

  it('stack names never create a store: nothing offered, no file made, where there is none', () => {
    const empty = mkdtempSync(join(tmpdir(), 'hearth-completion-'));
    const missing = join(empty, 'none.db');
    const listed = hearth(['--db', missing, '__complete', 'stacks']);
    assert.deepEqual([listed.code, listed.stdout, listed.stderr], [0, '', '']);
    // The default store, under a HOME that has none.
    const home = hearth(['__complete', 'stacks'], empty, { HOME: empty, HEARTH_DB: '' });
    assert.deepEqual([home.code, home.stdout], [0, '']);
    assert.deepEqual(bashOffers([command, '--db', missing, 'stack', 'show', '']), []);
    assert.deepEqual(readdirSync(empty), []);
    assert.ok(!existsSync(missing));
  });

  it(
    'fish completes subcommands, options, choices and the stacks of the store named',
    {
      skip: !installed('fish') && 'fish is not installed',
    },
    () => {
      const w = workdir({ 't.yaml': 'heat_template_version: 2018-08-31\nresources: {}\n' });
      assert.equal(w.run(['stack', 'create', 'fishy', '-t', 't.yaml', '--wait']).code, 0);
      const offers = (line: string) => {
        const r = spawnSync(
          'fish',
          ['--no-config', '-c', `source ${scripts.fish}; complete -C ${shellWord(line)}`],
          {
            encoding: 'utf8',
            env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
            timeout: 60_000,
          },
        );
        assert.equal(r.status, 0, r.stderr);
        return r.stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => l.split('\t')[0]);
      };
      assert.deepEqual(offers('hearth stack cr'), ['create']);
      const options = offers('hearth stack create -');
      for (const flag of ['-t', '--template', '--wait', '--format']) assert.ok(options.includes(flag), flag);
      assert.deepEqual(offers('hearth stack show x -f ').sort(), ['json', 'table', 'value', 'yaml']);
      assert.deepEqual(offers(`hearth --db ${w.db} stack show `), ['fishy']);
    },
  );

  it(
    'zsh completes subcommands, options, choices and stacks on a TAB in a terminal (zpty)',
    {
      skip: !installed('zsh') && 'zsh is not installed',
    },
    () => {
      const w = workdir({ 't.yaml': 'heat_template_version: 2018-08-31\nresources: {}\n' });
      assert.equal(w.run(['stack', 'create', 'zshy', '-t', 't.yaml', '--wait']).code, 0);
      // An interactive zsh in a pty: the line typed, a TAB, then its screen read until `pattern`.
      const driver = join(dir, 'tab.zsh');
      writeFileSync(
        driver,
        `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PS1="> "; autoload -U compinit; compinit -u -D; setopt nobeep'
zpty -w z "source \${(q)1}; PATH=\${(q)2}:\\$PATH"
zpty -w -n z "$3"$'\\t'
zpty -r z screen "$4" && print -r -- completed
zpty -d z
`,
      );
      const tab = (line: string, pattern: string) => {
        const r = spawnSync('zsh', ['-f', driver, scripts.zsh!, dir, line, pattern], {
          encoding: 'utf8',
          timeout: 60_000,
        });
        assert.equal(r.stdout.trim(), 'completed', `${line} → ${pattern}: ${r.stdout}${r.stderr}`);
      };
      tab('hearth stack cr', '*hearth stack create*');
      tab('hearth stack create -', '*--template*--wait*');
      tab('hearth stack show x -f ', '*json*table*value*yaml*');
      tab(`hearth --db ${w.db} stack show `, '*stack show zshy*');
    },
  );

  it('zsh and fish scripts carry the same tree: subcommands, options, choices, stacks', () => {
    const zsh = hearth(['completion', 'zsh']).stdout;
    assert.match(zsh, /^#compdef hearth$/m);
    assert.match(zsh, /^_hearth__stack__create\(\) \{$/m);
    assert.match(
      zsh,
      /'\(-f --format\)'\{-f,--format\}'\[table, json, yaml or value\]:value:\(table json yaml value\)'/,
    );
    assert.match(zsh, /^ {8}'create:Create a stack'$/m);
    assert.match(zsh, /^_hearth__stack__show\(\) \{\n(?:.*\n)*? {4}'1:name:_hearth_stacks'$/m);
    const fish = hearth(['completion', 'fish']).stdout;
    assert.match(
      fish,
      /^complete -c hearth -n '__hearth_using \\'stack\\'' -a 'create' -d 'Create a stack'$/m,
    );
    assert.match(fish, /-n '__hearth_using \\'stack show\\'' -s f -l format -x -a 'table json yaml value'/);
    assert.match(fish, /-n '__hearth_using \\'stack show\\'' -a '\(__hearth_stacks\)'/);
    const usage = hearth(['completion', 'tcsh']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /expected bash, zsh, fish/);
  });
});

describe('the completion tree read from the program', () => {
  const tree = completionSpec(buildProgram());
  const at = (path: string) => allCommands(tree).find((c) => c.path.join(' ') === path)!;

  it('every command with its options, choice values and stack arguments', () => {
    assert.ok(at('stack resource list'));
    const format = at('stack list').options.find((o) => o.flags.includes('--format'))!;
    assert.deepEqual(format.value, { kind: 'words', words: ['table', 'json', 'yaml', 'value'] });
    assert.deepEqual(
      at('template validate').options.find((o) => o.flags.includes('-f'))!.value.kind,
      'words',
    );
    assert.deepEqual(at('stack create').options.find((o) => o.flags.includes('-t'))!.value, { kind: 'file' });
    assert.equal(at('stack create').options.find((o) => o.flags.includes('-e'))!.repeatable, true);
    assert.deepEqual(
      at('stack show').args.map((a) => a.value.kind),
      ['stack'],
    );
    assert.deepEqual(
      at('stack create').args.map((a) => a.value.kind),
      ['none'],
    );
    assert.deepEqual(
      at('stack resource show').args.map((a) => a.value.kind),
      ['stack', 'none'],
    );
    assert.equal(at('stack delete').args[0]!.variadic, true);
    assert.ok(!tree.subcommands.some((c) => c.path[0] === '__complete'));
  });
});
