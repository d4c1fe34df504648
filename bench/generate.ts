/**
 * Generates a large, realistic HOT template: every resource uses parameters, string functions,
 * references to earlier resources (get_resource, get_attr, depends_on) and some are conditional.
 */
export function generateTemplate(resources: number): string {
  const lines: string[] = [
    'heat_template_version: 2018-08-31',
    `description: generated template with ${resources} resources`,
    'parameters:',
    '  image: {type: string, default: cirros, constraints: [{allowed_pattern: "[a-z0-9-]+"}]}',
    '  flavor: {type: string, default: m1.small}',
    '  env: {type: string, default: dev, constraints: [{allowed_values: [dev, prod]}]}',
    '  tags: {type: comma_delimited_list, default: "a,b,c"}',
    'conditions:',
    '  prod: {equals: [{get_param: env}, prod]}',
    'resources:',
  ];
  for (let i = 0; i < resources; i++) {
    lines.push(`  r${i}:`);
    lines.push('    type: Bench::Server');
    if (i % 50 === 49) lines.push('    condition: prod');
    if (i % 10 === 3 && i > 3) lines.push(`    depends_on: [r${i - 3}]`);
    lines.push('    properties:');
    lines.push(
      `      name: {str_replace: {template: server-$i-$env, params: {$i: "${i}", $env: {get_param: env}}}}`,
    );
    lines.push('      image: {get_param: image}');
    lines.push('      flavor: {get_param: flavor}');
    lines.push(`      tags: {list_join: [',', {get_param: tags}, [n${i}]]}`);
    if (i > 0) {
      // A chain plus fan-in: each resource needs its predecessor and one far-back resource.
      const back = Math.floor(i / 2);
      lines.push(`      networks: [{port: {get_resource: r${i - 1 - ((i - 1) % 50 === 49 ? 1 : 0)}}}]`);
      lines.push(
        `      metadata: {peer: {get_attr: [r${back - (back % 50 === 49 ? 1 : 0)}, first_address]}, index: ${i}}`,
      );
    }
  }
  lines.push('outputs:');
  lines.push(`  last: {value: {get_attr: [r${resources - 2}, first_address]}}`);
  return `${lines.join('\n')}\n`;
}
