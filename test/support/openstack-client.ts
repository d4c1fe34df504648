import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// Looked up on PATH, not run: `openstack --version` costs half a CPU second, and dozens of test
// files (both passes) ask.
const installed = (process.env.PATH ?? '').split(delimiter).some((dir) => {
  try {
    accessSync(join(dir || '.', 'openstack'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

/**
 * `skip` for a describe() of the real openstack client's tests: only without the client and
 * outside CI. CI installs the client (.ci/run): there its absence fails the tests instead.
 */
export const OPENSTACK_CLIENT_SKIP: string | false =
  !installed && process.env.CI !== 'true' ? 'the openstack client is not installed' : false;
