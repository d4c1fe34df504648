import { clientExceptionName, OpenStackError } from '../../openstack/index.js';
import { ResourceFailure } from '../../resources/contract.js';
import { TemplateError } from '../../template/errors.js';

/**
 * Heat's wording of failures, in one place: clients, scripts and people match on these texts.
 *
 * - A resource's reason: `<Class>: resources.<name>: <message>` (Heat's ResourceFailure made from
 *   the exception an action raised: the exception's class name, the resource's path, its text).
 * - A resource whose nested stack failed quotes the child's reason with its own path in front:
 *   `ValueError: resources.group.resources[0]: Test Resource failed 0`.
 * - The stack's reason: `Resource <ACTION> failed: <the resource's reason>`.
 * - A timeout: the stack's reason is `Timed out`; an operation still running is `<ACTION> aborted
 *   (Timed out)`.
 */

/** Heat's stack reason when its operation ran past the timeout. */
export const TIMED_OUT = 'Timed out';

/** Heat's path text: names joined with `.`, numeric names (group members) as `[n]`. */
export function heatPath(items: readonly string[]): string {
  let out = '';
  for (const item of items) {
    if (/^\d+$/.test(item)) out += `[${item}]`;
    else out = out ? `${out}.${item}` : item;
  }
  return out;
}

/** `<Class>: <path>: <message>`, each part left out when empty, as Heat's HeatExceptionWithPath. */
export function heatFailureText(error: string, path: readonly string[], message: string): string {
  const where = heatPath(path);
  return `${error ? `${error}: ` : ''}${where ? `${where}: ` : ''}${message}`;
}

/** The exception class name Heat would show for `err`. */
export function heatErrorClass(err: unknown): string {
  if (err instanceof ResourceFailure) return err.heatClass;
  if (err instanceof OpenStackError) return clientExceptionName(err.status);
  // A property or function that fails to resolve at action time: Heat's StackValidationFailed.
  if (err instanceof TemplateError) return 'StackValidationFailed';
  if (err instanceof Error) return err.name === 'Error' ? 'Exception' : err.name;
  return 'Exception';
}

/** A resource's reason for what its action threw (or for an engine-made message: no class). */
export function resourceFailureText(err: unknown, resourceName: string): string {
  const path = ['resources', resourceName];
  if (typeof err === 'string') return heatFailureText('', path, err);
  const message = err instanceof Error ? err.message : String(err);
  return heatFailureText(heatErrorClass(err), path, message);
}

/** A resource the adopt data cannot give (Heat's handle_adopt raises a plain Exception). */
export function adoptFailureText(why: string, resourceName: string): string {
  return heatFailureText('Exception', ['resources', resourceName], why);
}

/** The stack's reason when one of its resources failed an action. */
export function stackFailureText(action: string, resourceReason: string): string {
  return `Resource ${action} failed: ${resourceReason}`;
}

/**
 * The reason of a resource whose nested stack failed, from the child stack's reason: a resource
 * failure down there keeps its class and message and gets this resource's path in front; any other
 * reason (a timeout) is the message. Heat splits the whole reason at every colon and joins the
 * message's parts with ': ', which garbles a message holding `::` (a type name); only the first
 * two colons after the prefix are split here, so the message stays as it was.
 */
export function nestedFailureText(childReason: string, action: string, resourceName: string): string {
  const path = ['resources', resourceName];
  const prefix = stackFailureText(action, '');
  const at = childReason.indexOf(prefix);
  if (at >= 0) {
    const parts = /^([^:]*):([^:]*):\s*([\s\S]*)$/.exec(childReason.slice(at + prefix.length));
    if (parts) {
      const inner = parts[2]!.trim().split('.');
      return heatFailureText(parts[1]!.trim(), [...path, ...inner], parts[3]!);
    }
  }
  return heatFailureText('', path, childReason);
}

/** A resource whose operation was still running when the stack stopped (a timeout): Heat's text. */
export function abortedText(action: string, why: string): string {
  return `${action} aborted (${why})`;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
