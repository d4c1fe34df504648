// One pass of scripts/run-tests.mjs: node's test runner (`run()`) over the files given, in the
// order given (`node --test` sorts its files by name; the runner starts the longest first, so the
// pass does not end on one long file while a core idles). The spec reporter writes to stdout, the
// progress reporter (one line as each file's top-level tests end) to stderr.
//   node scripts/test-pass.mjs CONCURRENCY FILE...
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import progress from './test-progress-reporter.mjs';

const [concurrency, ...files] = process.argv.slice(2);
const stream = run({ files, concurrency: Number(concurrency) });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(new spec()).pipe(process.stdout);
stream.compose(progress).pipe(process.stderr);
