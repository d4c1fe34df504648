import { type DocPath, TemplateError } from './errors.js';

// A UTF-16 surrogate without its other half: such a string has no UTF-8 form, so it cannot be
// stored, logged or sent back intact (it would come back garbled).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Control characters (C0, DEL, C1) and the line and paragraph separators: nothing a name shows.
const UNPRINTABLE = /[\p{Cc}\p{Zl}\p{Zp}]/u;

/** Why `name` cannot name a resource, output or parameter, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (LONE_SURROGATE.test(name)) return 'is not valid Unicode (it has a lone UTF-16 surrogate)';
  const bad = UNPRINTABLE.exec(name);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `contains the unprintable character U+${code}`;
  }
  return undefined;
}

/**
 * Refuses a name a template gives a resource, output or parameter (`what`) that is empty, has a
 * control character or is not valid UTF-16. The path names the entry; the message shows the
 * name escaped, so the error itself stays printable.
 */
export function checkName(what: string, name: string, path: DocPath): void {
  const problem = nameProblem(name);
  if (problem) throw new TemplateError('schema', `the ${what} name ${JSON.stringify(name)} ${problem}`, path);
}
