/*
 * A block-style YAML template split by a line scanner, without parsing it: its top-level
 * sections but `resources` (the head), and one chunk of text per resource. What an update that
 * binds what changed (engine/operations/partial-bind.ts) digests and parses piecewise, and what
 * lets the CLI skip parsing a template it only reads for file references (loader.ts).
 *
 * Only the plainest form qualifies: no tabs, anchors, aliases, tags, merge keys, directives or
 * document markers anywhere; plain top-level keys; a block `resources:` whose entries are plain
 * names at one indentation. Anything else is undefined, and its reader parses the whole text.
 */

export interface YamlChunks {
  /** The text of every top-level section but `resources`, in order. */
  head: string;
  /** Each resource's chunk (its key line through the line before the next key), by name. */
  resources: Map<string, string>;
  /** The names in the text's order, and where each chunk starts (yaml-window.ts compares by offsets). */
  names: string[];
  starts: number[];
  /** Where the last chunk's lines end: the next top-level key's line, or the text's end. */
  end: number;
  /** The indentation of the resources' keys. */
  indent: number;
}

/** Characters that may change what other lines mean (anchors, aliases, tags, tabs...). */
const UNSAFE = /[\t\r&*!%@`]/;
const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_]*)[ ]*:(?:[ ]+(.*))?$/;
/** Plain names YAML 1.1 reads as something other than a string. */
const SPECIAL = /^(y|n|yes|no|on|off|true|false|null)$/i;

export function yamlChunks(text: string): YamlChunks | undefined {
  if (text.charCodeAt(0) === 0xfeff || text.charCodeAt(0) === 0x7b) return undefined;
  if (UNSAFE.test(text) || text.includes('<<') || /^(---|\.\.\.)/m.test(text)) return undefined;
  const head: string[] = [];
  const resources = new Map<string, string>();
  const names: string[] = [];
  const starts: number[] = [];
  let sectionEnd = text.length;
  let inResources = false;
  let seenResources = false;
  let indent = -1;
  // The chunk being read: its name and where it starts in the text.
  let current: string | undefined;
  let from = 0;
  let end = 0;
  const close = () => {
    if (current !== undefined) resources.set(current, text.slice(from, end));
    current = undefined;
  };
  for (let pos = 0; pos < text.length;) {
    let next = text.indexOf('\n', pos);
    if (next < 0) next = text.length;
    let at = pos;
    while (at < next && text.charCodeAt(at) === 0x20) at++;
    const blank = at === next || text.charCodeAt(at) === 0x23;
    const indented = at - pos;
    if (!blank && indented === 0) {
      // A top-level key: the resources section ends, or starts.
      const line = text.slice(pos, next);
      const key = TOP_KEY.exec(line);
      if (!key) return undefined;
      if (inResources) {
        close();
        sectionEnd = pos;
      }
      inResources = key[1] === 'resources';
      if (inResources) {
        const rest = key[2]?.trim() ?? '';
        if (seenResources || (rest !== '' && !rest.startsWith('#'))) return undefined;
        seenResources = true;
      } else head.push(line);
    } else if (!inResources) {
      head.push(text.slice(pos, next));
    } else if (!blank) {
      if (indent < 0) indent = indented;
      if (indented < indent) return undefined;
      if (indented === indent) {
        const name = plainName(text, at);
        if (name === undefined || (name.length <= 5 && SPECIAL.test(name))) return undefined;
        if (resources.has(name) || name === current) return undefined;
        close();
        current = name;
        from = pos;
        names.push(name);
        starts.push(pos);
      }
      end = next;
    } else if (current !== undefined) {
      end = next;
    }
    pos = next + 1;
  }
  close();
  if (!seenResources) return undefined;
  return { head: head.join('\n'), resources, names, starts, end: sectionEnd, indent };
}

/**
 * The chunks of the lines `from` to `to` of a text whose resources' keys are at `indent`, read as
 * yamlChunks reads them (`from` starts a key line, `to` a line), or undefined where yamlChunks
 * would decline these lines: what yaml-window.ts reads of the previous text, the lines that changed.
 */
export function regionChunks(
  text: string,
  from: number,
  to: number,
  indent: number,
): Map<string, string> | undefined {
  const region = text.slice(from, to);
  if (UNSAFE.test(region) || region.includes('<<')) return undefined;
  const resources = new Map<string, string>();
  let current: string | undefined;
  let start = from;
  let end = from;
  for (let pos = from; pos < to;) {
    let next = text.indexOf('\n', pos);
    if (next < 0 || next > to) next = to;
    let at = pos;
    while (at < next && text.charCodeAt(at) === 0x20) at++;
    const blank = at === next || text.charCodeAt(at) === 0x23;
    if (!blank) {
      if (at - pos < indent) return undefined;
      if (at - pos === indent) {
        const name = plainName(text, at);
        if (name === undefined || (name.length <= 5 && SPECIAL.test(name))) return undefined;
        if (resources.has(name) || name === current) return undefined;
        if (current !== undefined) resources.set(current, text.slice(start, end));
        current = name;
        start = pos;
      } else if (current === undefined) return undefined;
    } else if (current === undefined) return undefined;
    end = next;
    pos = next + 1;
  }
  if (current !== undefined) resources.set(current, text.slice(start, end));
  return resources;
}

/**
 * The plain name of a `name:` key at `at` (letters, digits, `_.-`, not a digit first; a space or
 * the line's end after the colon), scanned by character code: 100,000 lines allocate no match.
 */
function plainName(text: string, at: number): string | undefined {
  let code = text.charCodeAt(at);
  if (!(isLetter(code) || code === 0x5f)) return undefined;
  let end = at + 1;
  for (; end < text.length; end++) {
    code = text.charCodeAt(end);
    if (!(
      isLetter(code) ||
      (code >= 0x30 && code <= 0x39) ||
      code === 0x5f ||
      code === 0x2e ||
      code === 0x2d
    ))
      break;
  }
  let colon = end;
  while (text.charCodeAt(colon) === 0x20) colon++;
  if (text.charCodeAt(colon) !== 0x3a) return undefined;
  const after = colon + 1;
  if (after < text.length && text.charCodeAt(after) !== 0x20 && text.charCodeAt(after) !== 0x0a)
    return undefined;
  return text.slice(at, end);
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** The document of the head and the given chunks: what a partial bind parses. */
export function chunksText(chunks: YamlChunks, names: Iterable<string>): string {
  const parts = [chunks.head, 'resources:'];
  for (const name of names) parts.push(chunks.resources.get(name)!);
  return `${parts.join('\n')}\n`;
}
