import type { DocPath } from './errors.js';
import type { Node } from './functions/types.js';
import type { ParameterSchema } from './parameters/index.js';
import type { SourceDocument } from './source.js';
import type { TemplateVersion } from './versions.js';

/** One entry of the `resources` section, with its snippets parsed into function trees. */
export interface ResourceDefinition {
  readonly name: string;
  readonly type: string;
  readonly properties: Node;
  readonly metadata: Node;
  readonly dependsOn: readonly string[];
  readonly deletionPolicy: Node | undefined;
  readonly updatePolicy: Node;
  readonly description: string | undefined;
  /** A condition name, a boolean or an inline condition; undefined means always present. */
  readonly condition: Node | undefined;
  readonly externalId: Node | undefined;
  readonly path: DocPath;
}

export interface OutputDefinition {
  readonly name: string;
  readonly value: Node;
  readonly description: string | undefined;
  readonly condition: Node | undefined;
  readonly path: DocPath;
}

export interface ParameterGroup {
  label?: string;
  description?: string;
  parameters: string[];
}

/**
 * A template (HOT or CloudFormation-format), checked for structure against its version and parsed into function trees.
 * It knows nothing of parameter values or of other stacks: see stack-definition.ts for that.
 */
export interface Template {
  readonly source: SourceDocument;
  readonly version: TemplateVersion;
  readonly description: string | undefined;
  readonly parameters: ReadonlyMap<string, ParameterSchema>;
  readonly parameterGroups: readonly ParameterGroup[];
  readonly conditions: ReadonlyMap<string, Node>;
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  readonly outputs: ReadonlyMap<string, OutputDefinition>;
}
