/** Resource shapes for generated templates. */
export type Profile = 'corpus' | 'heavy';

/**
 * Generates a large HOT template. Every resource uses parameters and references to earlier
 * resources (get_resource, get_attr, depends_on), and some are conditional.
 * - `corpus`: shaped like the public corpus in ../shared (about 250 bytes of block YAML and 2.4
 *   function calls per resource on average).
 * - `heavy`: about 390 bytes of flow-style YAML and 8 function calls per resource, a stress case.
 */
export function generateTemplate(resources: number, profile: Profile = 'corpus'): string {
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
  // Every 50th resource is conditional (false by default); references skip those.
  const live = (i: number) => (i % 50 === 49 ? i - 1 : i);
  for (let i = 0; i < resources; i++) {
    lines.push(`  r${i}:`);
    lines.push('    type: Bench::Server');
    if (i % 50 === 49) lines.push('    condition: prod');
    if (i % 10 === 3 && i > 3) lines.push(`    depends_on: [r${live(i - 3)}]`);
    lines.push('    properties:');
    if (profile === 'heavy') heavyProperties(lines, i, live);
    else corpusProperties(lines, i, live);
  }
  lines.push('outputs:');
  lines.push(`  last: {value: {get_attr: [r${live(resources - 2)}, first_address]}}`);
  return `${lines.join('\n')}\n`;
}

function corpusProperties(lines: string[], i: number, live: (i: number) => number): void {
  lines.push(`      name: server-${i}`);
  lines.push('      image: {get_param: image}');
  lines.push('      flavor: m1.small');
  if (i > 0) {
    lines.push('      networks:');
    lines.push(`        - port: {get_resource: r${live(i - 1)}}`);
  }
  lines.push('      metadata:');
  lines.push('        role: web');
  lines.push(`        index: ${i}`);
  if (i > 0 && i % 4 === 0)
    lines.push(`        peer: {get_attr: [r${live(Math.floor(i / 2))}, first_address]}`);
}

function heavyProperties(lines: string[], i: number, live: (i: number) => number): void {
  lines.push(
    `      name: {str_replace: {template: server-$i-$env, params: {$i: "${i}", $env: {get_param: env}}}}`,
  );
  lines.push('      image: {get_param: image}');
  lines.push('      flavor: {get_param: flavor}');
  lines.push(`      tags: {list_join: [',', {get_param: tags}, [n${i}]]}`);
  if (i > 0) {
    // A chain plus fan-in: each resource needs its predecessor and one far-back resource.
    lines.push(`      networks: [{port: {get_resource: r${live(i - 1)}}}]`);
    lines.push(
      `      metadata: {peer: {get_attr: [r${live(Math.floor(i / 2))}, first_address]}, index: ${i}}`,
    );
  }
}
