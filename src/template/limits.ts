/**
 * Limits on user input. Every one is configurable: defaults are sized for 1,000,000-resource
 * stacks while stopping documents that would exhaust memory or the call stack.
 */
export interface TemplateLimits {
  /** Largest template or environment document, in bytes (Heat: max_template_size). */
  maxDocumentBytes: number;
  /** Deepest nesting of maps and lists inside one document. */
  maxDocumentDepth: number;
  /** Most YAML nodes (scalars, maps, lists) in one document, aliases expanded. */
  maxDocumentNodes: number;
  /** Deepest chain of nested stacks (Heat: max_nested_stack_depth). */
  maxNestingDepth: number;
  /** Most resources in one stack (Heat: max_resources_per_stack). */
  maxResourcesPerStack: number;
  /** Most YAML alias expansions in one document (stops "billion laughs" documents). */
  maxAliasCount: number;
}

export const DEFAULT_LIMITS: Readonly<TemplateLimits> = Object.freeze({
  maxDocumentBytes: 256 * 1024 * 1024,
  maxDocumentDepth: 64,
  maxDocumentNodes: 50_000_000,
  maxNestingDepth: 5,
  maxResourcesPerStack: 1_000_000,
  maxAliasCount: 1000,
});

export function withLimits(overrides: Partial<TemplateLimits> = {}): TemplateLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
