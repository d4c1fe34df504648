import { TemplateError } from '../template/errors.js';

/** Exit codes: 0 success, 1 the input is invalid or the operation failed, 2 bad command usage. */
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/**
 * A one-paragraph message for the terminal, with `file://` URLs under the working directory
 * shortened and any URL's password masked (a driver's message may quote a database URL).
 */
export function describeError(err: unknown, cwd: string = process.cwd()): string {
  const text = err instanceof TemplateError ? err.message : err instanceof Error ? err.message : String(err);
  const prefix = `file://${cwd.endsWith('/') ? cwd : `${cwd}/`}`;
  return maskUrlPasswords(text.split(prefix).join(''));
}

/**
 * `scheme://user:password@host` → `scheme://user:***@host`, wherever such a URL appears in `text`.
 * Up to the last `@` of the word: an unencoded `@` in a password must not leave its end showing.
 */
export function maskUrlPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):\S*@/gi, '$1:***@');
}

/** The operation ran and ended FAILED: the command exits non-zero with the reason. */
export class StackFailed extends Error {
  override readonly name = 'StackFailed';
}
