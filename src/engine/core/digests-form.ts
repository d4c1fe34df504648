import type { ChunkLayout } from '../../template/yaml-window.js';
import { DIGEST_CHARS, type TemplateDigests } from './digests.js';

/*
 * The stored form of a template's digests (core/digests.ts): a first line of JSON with all but
 * the resources (`v`: 3, context, outputs, disabled names, layout), then one line per resource,
 * `name TAB digest TAB type [TAB required name]...`. A resource's line depends on it alone, so the
 * store, which keeps texts in pieces cut by their lines (util/text-pieces.ts; the first line a
 * piece of its own), stores again only the lines around a changed resource. A field with a tab, a
 * line break or a leading `"` is written as a JSON string.
 */

const ESCAPE = /[\t\n\r]/;
const NO_NAMES: readonly string[] = Object.freeze([]);

function field(value: string): string {
  return value.charCodeAt(0) === 0x22 || ESCAPE.test(value) ? JSON.stringify(value) : value;
}

function unfield(value: string): string {
  return value.charCodeAt(0) === 0x22 ? (JSON.parse(value) as string) : value;
}

/** Digests decoded from a text of this form: the text, and where each resource's line starts. */
const sources = new WeakMap<TemplateDigests, { text: string; starts: Int32Array }>();
/** Digests made from others by changing a few resources (a partial bind's): what they came from. */
const bases = new WeakMap<TemplateDigests, TemplateDigests>();

/** Records that `next` is `prev` with a few resources changed: its text is patched from prev's. */
export function derivedFrom(next: TemplateDigests, prev: TemplateDigests): void {
  bases.set(next, prev);
}

function summaryLine(digests: TemplateDigests, readable: boolean): string {
  return JSON.stringify({
    v: readable ? 3 : 0,
    c: digests.context,
    o: digests.outputs,
    x: digests.disabled,
    ...(digests.layout ? { l: [digests.layout.start, digests.layout.end, digests.layout.indent] } : {}),
  });
}

function resourceLine(table: TemplateDigests['table'], i: number, typeField: string): string {
  let line = `${field(table.names[i]!)}\t${table.snippets[i]!}\t${typeField}`;
  for (const name of table.requires[i]!) line += `\t${field(name)}`;
  return line;
}

export function encodeDigests(digests: TemplateDigests): string {
  const patched = patchOf(digests);
  if (patched !== undefined) return patched;
  const { names, types, requires } = digests.table;
  const bound = new Set(names);
  // A name required but not bound (never, for a definition that bound): stored as unreadable.
  let readable = true;
  const lines: string[] = new Array<string>(names.length + 1);
  // Neighbours mostly share a type: written once per run of them.
  let lastType: string | undefined;
  let typeField = '';
  for (let i = 0; i < names.length; i++) {
    if (types[i] !== lastType) typeField = field((lastType = types[i]!));
    for (const name of requires[i]!) if (!bound.has(name)) readable = false;
    lines[i + 1] = resourceLine(digests.table, i, typeField);
  }
  lines[0] = summaryLine(digests, readable);
  return lines.join('\n');
}

/** Changed lines past which the whole text is written again. */
const PATCH_LINES = 256;

function indexOf(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let k = 0; k < names.length; k++) index.set(names[k]!, k);
  return index;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The text of digests derived from decoded ones with the same names: the old text with the changed
 * resources' lines written again, in the old text's order (a partial bind's definition lists its
 * bound resources first; the table's order means nothing, each entry is found by its name).
 */
function patchOf(digests: TemplateDigests): string | undefined {
  const prev = bases.get(digests);
  const source = prev && sources.get(prev);
  if (!prev || !source) return undefined;
  const next = digests.table;
  const old = prev.table;
  const n = next.names.length;
  if (n !== old.names.length) return undefined;
  // Old line j → next entry i: the same place until the orders differ, then by name.
  let byName: Map<string, number> | undefined;
  const changed: [number, number][] = [];
  for (let j = 0; j < n; j++) {
    let i = j;
    if (byName !== undefined || next.names[j] !== old.names[j]) {
      byName ??= indexOf(next.names);
      const k = byName.get(old.names[j]!);
      if (k === undefined) return undefined;
      i = k;
    }
    if (
      next.snippets[i] !== old.snippets[j] ||
      next.types[i] !== old.types[j] ||
      !sameList(next.requires[i]!, old.requires[j]!)
    ) {
      changed.push([j, i]);
      if (changed.length > PATCH_LINES) return undefined;
    }
  }
  // The unchanged lines required bound names (their text decoded); the changed ones are checked.
  let bound: Set<string> | undefined;
  let readable = true;
  const { text, starts } = source;
  const parts = [summaryLine(digests, true)];
  let at = n === 0 ? text.length : starts[0]! - 1;
  for (const [j, i] of changed) {
    for (const name of next.requires[i]!) if (!(bound ??= new Set(next.names)).has(name)) readable = false;
    parts.push(text.slice(at, starts[j]!), resourceLine(next, i, field(next.types[i]!)));
    at = j + 1 < n ? starts[j + 1]! - 1 : text.length;
  }
  parts.push(text.slice(at));
  if (!readable) parts[0] = summaryLine(digests, false);
  return parts.join('');
}

/** The stored digests; undefined for none, or those of an older form (the full comparison then). */
export function decodeDigests(text: string | undefined | null): TemplateDigests | undefined {
  if (!text) return undefined;
  if (text.startsWith('{"v":2,')) return decodeV2(text);
  let first = text.indexOf('\n');
  if (first < 0) first = text.length;
  let summary: Record<string, unknown>;
  try {
    summary = JSON.parse(text.slice(0, first)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { c, o, x, l } = summary;
  if (summary.v !== 3 || typeof c !== 'string' || typeof o !== 'string' || !Array.isArray(x))
    return undefined;
  const names: string[] = [];
  const snippets: string[] = [];
  const types: string[] = [];
  const requires: (readonly string[])[] = [];
  // One string per distinct type, not one per resource.
  const typeNames = new Map<string, string>();
  let lastWritten = '';
  let lastType = '';
  // Fields found by scanning for tabs: no array per line.
  const starts: number[] = [];
  for (let pos = first + 1; pos < text.length;) {
    starts.push(pos);
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const tab1 = text.indexOf('\t', pos);
    const tab2 = tab1 < 0 ? -1 : text.indexOf('\t', tab1 + 1);
    if (tab2 < 0 || tab2 > end || tab2 - tab1 - 1 !== DIGEST_CHARS) return undefined;
    let tab3 = text.indexOf('\t', tab2 + 1);
    if (tab3 < 0 || tab3 > end) tab3 = end;
    names.push(unfield(text.slice(pos, tab1)));
    snippets.push(text.slice(tab1 + 1, tab2));
    const written = text.slice(tab2 + 1, tab3);
    // Neighbours mostly share a type: compared with the last before a lookup.
    if (written !== lastWritten) {
      lastWritten = written;
      const known = typeNames.get(written);
      lastType = known ?? unfield(written);
      if (known === undefined) typeNames.set(written, lastType);
    }
    types.push(lastType);
    if (tab3 === end) requires.push(NO_NAMES);
    else {
      const rest = text.slice(tab3 + 1, end);
      requires.push(rest.includes('\t') ? rest.split('\t').map(unfield) : [unfield(rest)]);
    }
    pos = end + 1;
  }
  const decoded: TemplateDigests = {
    context: c,
    outputs: o,
    table: { names, snippets, types, requires },
    disabled: x as string[],
    ...layoutOf(l),
  };
  sources.set(decoded, { text, starts: Int32Array.from(starts) });
  return decoded;
}

function layoutOf(l: unknown): { layout?: ChunkLayout } {
  return Array.isArray(l) && l.length === 3 && l.every((v) => Number.isInteger(v))
    ? { layout: { start: l[0] as number, end: l[1] as number, indent: l[2] as number } }
    : {};
}

/** The form stored before schema 26 (one JSON document, indices for the required names). */
function decodeV2(text: string): TemplateDigests | undefined {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const { c, o, n, d, t, k, r, x, l } = parsed;
  if (parsed.v !== 2 || typeof c !== 'string' || typeof o !== 'string' || typeof d !== 'string')
    return undefined;
  if (
    !Array.isArray(n) ||
    !Array.isArray(t) ||
    !Array.isArray(k) ||
    !Array.isArray(x) ||
    typeof r !== 'string'
  )
    return undefined;
  const names = n as string[];
  const snippets: string[] = new Array<string>(names.length);
  const types: string[] = new Array<string>(names.length);
  const requires: (readonly string[])[] = new Array<readonly string[]>(names.length);
  const edges = names.length === 0 ? [] : r.split(';');
  if (edges.length !== names.length || d.length !== names.length * DIGEST_CHARS) return undefined;
  for (let i = 0; i < names.length; i++) {
    snippets[i] = d.slice(i * DIGEST_CHARS, (i + 1) * DIGEST_CHARS);
    types[i] = t[k[i] as number] as string;
    const e = edges[i]!;
    // Most resources require none or one: no list of their own, no split.
    if (e === '') {
      requires[i] = NO_NAMES;
      continue;
    }
    const required: string[] = [];
    for (const j of e.includes(',') ? e.split(',') : [e]) {
      const name = names[Number(j)];
      if (name === undefined) return undefined;
      required.push(name);
    }
    requires[i] = required;
  }
  const layout =
    Array.isArray(l) && l.length === 3 && l.every((v) => Number.isInteger(v))
      ? { start: l[0] as number, end: l[1] as number, indent: l[2] as number }
      : undefined;
  return {
    context: c,
    outputs: o,
    table: { names, snippets, types, requires },
    disabled: x as string[],
    ...(layout ? { layout } : {}),
  };
}
