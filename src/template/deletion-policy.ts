/**
 * Whether a template's text may give a resource a deletion policy. False only when it cannot: no
 * key spelled `deletion_policy` (HOT) or `DeletionPolicy` (CloudFormation), and no escape that
 * could spell one inside a quoted key (YAML's `\x`, `\u`, `\U` and escaped line break, JSON's
 * `\u`). A delete then knows no resource is retained without binding the template.
 */
export function mayDeclareDeletionPolicy(text: string): boolean {
  return POLICY_OR_ESCAPE.test(text);
}

const POLICY_OR_ESCAPE = /deletion_policy|DeletionPolicy|\\[xuU\r\n]/;
