import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TemplateError } from '../template/errors.js';

/** Exit codes: 0 success, 1 the input is invalid or the operation failed, 2 bad command usage. */
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/**
 * A one-paragraph message for the terminal, with `file://` URLs written as paths (relative under
 * the working directory) and any URL's password masked (a driver's message may quote a database URL).
 */
export function describeError(err: unknown, cwd: string = process.cwd()): string {
  const text = err instanceof TemplateError ? err.message : err instanceof Error ? err.message : String(err);
  return maskUrlPasswords(text.replace(FILE_URL, (url) => shownPath(url, cwd)));
}

/** A file:// URL up to its `:line:column`, a space, a bracket or the end. */
const FILE_URL = /file:\/\/\/[^\s()]*?(?=:\d+(?::\d+)?(?:\D|$)|[\s()]|$)/g;

/** A file URL as a person typed the path: relative under the working directory, else absolute. */
function shownPath(url: string, cwd: string): string {
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch {
    return url;
  }
  const under = relative(cwd, path);
  return under !== '' && !under.startsWith('..') && !isAbsolute(under) ? under : path;
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
