import { getOwn } from '../../util/json.js';
import type { DocPath } from '../errors.js';

// The model names sections and keys as HOT does; errors found while binding a CloudFormation-format
// template (stack-definition.ts) are placed with these names, and shown with the document's.

const SECTIONS = {
  description: 'Description',
  parameters: 'Parameters',
  resources: 'Resources',
  outputs: 'Outputs',
  conditions: 'Conditions',
};
const KEYS: Record<string, Record<string, string>> = {
  Resources: {
    type: 'Type',
    properties: 'Properties',
    metadata: 'Metadata',
    depends_on: 'DependsOn',
    deletion_policy: 'DeletionPolicy',
    update_policy: 'UpdatePolicy',
    description: 'Description',
    condition: 'Condition',
  },
  Outputs: { value: 'Value', description: 'Description', condition: 'Condition' },
  Parameters: {
    type: 'Type',
    default: 'Default',
    description: 'Description',
    label: 'Label',
    hidden: 'NoEcho',
  },
};

/** `['resources', 'web', 'depends_on', 0]` -> `['Resources', 'web', 'DependsOn', 0]`. */
export function cfnDocumentPath(path: DocPath): DocPath {
  if (path.length === 0 || typeof path[0] !== 'string') return path;
  const section = getOwn(SECTIONS, path[0]) ?? path[0];
  const out = [section, ...path.slice(1)];
  const key = out[2];
  if (typeof key === 'string') {
    const keys = getOwn(KEYS, section);
    out[2] = (keys && getOwn(keys, key)) ?? key;
  }
  return out;
}
