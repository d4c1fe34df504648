import type { Command } from 'commander';
import type { Backend, DriftInfo, DriftResourceInfo } from '../backend.js';
import { render, show, tabular } from '../output.js';

type Print = (s: string) => void;

/** `stack drift detect|show`: a stack's resources against their live state (docs/drift.md). */
export function registerDriftCommands(
  stack: Command,
  run: <T>(fn: (backend: Backend) => Promise<T>) => Promise<T>,
  print: Print,
): void {
  const drift = stack.command('drift').description("Compare a stack's resources with their live state");
  drift
    .command('detect <stack>')
    .description(
      'Read every resource’s live state now and compare it with the stack; prints the summary and the resources not IN_SYNC',
    )
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { format: string }) => {
      const info = await run(async (backend) => backend.detectDrift(await backend.findStack(name)));
      printDrift(print, opts.format, info);
    });
  drift
    .command('show <stack>')
    .description('Show the results of the last drift detection, every resource’s')
    .option('-f, --format <format>', 'table, json, yaml or value', 'table')
    .action(async (name: string, opts: { format: string }) => {
      const info = await run(async (backend) => backend.showDrift(await backend.findStack(name)));
      printDrift(print, opts.format, info);
    });
}

function summaryView(info: DriftInfo): Record<string, unknown> {
  return { stack_name: info.stackName, detected_time: info.detectedTime, ...info.counts };
}

function resourceView(r: DriftResourceInfo): Record<string, unknown> {
  return {
    resource_name: r.name,
    stack_name: r.stackName,
    resource_type: r.type,
    physical_resource_id: r.physicalId,
    drift_status: r.status,
    property_diff: r.diff,
    drift_status_reason: r.reason,
    detected_time: r.detectedTime,
  };
}

/** One line per differing property in a table cell: `name: expected -> actual`. */
function diffText(diff: DriftResourceInfo['diff']): string {
  return diff
    .map((d) => `${d.property}: ${JSON.stringify(d.expected)} -> ${JSON.stringify(d.actual)}`)
    .join('\n');
}

/** The summary, then the resources: one document (json, yaml) or two tables. */
function printDrift(print: Print, format: string, info: DriftInfo): void {
  if (!tabular(format)) {
    const document = { summary: summaryView(info), resources: info.resources.map(resourceView) };
    print(render(document, format as 'json' | 'yaml', () => ''));
    return;
  }
  show(print, format, summaryView(info));
  show(
    print,
    format,
    info.resources.map((r) => ({ ...resourceView(r), property_diff: diffText(r.diff) })),
  );
}
