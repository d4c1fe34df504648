import type { Value } from '../../../template/functions/types.js';

/** The network given, by name or id (one of the two is required by the schema). */
export function networkRef(properties: Record<string, Value>): string {
  return (properties.network ?? properties.network_id) as string;
}
