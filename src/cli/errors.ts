import { TemplateError } from '../template/errors.js';

/** Exit codes: 0 success, 1 the input is invalid or the operation failed, 2 bad command usage. */
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** A one-paragraph message for the terminal, with `file://` URLs under the working directory shortened. */
export function describeError(err: unknown, cwd: string = process.cwd()): string {
  const text = err instanceof TemplateError ? err.message : err instanceof Error ? err.message : String(err);
  const prefix = `file://${cwd.endsWith('/') ? cwd : `${cwd}/`}`;
  return text.split(prefix).join('');
}
