import type { StackRecord, TemplateRecord } from '../../store/contract.js';
import {
  type DeferredConstraints,
  defineStackSteps,
  type StackDefinition,
} from '../../template/stack-definition.js';
import { parseSourceSteps, SourceDocument } from '../../template/source.js';
import { parseTemplateSteps } from '../../template/template.js';
import { getOwn, isPlainObject, type Json } from '../../util/json.js';
import { runSliced, type Sliceable } from '../../util/loop-slice.js';
import type { EngineDeps } from '../core/deps.js';
import { decodeDigests, derivedFrom } from '../core/digests-form.js';
import { headDigests, keepDigests, snippetDigest, type TemplateDigests, typeEntry } from '../core/digests.js';
import { bigYamlOffLoop, definitionOptions } from '../core/templates.js';
import { converged } from './update-diff.js';
import { acrossResources, type PartialScope, partialScopeSteps } from './partial-scope.js';
import { chunksText, type YamlChunks, yamlChunks } from '../../template/yaml-chunks.js';
import {
  type ChunkEdit,
  type ChunkLayout,
  changedChunks,
  chunkLayout,
  editChunks,
} from '../../template/yaml-window.js';

/*
 * An update that binds what changed: when the stack's template was bound with the same context
 * (update-diff.ts), only the resources an update planned from a diff visits are parsed and bound
 * (changed or new ones, those always visited, unsettled rows, and every dependent of these),
 * with the template's header (parameters, conditions, outputs). The others are stubs made from
 * the stored digests (type, requires): names a reference may name, nodes of the graph. Anything
 * this cannot vouch for takes the full bind: a changed context or outputs section, a resource
 * enabled by its condition again, a type with rules across resources (implicit dependencies,
 * cross checks), a CloudFormation-format template.
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
  const { stack, record } = input;
  const templateId = stack.templateId;
  if (!templateId || !converged(stack)) return undefined;
  // Block-style YAML is split into chunks and compared with the stack's template text, chunk by
  // chunk: nothing but the head and the bound chunks is parsed.
  const limits = deps.settings.limits;
  // Over the size limit: the full bind refuses it, in its words.
  if (Buffer.byteLength(record.template, 'utf8') > limits.maxDocumentBytes) return undefined;
  const text = record.template;
  // A JSON document is parsed whole; YAML is compared with the stack's text first.
  const yaml = text.charCodeAt(0) !== 0x7b;
  const [stored, unsettled, prevText] = await deps.store.tx(
    async (tx) =>
      [
        await tx.templates.digests(templateId),
        (await tx.resources.listUnsettled(stack.id)).map((row) => row.name),
        yaml ? (await tx.templates.get(templateId))?.template : undefined,
      ] as const,
  );
  const prev = decodeDigests(stored);
  if (!prev) return undefined;
  // Asked only of names the edit's lines add: the stored names' set is built for the first.
  let known: Set<string> | undefined;
  const had = (name: string) => (known ??= new Set([...prev.table.names, ...prev.disabled])).has(name);
  const edit =
    prevText !== undefined && prev.layout ? editChunks(prevText, text, prev.layout, had) : undefined;
  let found: Found | undefined;
  if (edit) found = await fromEdit(deps, input, prev, edit, unsettled);
  else {
    const chunks = yaml ? yamlChunks(text) : undefined;
    const changed = chunks && prevText !== undefined ? chunkChanges(prevText, text, chunks) : undefined;
    found =
      chunks && changed
        ? await fromChunks(deps, input, prev, chunks, changed, unsettled)
        : await fromDocument(deps, input, prev, unsettled);
  }
  if (!found) return undefined;
  const { source, scope, head, layout } = found;
  const options = definitionOptions(
    record,
    input.identity,
    deps.plugins.typeCatalog,
    limits,
    input.deferredConstraints,
  );
  const definition = await runSliced(
    (function* (): Sliceable<StackDefinition> {
      const template = yield* parseTemplateSteps(source);
      return yield* defineStackSteps(template, { ...options, stubs: scope.stubs });
    })(),
  );
  for (const name of scope.affected) {
    const impl = definition.resources.get(name)?.implementation;
    if (impl?.kind === 'plugin' && acrossResources(impl.info)) return undefined;
  }
  const section = (source.data as Record<string, Json>).resources as Record<string, Json>;
  const digests = digestsOf(
    definition,
    head,
    prev,
    scope.index,
    (name) => snippetDigest(section[name]),
    layout,
  );
  // Stored as the previous text with the bound resources' lines written again (digests-form.ts).
  derivedFrom(digests, prev);
  keepDigests(definition, digests);
  source.release();
  return { definition, prevTemplateId: templateId, removed: scope.removed, affected: scope.affected };
}

/**
 * Which chunks differ from the previous text's: found from the lines between the first and the
 * last difference of the two texts (yaml-window.ts), else by cutting the previous text whole.
 */
function chunkChanges(
  prevText: string,
  text: string,
  chunks: YamlChunks,
): ((name: string) => boolean) | undefined {
  const window = changedChunks(prevText, text, chunks);
  if (window) return (name) => window.has(name);
  const before = yamlChunks(prevText);
  return before && ((name) => before.resources.get(name) !== chunks.resources.get(name));
}

/** What a partial bind binds: the document of the head and the bound snippets, and its scope. */
interface Found {
  /** The full text, its data holding only the bound resources (errors are located in the text). */
  source: SourceDocument;
  scope: PartialScope;
  head: { context: string; outputs: string };
  /** The new text's chunk layout, when it was read in chunks. */
  layout?: ChunkLayout;
}

/** A template handed parsed (the API's body) or parsed here: each snippet's digest compared. */
async function fromDocument(
  deps: EngineDeps,
  input: PartialBindInput,
  prev: TemplateDigests,
  unsettled: readonly string[],
): Promise<Found | undefined> {
  const { record, parsed } = input;
  const limits = deps.settings.limits;
  const text = record.template;
  const parsedYaml = await bigYamlOffLoop(record, limits, parsed);
  const source = await runSliced(parseSourceSteps(record.url, text, limits, parsedYaml, parsed));
  // Parsed once: a full bind after all (a parameter changed...) takes this document.
  input.parsed = source;
  const data = source.data;
  if (!isPlainObject(data) || typeof getOwn(data, 'heat_template_version') !== 'string') return undefined;
  const doc = data as Record<string, Json>;
  const section = getOwn(doc, 'resources');
  if (!isPlainObject(section)) return undefined;
  const snippets = section as Record<string, Json>;
  const head = headDigests(doc, record, 'resources', 'outputs');
  if (head.context !== prev.context || head.outputs !== prev.outputs) return undefined;
  const stored = prev.table.snippets;
  const scope = await runSliced(
    partialScopeSteps(
      deps,
      prev,
      {
        names: Object.keys(snippets),
        changed: (name, i) => i === undefined || stored[i] !== snippetDigest(snippets[name]),
      },
      unsettled,
    ),
  );
  if (!scope) return undefined;
  const picked: Record<string, Json> = {};
  for (const name of scope.affected) picked[name] = snippets[name]!;
  const reduced = { ...doc, resources: picked };
  return { source: new SourceDocument(source.file, text, source.format, reduced, source.shape), scope, head };
}

/**
 * Block-style YAML (template/yaml-chunks.ts): each resource's chunk of text compared with the
 * stack's template's, and only the head and the bound chunks parsed.
 */
async function fromChunks(
  deps: EngineDeps,
  input: PartialBindInput,
  prev: TemplateDigests,
  chunks: YamlChunks,
  changed: (name: string) => boolean,
  unsettled: readonly string[],
): Promise<Found | undefined> {
  const { record } = input;
  const scope = await runSliced(
    partialScopeSteps(
      deps,
      prev,
      { names: chunks.names, changed: (name, i) => i === undefined || changed(name) },
      unsettled,
    ),
  );
  if (!scope) return undefined;
  return parseBound(deps, record, prev, scope, chunksText(chunks, scope.affected), chunkLayout(chunks));
}

/** Resources away from an edit looked up one by one (each a search of the text): at most these. */
const LOOKUPS = 32;

/** An edit of a text whose layout the stored digests have (yaml-window.ts): its lines alone read. */
async function fromEdit(
  deps: EngineDeps,
  input: PartialBindInput,
  prev: TemplateDigests,
  edit: ChunkEdit,
  unsettled: readonly string[],
): Promise<Found | undefined> {
  const { record } = input;
  const scope = await runSliced(partialScopeSteps(deps, prev, edit, unsettled));
  if (!scope) return undefined;
  const text = record.template;
  let whole: YamlChunks | undefined;
  const chunkOf =
    scope.affected.size <= LOOKUPS
      ? edit.chunkOf
      : (name: string) => (whole ??= yamlChunks(text))?.resources.get(name);
  // The lines before the resources (the head's, `resources:` among them), the bound chunks, the rest.
  const parts = [text.slice(0, edit.layout.start)];
  for (const name of scope.affected) {
    const chunk = chunkOf(name);
    if (chunk === undefined) return undefined;
    parts.push(chunk, '\n');
  }
  parts.push(text.slice(edit.layout.end));
  return parseBound(deps, record, prev, scope, parts.join(''), edit.layout);
}

/** The head and the bound chunks parsed, each chunk read as the one entry it was cut as. */
async function parseBound(
  deps: EngineDeps,
  record: TemplateRecord,
  prev: TemplateDigests,
  scope: PartialScope,
  text: string,
  layout: ChunkLayout | undefined,
): Promise<Found | undefined> {
  const limits = deps.settings.limits;
  let doc: SourceDocument;
  try {
    doc = await runSliced(parseSourceSteps(record.url, text, limits));
  } catch {
    // What the head and these chunks alone cannot say (an error): the whole document says it.
    return undefined;
  }
  const data = doc.data;
  if (!isPlainObject(data) || typeof getOwn(data, 'heat_template_version') !== 'string') return undefined;
  const section = getOwn(data, 'resources') ?? {};
  // Each chunk read as the one entry it was cut as, or the cut was wrong: the whole document.
  if (!isPlainObject(section)) return undefined;
  const keys = Object.keys(section);
  if (keys.length !== scope.affected.size || keys.some((name) => !scope.affected.has(name))) return undefined;
  const head = headDigests(data as Record<string, Json>, record, 'resources', 'outputs');
  if (head.context !== prev.context || head.outputs !== prev.outputs) return undefined;
  const reduced = { ...(data as Record<string, Json>), resources: section };
  const source = new SourceDocument(record.url, record.template, 'yaml', reduced, doc.shape);
  return { source, scope, head, ...(layout ? { layout } : {}) };
}

/** The new template's digests: the bound snippets' computed, the stubs' as stored (their snippets are the same). */
function digestsOf(
  definition: StackDefinition,
  head: { context: string; outputs: string },
  prev: TemplateDigests,
  index: ReadonlyMap<string, number>,
  digestOf: (name: string) => string,
  layout: ChunkLayout | undefined,
): TemplateDigests {
  const bound = definition.partial!;
  const names: string[] = [];
  const snippets: string[] = [];
  const types: string[] = [];
  const requires: (readonly string[])[] = [];
  for (const [name, resource] of definition.resources) {
    names.push(name);
    snippets.push(bound.has(name) ? digestOf(name) : prev.table.snippets[index.get(name)!]!);
    types.push(typeEntry(resource.implementation));
    requires.push(resource.requires);
  }
  const all = definition.template.resources;
  const disabled = [...bound].filter((name) => all.has(name) && !definition.resources.has(name));
  return { ...head, table: { names, snippets, types, requires }, disabled, ...(layout ? { layout } : {}) };
}
