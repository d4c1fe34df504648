import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { ConfigError, loadConfig, type LoadConfigOptions } from '../../src/config/index.js';

/** A scratch directory for config files, removed after the test file. */
export function scratch(): { file: (name: string, text: string) => string; dir: (name: string) => string } {
  const root = mkdtempSync(join(tmpdir(), 'hearth-config-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  return {
    file: (name, text) => {
      const path = join(root, name);
      writeFileSync(path, text);
      return path;
    },
    dir: (name) => {
      const path = join(root, name);
      mkdirSync(path, { recursive: true });
      return path;
    },
  };
}

/** The ConfigError that loading throws. */
export function configError(options: LoadConfigOptions): ConfigError {
  try {
    loadConfig(options);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a ConfigError');
}

/** The one problem loading reports; its whole message is `invalid configuration: <issue>`. */
export function oneIssue(options: LoadConfigOptions): string {
  const err = configError(options);
  assert.equal(err.issues.length, 1, err.message);
  const issue = err.issues[0]!;
  assert.equal(err.message, `invalid configuration: ${issue.message}`);
  return issue.message;
}
