import { type DocPath, TemplateError } from '../../../template/errors.js';
import type { Value } from '../../../template/functions/types.js';

/** A subnet's or port's network: `network`, or the older `network_id` Heat still takes. */
export function requireNetwork(properties: Record<string, Value>, path: DocPath): void {
  const network = properties.network ?? properties.network_id;
  if (network === undefined || network === null) {
    throw new TemplateError(
      'property',
      'One of the properties "network" or "network_id" should be set.',
      path,
    );
  }
}

/** The network given, by name or id (validated by requireNetwork). */
export function networkRef(properties: Record<string, Value>): string {
  return (properties.network ?? properties.network_id) as string;
}
