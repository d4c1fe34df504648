import type { TemplateLimits } from '../template/limits.js';
import type { Config } from './options.js';

/** The template layer's limits, from the options that set them. */
export function templateLimitsFrom(
  config: Pick<
    Config,
    | 'max_template_size'
    | 'max_document_depth'
    | 'max_document_nodes'
    | 'max_document_aliases'
    | 'max_nested_stack_depth'
    | 'max_resources_per_stack'
  >,
): TemplateLimits {
  return {
    maxDocumentBytes: config.max_template_size,
    maxDocumentDepth: config.max_document_depth,
    maxDocumentNodes: config.max_document_nodes,
    maxAliasCount: config.max_document_aliases,
    maxNestingDepth: config.max_nested_stack_depth,
    // Heat's -1 is "unlimited"; the template layer compares counts against the limit.
    maxResourcesPerStack: config.max_resources_per_stack < 0 ? Infinity : config.max_resources_per_stack,
  };
}
