/**
 * The crash tests' template: many OS::Heat::TestResources in chains, with fan-in, small waits and a
 * few replacements on update, generated from a seeded RNG, together with what every resource's
 * `value` must be once the stack has converged for a given value of the `gen` parameter.
 */

export const TEST_RESOURCE = 'OS::Heat::TestResource';

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same template and kills. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Shape {
  /** Number of chains; each link's value embeds its predecessor's output. */
  chains: number;
  /** Links per chain. */
  length: number;
  /** Resources joining the outputs of several chain links (get_attr fan-in). */
  fanIn: number;
  /** One resource in `waitEvery` waits after create and update */
  waitEvery: number;
  /** for this many seconds (default 0.05), or as long as each action says. */
  waitSecs?: number | { create: number; update: number };
  /** Resources with `update_replace_value: {get_param: gen}`, replaced by every update. */
  replaced: number;
}

interface Spec {
  name: string;
  /** Resources whose `output` the value embeds, in order. */
  inputs: string[];
  /** Ordering-only dependencies. */
  dependsOn: string[];
  wait: boolean;
  replace: boolean;
}

export interface BigTemplate {
  /** The HOT document (YAML is a superset of the JSON it is written as). */
  text: string;
  names: string[];
  /** Output names, each echoing one resource's `output` attribute. */
  outputs: Map<string, string>;
  /** What each resource's value is once converged with `gen`. */
  expected(gen: string): Map<string, string>;
  /** Resources replaced by an update of `gen`. */
  replaced: Set<string>;
}

const link = (chain: number, index: number) =>
  `c${String(chain).padStart(2, '0')}_${String(index).padStart(2, '0')}`;

export function bigTemplate(seed: number, shape: Shape): BigTemplate {
  const random = rng(seed ^ 0x5eed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const specs: Spec[] = [];
  for (let c = 0; c < shape.chains; c++) {
    for (let i = 0; i < shape.length; i++) {
      const dependsOn: string[] = [];
      // Some cross-chain ordering: a link may also wait for an earlier link of another chain.
      if (i > 0 && random() < 0.15) {
        const other = Math.floor(random() * shape.chains);
        if (other !== c) dependsOn.push(link(other, Math.floor(random() * i)));
      }
      specs.push({
        name: link(c, i),
        inputs: i > 0 ? [link(c, i - 1)] : [],
        dependsOn,
        wait: false,
        replace: false,
      });
    }
  }
  const links = specs.map((s) => s.name);
  for (let f = 0; f < shape.fanIn; f++) {
    const inputs = new Set<string>();
    const count = 2 + Math.floor(random() * 4);
    while (inputs.size < count) inputs.add(pick(links));
    specs.push({
      name: `fan${String(f).padStart(2, '0')}`,
      inputs: [...inputs],
      dependsOn: [],
      wait: false,
      replace: false,
    });
  }
  specs.forEach((s, i) => (s.wait = i % shape.waitEvery === 0));
  const replaceable = specs.slice();
  for (let r = 0; r < shape.replaced && replaceable.length > 0; r++) {
    const index = Math.floor(random() * replaceable.length);
    replaceable.splice(index, 1)[0]!.replace = true;
  }

  const resources: Record<string, unknown> = {};
  const outputs = new Map<string, string>();
  for (const s of specs) {
    const properties: Record<string, unknown> = {
      value: {
        list_join: [
          '.',
          [{ get_param: 'gen' }, s.name, ...s.inputs.map((n) => ({ get_attr: [n, 'output'] }))],
        ],
      },
    };
    if (s.wait) {
      const secs = shape.waitSecs ?? 0.05;
      properties.action_wait_secs = typeof secs === 'number' ? { create: secs, update: secs } : { ...secs };
    }
    if (s.replace) properties.update_replace_value = { get_param: 'gen' };
    resources[s.name] = {
      type: TEST_RESOURCE,
      properties,
      ...(s.dependsOn.length > 0 ? { depends_on: s.dependsOn } : {}),
    };
    if (s.name.startsWith('fan') || s.name.endsWith(`_${String(shape.length - 1).padStart(2, '0')}`))
      outputs.set(`out_${s.name}`, s.name);
  }
  const document = {
    heat_template_version: '2018-08-31',
    parameters: { gen: { type: 'string', default: 'g0' } },
    resources,
    outputs: Object.fromEntries(
      [...outputs].map(([key, name]) => [key, { value: { get_attr: [name, 'output'] } }]),
    ),
  };

  return {
    text: `${JSON.stringify(document, null, 1)}\n`,
    names: specs.map((s) => s.name),
    outputs,
    replaced: new Set(specs.filter((s) => s.replace).map((s) => s.name)),
    expected(gen) {
      const values = new Map<string, string>();
      // Specs are in dependency order for values: inputs always come earlier.
      for (const s of specs)
        values.set(s.name, [gen, s.name, ...s.inputs.map((n) => values.get(n)!)].join('.'));
      return values;
    },
  };
}
