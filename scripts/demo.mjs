// `npm run demo`: the main job on the embedded default. Until the engine lands (issue 3) this shows
// the template engine on the example stack: its dependency graph and the functions of its version.
import { spawnSync } from 'node:child_process';

const run = (args) => {
  console.log(`\n$ hearth ${args.join(' ')}`);
  const r = spawnSync(process.execPath, ['bin/hearth.js', ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run([
  'template',
  'graph',
  '-t',
  'examples/web/web.yaml',
  '-e',
  'examples/web/production.env.yaml',
  '-f',
  'json',
]);
run(['template', 'functions', '--template-version', 'wallaby']);
