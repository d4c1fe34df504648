// A node:test reporter for scripts/run-tests.mjs: one line as each top-level test (a file's
// describe, or a lone test) ends, so a long run shows its progress while the spec reporter's full
// output waits for the end of its pass. Lines start with PROGRESS_MARK so the runner tells them
// from anything else on the pass's stderr.
import { relative, sep } from 'node:path';

export const PROGRESS_MARK = '» ';

// Test files run bundled (scripts/test-build.mjs): named by their sources, from the project's root
// (`test/x/y.test.ts`), whether the runner gives the bundle or, through its source map, the source.
function named(file) {
  const at = file.lastIndexOf(`${sep}test${sep}`);
  return at < 0 ? relative(process.cwd(), file) : file.slice(at + 1).replace(/\.js$/, '.ts');
}

export default async function* progress(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, name, details, skip, todo } = event.data;
    if (nesting !== 0) continue;
    const verdict =
      event.type === 'test:fail' ? 'FAIL' : skip !== undefined || todo !== undefined ? 'skip' : 'ok';
    const seconds = ((details?.duration_ms ?? 0) / 1000).toFixed(1);
    const where = file ? `${named(file)} › ` : '';
    yield `${PROGRESS_MARK}${verdict.padEnd(4)} ${where}${name} (${seconds} s)\n`;
  }
}
