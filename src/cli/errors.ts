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

/** The operation ran and ended FAILED: the command exits non-zero with the reason. */
export class StackFailed extends Error {
  override readonly name = 'StackFailed';
}
