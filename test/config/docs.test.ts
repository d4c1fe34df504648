// The documentation and the example file stay in step with the option table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import {
  defaultConfig,
  defaultText,
  envVarName,
  loadConfig,
  NON_OPTION_ENV_VARIABLES,
  OPTION_NAMES,
  OPTIONS,
  optionSpec,
} from '../../src/config/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = readFileSync(resolve(ROOT, 'docs/configuration.md'), 'utf8');
const EXAMPLE_PATH = resolve(ROOT, 'examples/hearth.conf.yaml');
const EXAMPLE = readFileSync(EXAMPLE_PATH, 'utf8');

/** The docs' section for one option: from its heading to the next. */
function section(name: string): string {
  const start = DOCS.indexOf(`### \`${name}\`\n`);
  assert.ok(start >= 0, `docs/configuration.md has no section for ${name}`);
  const next = DOCS.indexOf('\n### ', start + 1);
  return DOCS.slice(start, next < 0 ? undefined : next);
}

describe('docs/configuration.md', () => {
  it('documents every option with its type, default, environment variable and Heat equivalent', () => {
    for (const name of OPTION_NAMES) {
      const spec = optionSpec(name);
      const text = section(name);
      assert.ok(text.includes(`Environment variable: \`${envVarName(name)}\``), `${name}: variable`);
      assert.ok(text.includes(`- Default: `) && text.includes(defaultText(spec)), `${name}: default`);
      assert.ok(text.includes('- Type: '), `${name}: type`);
      if (spec.heat) assert.ok(text.includes(`- Heat: \`${spec.heat.name}\``), `${name}: Heat name`);
      else assert.ok(text.includes('- Heat: none'), `${name}: Heat`);
      if (spec.heat?.default !== undefined)
        assert.ok(text.includes(spec.heat.default), `${name}: Heat default`);
    }
  });

  it('documents no option that does not exist', () => {
    const documented = [...DOCS.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1]);
    assert.deepEqual(documented, [...OPTION_NAMES]);
  });

  it('names every HEARTH_* variable that is not an option', () => {
    for (const variable of NON_OPTION_ENV_VARIABLES) assert.ok(DOCS.includes(`\`${variable}\``), variable);
  });

  it('lists every option in the summary table', () => {
    for (const name of OPTION_NAMES) {
      assert.match(DOCS, new RegExp(`^\\| \\[\`${name}\`\\]\\(#${name}\\) .*\`${envVarName(name)}\``, 'm'));
    }
  });
});

describe('examples/hearth.conf.yaml', () => {
  it('loads, setting nothing (every option is commented out)', () => {
    const config = loadConfig({ file: EXAMPLE_PATH, env: {} });
    assert.deepEqual(config, loadConfig({ env: {} }));
  });

  it('shows every option, once, at its default: uncommented, it loads to the defaults', () => {
    const lines = [...EXAMPLE.matchAll(/^#([a-z_]+): (.*)$/gm)];
    assert.deepEqual(
      lines.map((m) => m[1]),
      [...OPTION_NAMES],
    );
    const uncommented = lines.map((m) => `${m[1]}: ${m[2]}`).join('\n');
    const shown = parse(uncommented) as Record<string, unknown>;
    const defaults = defaultConfig() as unknown as Record<string, unknown>;
    for (const name of OPTION_NAMES) {
      const spec = OPTIONS[name];
      if (spec.type === 'int' && spec.defaultText !== undefined) continue; // a host-dependent default
      assert.equal(shown[name], defaults[name], name);
    }
  });

  it('names every option’s environment variable', () => {
    for (const name of OPTION_NAMES) assert.ok(EXAMPLE.includes(envVarName(name)), name);
  });
});
