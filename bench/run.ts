// `npm run bench:template`: parse + validate + graph of a generated 100,000-resource template.
// Figures go to docs/benchmarks.md by hand, with the machine and the date.
import { cpus, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { C, P, attr, typeInfo } from '../src/template/properties/index.js';
import { parseTemplate } from '../src/template/template.js';
import { parseSource } from '../src/template/source.js';
import { defineStack } from '../src/template/stack-definition.js';
import type { TypeCatalog } from '../src/template/types.js';
import { generateTemplate, type Profile } from './generate.js';

const SIZE = Number(process.env.BENCH_RESOURCES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PROFILES = (process.env.BENCH_PROFILES ?? 'corpus,heavy').split(',') as Profile[];

const server = typeInfo(
  'Bench::Server',
  {
    name: P.string({ required: true, constraints: [C.length({ min: 1, max: 255 })] }),
    image: P.string({ required: true }),
    flavor: P.string({ required: true }),
    tags: P.string(),
    networks: P.list({ items: P.map({ schema: { port: P.string() } }) }),
    metadata: P.map(),
  },
  { first_address: attr('the first IP address'), name: attr('the server name') },
);
const types: TypeCatalog = { get: (type) => (type === 'Bench::Server' ? server : undefined) };

function time<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const result = fn();
  return [result, performance.now() - start];
}

console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`,
);
for (const profile of PROFILES) benchmark(profile);

function benchmark(profile: Profile): void {
  const text = generateTemplate(SIZE, profile);
  console.log(`\n${profile}: ${SIZE} resources, ${(text.length / 1024 / 1024).toFixed(1)} MiB of YAML`);
  const totals: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const [source, parseMs] = time(() => parseSource('bench.yaml', text));
    const [template, structureMs] = time(() => parseTemplate(source));
    const [stack, defineMs] = time(() => defineStack(template, { types }));
    const [order, orderMs] = time(() => stack.graph.topologicalOrder());
    const total = parseMs + structureMs + defineMs + orderMs;
    totals.push(total);
    console.log(
      `  run ${run}: parse ${parseMs.toFixed(0)} ms, structure ${structureMs.toFixed(0)} ms, ` +
        `validate+graph ${defineMs.toFixed(0)} ms, order ${orderMs.toFixed(0)} ms ` +
        `(${order.length} nodes, ${stack.graph.edgeCount} edges) = ${(total / 1000).toFixed(2)} s`,
    );
  }
  console.log(`  best: ${(Math.min(...totals) / 1000).toFixed(2)} s`);
}
