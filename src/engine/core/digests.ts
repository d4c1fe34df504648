import { createHash } from 'node:crypto';
import type { TemplateRecord } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { getOwn, isPlainObject, type Json } from '../../util/json.js';
import { runSliced, type Sliceable } from '../../util/loop-slice.js';
import { yamlChunks } from '../../template/yaml-chunks.js';
import { type ChunkLayout, chunkLayout } from '../../template/yaml-window.js';

/*
 * What an update compares to plan from a diff (update-diff.ts), and what a partial bind stands
 * unchanged resources in with (partial-bind.ts): per bound resource the digest of its snippet as
 * written, its type, kind and the names it requires; one digest of everything else its resolution
 * can depend on, one of the outputs. Stored with the template (one line per resource: digests-form.ts),
 * so the previous template is never parsed again and decodes in milliseconds.
 */

/** One kind letter per implementation: plugin, template (nested stack), unknown. */
type KindLetter = 'p' | 't' | 'u';

/** The bound resources of a template, in parallel arrays (one entry per resource, not an object each). */
export interface ResourceTable {
  readonly names: readonly string[];
  /** The digest of each resource's snippet as written (DIGEST_CHARS characters). */
  readonly snippets: readonly string[];
  /** `<kind letter>:<type>`: the resolved type, and how it is implemented. */
  readonly types: readonly string[];
  readonly requires: readonly (readonly string[])[];
}

export interface TemplateDigests {
  /**
   * Everything but the resources and outputs: the template's other sections (version,
   * parameters, conditions...), the environment (parameter values, registry), the files map,
   * the URL and a nested stack's facade. When it differs, an update takes the full path.
   */
  context: string;
  /** The outputs section. */
  outputs: string;
  table: ResourceTable;
  /** Names in the resources section left out by their condition. */
  disabled: readonly string[];
  /**
   * Where the text's resources lie when it is block-style YAML cut into chunks that name the
   * section's resources (template/yaml-window.ts): the next update reads only what changed.
   */
  layout?: ChunkLayout;
}

export const DIGEST_CHARS = 16;

function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64').slice(0, DIGEST_CHARS);
}

/**
 * A snippet's digest, from its JSON text. Keys keep the document's order: the same text gives the
 * same digest, and a reordered map only costs its resource a comparison (unchanged.ts), never a
 * wrong skip.
 */
export function snippetDigest(value: Json | undefined): string {
  return digest(value === undefined ? 'null' : JSON.stringify(value));
}

/**
 * What of a template's URL its resolution reads: relative references (get_file, nested template
 * types) resolve against its directory, so an update from another file of the same directory
 * keeps the diff. A query or fragment may change what a bare `?x` reference means: kept whole.
 */
function urlBase(url: string | null | undefined): string | null {
  if (!url) return null;
  return /[?#]/.test(url) ? url : url.slice(0, url.lastIndexOf('/') + 1);
}

/** The key of `section` in a document (a CloudFormation-format template spells `resources` `Resources`). */
export function sectionKey(source: StackDefinition['template']['source'], section: string): string {
  return String((source.documentPath ? source.documentPath([section]) : [section])[0]);
}

/** The context and outputs digests of a template document (see TemplateDigests). */
export function headDigests(
  data: Record<string, Json>,
  record: TemplateRecord,
  resourcesKey: string,
  outputsKey: string,
): { context: string; outputs: string } {
  const rest: Record<string, Json> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key !== resourcesKey && key !== outputsKey) rest[key] = value;
  }
  const context = snippetDigest([
    rest,
    record.environment,
    record.files as Record<string, Json>,
    urlBase(record.url),
    (record.facade ?? null) as Json,
  ]);
  return { context, outputs: snippetDigest(getOwn(data, outputsKey) as Json | undefined) };
}

function kindLetter(kind: string): KindLetter {
  return kind === 'plugin' ? 'p' : kind === 'template' ? 't' : 'u';
}

/** A resource's entry in `ResourceTable.types`. */
export function typeEntry(implementation: { kind: string; type: string }): string {
  return `${kindLetter(implementation.kind)}:${implementation.type}`;
}

/** Digests computed while a bind still held its document (bindTemplateSliced's `digests`). */
const computed = new WeakMap<StackDefinition, TemplateDigests>();

/**
 * The digests of a bound template: those its bind computed, or computed now (parsing the text
 * again if the bind released its document).
 */
export async function digestsOf(
  definition: StackDefinition,
  record: TemplateRecord,
): Promise<TemplateDigests> {
  return computed.get(definition) ?? runSliced(digestsSteps(definition, record));
}

/** Records the digests of a definition built with them (a partial bind's). */
export function keepDigests(definition: StackDefinition, digests: TemplateDigests): void {
  computed.set(definition, digests);
}

/** Computes and keeps a definition's digests (a bind's last step, before it releases the document). */
export function* keepDigestsSteps(definition: StackDefinition, record: TemplateRecord): Sliceable<void> {
  computed.set(definition, yield* digestsSteps(definition, record));
}

/** The digests of a bound template, in slices (100,000 resources take a few tenths of a second). */
function* digestsSteps(definition: StackDefinition, record: TemplateRecord): Sliceable<TemplateDigests> {
  const source = definition.template.source;
  const resourcesKey = sectionKey(source, 'resources');
  const data = isPlainObject(source.data) ? (source.data as Record<string, Json>) : {};
  const head = headDigests(data, record, resourcesKey, sectionKey(source, 'outputs'));
  const section = getOwn(data, resourcesKey);
  const snippets = isPlainObject(section) ? (section as Record<string, Json>) : {};
  const names: string[] = [];
  const digests: string[] = [];
  const types: string[] = [];
  const requires: (readonly string[])[] = [];
  let i = 0;
  for (const [name, resource] of definition.resources) {
    if (++i % 256 === 0) yield;
    names.push(name);
    digests.push(snippetDigest(getOwn(snippets, name)));
    types.push(typeEntry(resource.implementation));
    requires.push(resource.requires);
  }
  const keys = Object.keys(snippets);
  const disabled = keys.filter((name) => !definition.resources.has(name));
  const layout = resourcesKey === 'resources' ? layoutOf(record.template, keys) : undefined;
  return {
    ...head,
    table: { names, snippets: digests, types, requires },
    disabled,
    ...(layout ? { layout } : {}),
  };
}

/** The layout of a text's chunks, when they name the parsed resources section's keys, in order. */
function layoutOf(text: string, keys: readonly string[]): ChunkLayout | undefined {
  const chunks = yamlChunks(text);
  if (!chunks || chunks.names.length !== keys.length) return undefined;
  for (let i = 0; i < keys.length; i++) if (chunks.names[i] !== keys[i]) return undefined;
  return chunkLayout(chunks);
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  if (a.length === 1) return a[0] === b[0];
  const sorted = [...b].sort();
  return [...a].sort().every((name, i) => name === sorted[i]);
}

/**
 * What changed from `prev` to `next` (both bound whole): resources whose snippet, type or
 * requirements differ or that are new, and those that went. Undefined when the context differs
 * (every resource may resolve differently).
 */
export function diffDigests(
  prev: TemplateDigests,
  next: TemplateDigests,
): { changed: Set<string>; removed: string[] } | undefined {
  if (prev.context !== next.context) return undefined;
  const before = new Map<string, number>();
  prev.table.names.forEach((name, i) => before.set(name, i));
  const changed = new Set<string>();
  const { names, snippets, types, requires } = next.table;
  for (let i = 0; i < names.length; i++) {
    const j = before.get(names[i]!);
    const same =
      j !== undefined &&
      prev.table.snippets[j] === snippets[i] &&
      prev.table.types[j] === types[i] &&
      sameNames(prev.table.requires[j]!, requires[i]!);
    if (!same) changed.add(names[i]!);
    before.delete(names[i]!);
  }
  return { changed, removed: [...before.keys()] };
}
