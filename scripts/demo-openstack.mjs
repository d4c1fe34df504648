// `npm run demo:openstack`: the OpenStack resource types against the sandbox cloud. Starts
// `hearth sandbox serve` on a free port, points the OS_* variables at it, then creates the stack of
// examples/openstack (network, router, servers, floating IP, volume), shows it (through the real
// `openstack` client too when it is installed), scales the web tier out, and deletes it all.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = process.env.DEMO_CLI ?? 'bin/hearth.js';
const db = join(mkdtempSync(join(tmpdir(), 'hearth-demo-openstack-')), 'hearth.db');
const template = 'examples/openstack/stack.yaml';

const sandbox = spawn(process.execPath, [cli, 'sandbox', 'serve', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    const found = /listening on (\S+)/.exec(out);
    if (found) resolve(found[1]);
  });
  sandbox.on('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
});
console.log(`sandbox cloud at ${url}; the demo's database: ${db}`);
const env = {
  ...process.env,
  OS_AUTH_URL: `${url}/identity/v3`,
  OS_USERNAME: 'demo',
  OS_PASSWORD: 'demo',
  OS_PROJECT_NAME: 'demo',
  OS_USER_DOMAIN_NAME: 'Default',
  OS_PROJECT_DOMAIN_NAME: 'Default',
};

const stop = (code) => {
  sandbox.kill('SIGTERM');
  process.exit(code);
};
const hearth = (...args) => {
  console.log(`\n$ hearth ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [cli, '--db', db, ...args], { stdio: 'inherit', env });
  if (r.status !== 0) stop(r.status ?? 1);
};
const hasClient = spawnSync('openstack', ['--version'], { stdio: 'ignore' }).status === 0;
const openstack = (...args) => {
  if (!hasClient) return;
  console.log(`\n$ openstack ${args.join(' ')}`);
  spawnSync('openstack', args, { stdio: 'inherit', env });
};

hearth('stack', 'create', 'demo', '-t', template, '--wait');
hearth('stack', 'resource', 'list', 'demo');
hearth('stack', 'output', 'show', 'demo', '--all');
openstack('server', 'list', '-c', 'Name', '-c', 'Status', '-c', 'Networks');
openstack('volume', 'list', '-c', 'Name', '-c', 'Status', '-c', 'Size', '-c', 'Attached to');
openstack('floating', 'ip', 'list', '-c', 'Floating IP Address', '-c', 'Fixed IP Address');
hearth('stack', 'update', 'demo', '--existing', '--parameter', 'web_servers=3', '--wait');
hearth('stack', 'output', 'show', 'demo', 'web_addresses', '-f', 'value');
hearth('stack', 'delete', 'demo', '--yes', '--wait');
openstack('server', 'list');
if (!hasClient)
  console.log('\n(install python3-openstackclient to see the cloud through the openstack client)');
console.log(
  '\nDone: the stack was created on the sandbox cloud, scaled out to 3 web servers and deleted, ' +
    'leaving no server, volume or address behind. The sandbox stops now; `npx hearth sandbox serve` ' +
    'runs one to try your own templates on (see docs/openstack.md).',
);
stop(0);
