import { createHash } from 'node:crypto';
import type { TemplateRecord } from '../../store/contract.js';
import type { StackDefinition } from '../../template/stack-definition.js';
import { getOwn, isPlainObject, type Json } from '../../util/json.js';
import { runSliced, type Sliceable } from '../../util/loop-slice.js';

/*
 * What an update compares to plan from a diff (update-diff.ts): a digest of each resource's
 * definition as written, and one of everything else its resolution can depend on. Stored with
 * the template row (`templates.digests`), so the previous template is never parsed again.
 */

export interface TemplateDigests {
  /**
   * Everything but the resources and outputs: the template's other sections (version,
   * parameters, conditions...), the environment (parameter values, registry), the files map,
   * the URL and a nested stack's facade. When it differs, an update takes the full path.
   */
  context: string;
  /** Per bound resource (conditions applied): its snippet, its type and the names it requires. */
  resources: Map<string, string>;
}

function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64').slice(0, 16);
}

/**
 * A snippet's JSON text. Keys keep the document's order: the same text gives the same digest,
 * and a reordered map only costs its resource a comparison (unchanged.ts), never a wrong skip.
 */
function textOf(value: Json | undefined): string {
  return value === undefined ? 'null' : JSON.stringify(value);
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

/** Computes and keeps a definition's digests (a bind's last step, before it releases the document). */
export function* keepDigestsSteps(definition: StackDefinition, record: TemplateRecord): Sliceable<void> {
  computed.set(definition, yield* digestsSteps(definition, record));
}

/** The digests of a bound template, in slices (100,000 resources take a few tenths of a second). */
function* digestsSteps(definition: StackDefinition, record: TemplateRecord): Sliceable<TemplateDigests> {
  const source = definition.template.source;
  const keyOf = (section: string) => (source.documentPath ? source.documentPath([section]) : [section])[0];
  const resourcesKey = keyOf('resources');
  const outputsKey = keyOf('outputs');
  const data = isPlainObject(source.data) ? (source.data as Record<string, Json>) : {};
  const rest: Record<string, Json> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key !== resourcesKey && key !== outputsKey) rest[key] = value;
  }
  const context = digest(
    textOf([
      rest,
      record.environment,
      record.files as Record<string, Json>,
      urlBase(record.url),
      (record.facade ?? null) as Json,
    ]),
  );
  const section = typeof resourcesKey === 'string' ? getOwn(data, resourcesKey) : undefined;
  const snippets = isPlainObject(section) ? (section as Record<string, Json>) : {};
  const resources = new Map<string, string>();
  let i = 0;
  for (const [name, resource] of definition.resources) {
    if (++i % 256 === 0) yield;
    const names = resource.requires;
    const requires = names.length < 2 ? (names[0] ?? '') : [...names].sort().join('\n');
    const text = `${textOf(getOwn(snippets, name))}\n${resource.implementation.type}\n${requires}`;
    resources.set(name, digest(text));
  }
  return { context, resources };
}

/** Stored form: `{"c": context, "r": {name: digest}}`. */
export function encodeDigests(digests: TemplateDigests): string {
  return JSON.stringify({ c: digests.context, r: Object.fromEntries(digests.resources) });
}

export function decodeDigests(text: string | undefined | null): TemplateDigests | undefined {
  if (!text) return undefined;
  const parsed = JSON.parse(text) as { c?: unknown; r?: unknown };
  if (typeof parsed.c !== 'string' || !isPlainObject(parsed.r)) return undefined;
  return { context: parsed.c, resources: new Map(Object.entries(parsed.r as Record<string, string>)) };
}

/**
 * What changed from `prev` to `next`: resources whose definition differs or that are new, and
 * those that went. Undefined when the context differs (every resource may resolve differently).
 */
export function diffDigests(
  prev: TemplateDigests,
  next: TemplateDigests,
): { changed: Set<string>; removed: string[] } | undefined {
  if (prev.context !== next.context) return undefined;
  const changed = new Set<string>();
  for (const [name, d] of next.resources) if (prev.resources.get(name) !== d) changed.add(name);
  const removed: string[] = [];
  for (const name of prev.resources.keys()) if (!next.resources.has(name)) removed.push(name);
  return { changed, removed };
}
