import type { Json } from '../util/json.js';
import { CFN_REGION } from './cfn/versions.js';
import { UNKNOWN, type Unknown } from './functions/types.js';
import type { TemplateVersion } from './versions.js';

/** What the engine knows of the stack a template is bound for (absent: not known yet). */
export interface StackIdentity {
  stackName?: string;
  stackId?: string;
  projectId?: string;
  region?: string;
}

/** Python's urllib.parse.quote(s, safe=''): only letters, digits and `_.-~` stay as they are. */
function quote(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Heat's stack ARN (HeatIdentifier.arn): what AWS::StackId is. */
export function stackArn(projectId: string, stackName: string, stackId: string): string {
  return `arn:openstack:heat::${quote(projectId)}:stacks/${quote(stackName)}/${quote(stackId)}`;
}

/** The pseudo parameters of the template's format and their values (UNKNOWN where not known). */
export function pseudoParameterValues(
  version: Pick<TemplateVersion, 'format'>,
  stack: StackIdentity,
): Record<string, Json | Unknown> {
  if (version.format === 'cfn') {
    const { projectId, stackName, stackId } = stack;
    return {
      'AWS::StackId':
        projectId !== undefined && stackName !== undefined && stackId !== undefined
          ? stackArn(projectId, stackName, stackId)
          : UNKNOWN,
      'AWS::StackName': stack.stackName ?? UNKNOWN,
      // Heat's CFN templates know no region but this one, whatever the cloud's.
      'AWS::Region': CFN_REGION,
    };
  }
  return {
    'OS::stack_name': stack.stackName ?? UNKNOWN,
    'OS::stack_id': stack.stackId ?? UNKNOWN,
    'OS::project_id': stack.projectId ?? UNKNOWN,
    'OS::region': stack.region ?? UNKNOWN,
  };
}
