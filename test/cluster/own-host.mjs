// Preloaded (NODE_OPTIONS=--import) into the engine processes of the cluster tests: each one
// reports the host CLUSTER_TEST_HOST names, as if every engine ran on a machine of its own.
// Otherwise an engine sees that a killed engine's process is gone (same host) and takes over its
// work at once; with a host of its own, only the heartbeat going stale tells, as across real hosts.
// Plain JavaScript, so the engines can run the bundled CLI (a third of tsx's start-up CPU).
import os from 'node:os';
import { syncBuiltinESMExports } from 'node:module';

const host = process.env.CLUSTER_TEST_HOST;
if (host) {
  os.hostname = () => host;
  // `import { hostname } from 'node:os'` elsewhere (the bundle too) sees the replacement.
  syncBuiltinESMExports();
}
