// `npm run bench:bind`: the user's path of a big template, CLI loader to bound definition (what
// `hearth stack create -t` does before the first row): CPU, wall time and peak RSS per size.
// BENCH_SIZES (default 100000), BENCH_SHAPES (fan, chains; default fan).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bindTemplateSliced, environmentJSON } from '../src/engine/core/templates.js';
import { builtinPlugins, pluginCatalog } from '../src/resources/catalog.js';
import { DEFAULT_LIMITS } from '../src/template/limits.js';
import { loadStackInput } from '../src/template/loader.js';

const SIZES = (process.env.BENCH_SIZES ?? '100000').split(',').map(Number);
const SHAPE = process.env.BENCH_SHAPE ?? 'fan';

function template(n: number): string {
  const lines = ['heat_template_version: 2018-08-31', 'resources:'];
  for (let i = 0; i < n; i++) {
    const dep = SHAPE === 'chains' && i % 10 !== 0 ? `, depends_on: [r${i - 1}]` : '';
    lines.push(`  r${i}: {type: OS::Heat::Value, properties: {value: v}${dep}}`);
  }
  if (SHAPE === 'fan') {
    lines.push('outputs:', '  all:', '    value:', '      list_join:', "        - ','", '        -');
    for (let i = 0; i < n; i++) lines.push(`          - {get_attr: [r${i}, value]}`);
  }
  return `${lines.join('\n')}\n`;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const types = pluginCatalog(builtinPlugins()).typeCatalog;
const limits = { ...DEFAULT_LIMITS, maxDocumentBytes: 2 ** 30 };
const dir = mkdtempSync(join(tmpdir(), 'bench-bind-'));
try {
  for (const n of SIZES) {
    const path = join(dir, `t${n}.yaml`);
    writeFileSync(path, template(n));
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const input = loadStackInput(path, [], (url) => readFileSync(new URL(url), 'utf8'), limits);
    // Handed to the bind and dropped, as the engine's prepare takes it (TemplateInput.parsed).
    let parsed = input.parsed;
    delete input.parsed;
    const t1 = performance.now();
    const record = {
      id: 't',
      template: input.text,
      url: input.url,
      files: input.files,
      environment: environmentJSON(input.environment),
      createdAt: new Date().toISOString(),
    };
    const definition = await bindTemplateSliced(
      record,
      { stackId: 's', stackName: 'big', projectId: 'p' },
      types,
      limits,
      { parsed: parsed! },
    );
    parsed = undefined;
    const t2 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    gc?.();
    const heap = process.memoryUsage().heapUsed;
    console.log(
      `${SHAPE} ${n}: ${(input.text.length / 2 ** 20).toFixed(1)} MiB YAML; load ${((t1 - t0) / 1000).toFixed(2)} s, ` +
        `bind ${((t2 - t1) / 1000).toFixed(2)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; ` +
        `peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, heap after (definition alive) ${mib(heap)}` +
        ` (${definition.resources.size} resources); load avg ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
