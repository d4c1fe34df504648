import { isNestedPlugin } from '../../resources/nested-type.js';
import type { StackRecord, TemplateRecord } from '../../store/contract.js';
import type { ParentFacade } from '../../template/facade.js';
import {
  type DeferredConstraints,
  defineStackSteps,
  type StackDefinition,
} from '../../template/stack-definition.js';
import { parseSourceSteps, SLICED_JSON_BYTES, SourceDocument, sourceFormat } from '../../template/source.js';
import { yamlToJsonOffLoop } from '../../template/yaml-off-loop.js';
import type { ResourceStubs } from '../../template/stubs.js';
import { parseTemplateSteps } from '../../template/template.js';
import type { ResourceTypeInfo } from '../../template/types.js';
import { getOwn, isPlainObject, type Json } from '../../util/json.js';
import { runSliced, type Sliceable } from '../../util/loop-slice.js';
import type { EngineDeps } from '../core/deps.js';
import {
  decodeDigests,
  headDigests,
  keepDigests,
  kindLetter,
  snippetDigest,
  type TemplateDigests,
} from '../core/digests.js';
import { environmentFromJSON } from '../core/templates.js';
import { CONVERGING, withDependents } from './update-diff.js';

/*
 * An update that binds what changed: when the stack's template was bound with the same context
 * (update-diff.ts), only the resources an update planned from a diff visits are parsed and bound
 * (changed or new ones, those always visited, unsettled rows, and every dependent of these),
 * with the template's header (parameters, conditions, outputs). The others are stubs made from
 * the stored digests (type, requires): names a reference may name, nodes of the graph. Anything
 * this cannot vouch for takes the full bind: a changed context or outputs section, a resource
 * enabled by its condition again, a type with rules across resources (implicit dependencies,
 * cross checks), a CloudFormation-format template, a document not handed over parsed.
 */

/** What a partial bind found: its definition (core/templates.ts keeps it apart) and the diff. */
export interface PartialBind {
  definition: StackDefinition;
  /** The stack's template the diff is from: a plan against another one takes the full bind. */
  prevTemplateId: string;
  removed: readonly string[];
  /** The resources bound: what the update visits. */
  affected: ReadonlySet<string>;
}

export interface PartialBindInput {
  stack: StackRecord;
  record: TemplateRecord;
  parsed: SourceDocument | undefined;
  identity: { stackId: string; stackName: string; projectId: string; topLevel?: boolean };
  deferredConstraints?: DeferredConstraints;
}

/** The partial bind of an update, or undefined when the full bind is needed. */
export async function partialBind(
  deps: EngineDeps,
  input: PartialBindInput,
): Promise<PartialBind | undefined> {
  const { stack, record, parsed } = input;
  const templateId = stack.templateId;
  if (!templateId || !stack.convergence) return undefined;
  if (stack.status !== 'COMPLETE' || !CONVERGING.has(stack.action)) return undefined;
  const limits = deps.settings.limits;
  // The document is parsed whole (by its sender, else here: a big YAML one by a worker thread).
  const text = record.template;
  const bigYaml = !parsed && text.length >= SLICED_JSON_BYTES && sourceFormat(text) === 'yaml';
  const parsedYaml = bigYaml ? await yamlToJsonOffLoop(text, limits.maxDocumentDepth) : undefined;
  const source = await runSliced(parseSourceSteps(record.url, text, limits, parsedYaml, parsed));
  const data = source.data;
  if (!isPlainObject(data) || typeof getOwn(data, 'heat_template_version') !== 'string') return undefined;
  const doc = data as Record<string, Json>;
  const section = getOwn(doc, 'resources');
  if (!isPlainObject(section)) return undefined;
  const snippets = section as Record<string, Json>;
  const [stored, unsettled] = await deps.store.tx(
    async (tx) =>
      [await tx.templates.digests(templateId), await tx.resources.listUnsettled(stack.id)] as const,
  );
  const prev = decodeDigests(stored);
  if (!prev) return undefined;
  const head = headDigests(doc, record, 'resources', 'outputs');
  if (head.context !== prev.context || head.outputs !== prev.outputs) return undefined;
  const plan = await runSliced(
    affectedSteps(
      deps,
      prev,
      snippets,
      unsettled.map((row) => row.name),
    ),
  );
  if (!plan) return undefined;
  const { affected, removed, stubs, digests } = plan;

  // The template with only the bound resources (paths and positions stay those of the document).
  const picked: Record<string, Json> = {};
  for (const name of affected) picked[name] = snippets[name]!;
  const partial = new SourceDocument(
    source.file,
    source.text,
    source.format,
    { ...doc, resources: picked },
    source.shape,
  );
  const definition = await runSliced(
    (function* (): Sliceable<StackDefinition> {
      const template = yield* parseTemplateSteps(partial);
      return yield* defineStackSteps(template, {
        ...(input.deferredConstraints ? { deferredConstraints: input.deferredConstraints } : {}),
        files: record.files,
        environment: environmentFromJSON(record.environment, limits),
        ...(record.facade ? { facade: record.facade as unknown as ParentFacade } : {}),
        ...(input.identity.topLevel ? { topLevel: true } : {}),
        strict: true,
        types: deps.plugins.typeCatalog,
        limits,
        stackId: input.identity.stackId,
        stackName: input.identity.stackName,
        projectId: input.identity.projectId,
        stubs,
      });
    })(),
  );
  for (const name of affected) {
    const impl = definition.resources.get(name)?.implementation;
    if (impl?.kind === 'plugin' && acrossResources(impl.info)) return undefined;
  }
  keepDigests(definition, digestsOf(definition, head, digests));
  return { definition, prevTemplateId: templateId, removed, affected };
}

/** Types whose binding reads other resources' snippets: a partial bind cannot vouch for them. */
function acrossResources(info: ResourceTypeInfo): boolean {
  return (info.implicitDependencies?.length ?? 0) > 0 || info.crossCheck !== undefined;
}

interface AffectedPlan {
  affected: Set<string>;
  removed: string[];
  stubs: ResourceStubs;
  /** The new snippets' digests. */
  digests: Map<string, string>;
}

/**
 * The resources to bind: changed or new ones, those always visited, unsettled ones, and every
 * dependent of these or of a removed name (through the stored requires: a resource that did not
 * change requires what it required). Undefined when the stored types cannot stand in.
 */
function* affectedSteps(
  deps: EngineDeps,
  prev: TemplateDigests,
  snippets: Record<string, Json>,
  unsettled: readonly string[],
): Sliceable<AffectedPlan | undefined> {
  const { names, snippets: before, types, requires } = prev.table;
  // A name disabled by its condition may be enabled now: what required it (depends_on) changes.
  for (const name of prev.disabled) if (Object.hasOwn(snippets, name)) return undefined;
  const index = new Map<string, number>();
  for (let i = 0; i < names.length; i++) index.set(names[i]!, i);
  const seeds: string[] = [];
  const digests = new Map<string, string>();
  let step = 0;
  for (const name of Object.keys(snippets)) {
    if (++step % 256 === 0) yield;
    const d = snippetDigest(snippets[name]);
    digests.set(name, d);
    const i = index.get(name);
    if (i === undefined || before[i] !== d) seeds.push(name);
  }
  const removed = names.filter((name) => !Object.hasOwn(snippets, name));
  const infos = new Map<string, ResourceTypeInfo | undefined>();
  for (let i = 0; i < names.length; i++) {
    const typed = types[i]!;
    if (!infos.has(typed)) {
      const info = typed.startsWith('p:') ? deps.plugins.typeCatalog.get(typed.slice(2)) : undefined;
      if (info && acrossResources(info)) return undefined;
      infos.set(typed, info);
    }
    if (alwaysVisited(deps, typed, infos.get(typed))) seeds.push(names[i]!);
  }
  for (const name of unsettled) if (index.has(name)) seeds.push(name);
  const neededBy = new Map<string, string[]>();
  for (let i = 0; i < names.length; i++) {
    for (const required of requires[i]!) {
      const list = neededBy.get(required);
      if (list) list.push(names[i]!);
      else neededBy.set(required, [names[i]!]);
    }
  }
  const affected = withDependents((name) => neededBy.get(name) ?? [], [...seeds, ...removed]);
  for (const name of removed) affected.delete(name);
  const stubs = new Map<string, { type: string; info: ResourceTypeInfo; requires: readonly string[] }>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (affected.has(name) || !Object.hasOwn(snippets, name)) continue;
    stubs.set(name, { type: types[i]!.slice(2), info: infos.get(types[i]!)!, requires: requires[i]! });
  }
  return { affected, removed, stubs: { all: new Set(Object.keys(snippets)), resources: stubs }, digests };
}

/** Types whose node runs at every update (update-diff.ts), and stored kinds that are not a plugin's. */
function alwaysVisited(deps: EngineDeps, typed: string, info: ResourceTypeInfo | undefined): boolean {
  if (!typed.startsWith('p:') || !info) return true;
  const plugin = deps.plugins.plugin(typed.slice(2));
  return !plugin || isNestedPlugin(plugin) || plugin.replacedOnUpdate === true;
}

/** The new template's digests: every snippet's digested already, types and requires as bound (or stubbed). */
function digestsOf(
  definition: StackDefinition,
  head: { context: string; outputs: string },
  digests: ReadonlyMap<string, string>,
): TemplateDigests {
  const names: string[] = [];
  const snippets: string[] = [];
  const types: string[] = [];
  const requires: (readonly string[])[] = [];
  for (const [name, resource] of definition.resources) {
    names.push(name);
    snippets.push(digests.get(name)!);
    types.push(`${kindLetter(resource.implementation.kind)}:${resource.implementation.type}`);
    requires.push(resource.requires);
  }
  const disabled = [...digests.keys()].filter((name) => !definition.resources.has(name));
  return { ...head, table: { names, snippets, types, requires }, disabled };
}
