import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

// README's OpenStack demo (`npm run demo:openstack`, examples/openstack) keeps working: it starts a
// sandbox cloud, creates the example stack, scales it out and deletes it.
describe('npm run demo:openstack', () => {
  it('creates the example stack on a sandbox cloud, scales the web tier out and deletes it', async () => {
    const bundle = process.env.HEARTH_TEST_CLI;
    const env = {
      ...process.env,
      // The runner's bundle of the CLI, else the sources through tsx.
      ...(bundle
        ? { DEMO_CLI: bundle }
        : { DEMO_CLI: resolve(ROOT, 'src/cli/index.ts'), NODE_OPTIONS: '--import tsx' }),
    };
    const { stdout } = await run(process.execPath, ['scripts/demo-openstack.mjs'], {
      cwd: ROOT,
      env,
      timeout: 180_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    assert.match(stdout, /\[demo\]: CREATE_COMPLETE {2}Stack CREATE completed successfully/);
    assert.match(stdout, /"db_public_address".*"output_value":"172\.24\.4\.\d+"/);
    assert.match(
      stdout,
      /\["10\.0\.0\.\d+","10\.0\.0\.\d+","10\.0\.0\.\d+"\]/,
      'three web servers after the update',
    );
    assert.match(stdout, /\[demo\]: DELETE_COMPLETE {2}Stack DELETE completed successfully/);
    assert.match(stdout, /the demo's database: \/\S+hearth\.db\n/);
    assert.match(
      stdout,
      /\nDone: the stack was created on the sandbox cloud, scaled out to 3 web servers and deleted/,
    );
  });
});
