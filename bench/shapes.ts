// The templates the engine and CLI benchmarks create: N OS::Heat::Value resources in three shapes.

/** chains: runs of 10 resources each depending on the one before; fan: independent resources
 * and one output reading them all; group: one ResourceGroup of N members (a nested stack). */
export type Shape = 'chains' | 'fan' | 'group';

/** N resources of `shape` whose value is `value`; `changeOne` changes the last one (or grows a group by one). */
export function template(n: number, shape: Shape, value: string, changeOne = false): string {
  if (shape === 'group') return groupTemplate(n, value, changeOne);
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    const v = changeOne && i === n - 1 ? `${value}-changed` : value;
    const dep = shape === 'chains' && i % 10 !== 0 ? `, depends_on: [r${i - 1}]` : '';
    lines.push(`  r${i}: {type: OS::Heat::Value, properties: {value: ${v}}${dep}}`);
  }
  if (shape === 'fan') {
    lines.push('outputs:', '  all:', '    value:', '      list_join:', "        - ','", '        -');
    for (let i = 0; i < n; i++) lines.push(`          - {get_attr: [r${i}, value]}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One ResourceGroup of n OS::Heat::Value members. "Change one" grows the group by one member (a
 * group's members share their definition, so one member cannot change alone).
 */
function groupTemplate(n: number, value: string, changeOne: boolean): string {
  return `heat_template_version: 2018-08-31
resources:
  group:
    type: OS::Heat::ResourceGroup
    properties:
      count: ${changeOne ? n + 1 : n}
      resource_def: {type: OS::Heat::Value, properties: {value: ${value}}}
outputs:
  values: {value: {get_attr: [group, value]}}
`;
}
