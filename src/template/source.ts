import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type ParsedNode,
  parseDocument,
  type YAMLError,
  type Node as YamlNode,
} from 'yaml';
import type { Json } from '../util/json.js';
import { parseJsonSteps } from '../util/json-sliced.js';
import { runToEnd, type Sliceable } from '../util/loop-slice.js';
import { type DocPath, type SourcePosition, TemplateError } from './errors.js';
import { DEFAULT_LIMITS, type TemplateLimits } from './limits.js';
import { FastYamlDepthError, FastYamlError, loadYamlFast, loadYamlLenient } from './yaml-fast.js';

/**
 * A parsed document together with where it came from. Positions are found lazily: the text is
 * parsed again only when an error needs a line and column, so that large templates carry no
 * per-node position table in memory.
 */
export class SourceDocument {
  private located: { doc: Document.Parsed; lines: LineCounter } | undefined;
  /**
   * Turns a path in the model's terms into this document's (a CloudFormation-format template
   * spells `resources` `Resources`): set when the template's format is known.
   */
  documentPath: ((path: DocPath) => DocPath) | undefined;

  /** The parsed data; undefined once released (see `release`). */
  private held: Json | undefined;
  private released = false;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly format: 'yaml' | 'json',
    data: Json,
    /** Its node count and deepest container, as `checkShape` measured them (when it did). */
    readonly shape?: DocumentShape,
  ) {
    this.held = data;
  }

  /** The document's data: parsed again from the text (a new copy each time) once released. */
  get data(): Json {
    if (!this.released) return this.held as Json;
    // The text parsed before: no limit refuses it now (every size limit is at least its own).
    const size = this.shape ?? { nodes: Infinity, depth: Infinity };
    return parseSource(this.file, this.text, {
      maxDocumentBytes: Infinity,
      maxDocumentDepth: Math.max(size.depth, 1),
      maxDocumentNodes: size.nodes,
      maxAliasCount: Infinity,
    }).data;
  }

  /**
   * Lets the data go once a template is bound: what is kept of it is what the bound definition
   * shares, so a cached definition does not hold a second form of the whole document (a
   * 1,000,000-resource one: hundreds of MiB). Rare readers after that (showing the template)
   * parse the text again.
   */
  release(): void {
    this.released = true;
    this.held = undefined;
  }

  /** The position of the node at `path`, or of its nearest existing ancestor. */
  positionOf(path: DocPath): SourcePosition | undefined {
    this.located ??= parseYamlDocument(this.text, this.format);
    const { doc, lines } = this.located;
    let node: unknown = doc.contents;
    let offset: number | undefined = (node as ParsedNode | null)?.range?.[0];
    for (const part of path) {
      if (isAlias(node)) node = node.resolve(doc);
      if (isMap(node)) {
        const pair = node.items.findLast(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part),
        );
        if (!pair) break;
        offset = (pair.key as ParsedNode).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof part === 'number' && part < node.items.length) {
        node = node.items[part];
        offset = (node as ParsedNode | null)?.range?.[0] ?? offset;
      } else {
        break;
      }
    }
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  }

  /** Attaches this document's file and the error path's position to an error raised inside it. */
  annotate<E>(err: E): E {
    if (err instanceof TemplateError && err.file === undefined) {
      if (this.documentPath) err.path = this.documentPath(err.path);
      err.locate(this.file, this.positionOf(err.path));
    }
    return err;
  }
}

/**
 * Parses a template or environment as Heat does: JSON when the text starts with `{`, otherwise
 * YAML 1.1 (`yes`/`no` are booleans) where timestamps stay strings, so `2018-08-31` is a version
 * string and not a date.
 */
export function parseSource(
  file: string,
  text: string,
  limits: SourceLimits = DEFAULT_LIMITS,
): SourceDocument {
  return runToEnd(parseSourceSteps(file, text, limits));
}

type SourceLimits = Pick<
  TemplateLimits,
  'maxDocumentBytes' | 'maxDocumentDepth' | 'maxDocumentNodes' | 'maxAliasCount'
>;

/** Heat's rule exactly: JSON only when the very first character (after a byte order mark) is `{`. */
export function sourceFormat(text: string): 'json' | 'yaml' {
  return text.charCodeAt(text.charCodeAt(0) === 0xfeff ? 1 : 0) === 0x7b ? 'json' : 'yaml';
}

/** How big a parsed document is: every limit on its shape can be checked again from these alone. */
export interface DocumentShape {
  nodes: number;
  /** The depth of its deepest map or list (the root is 1; 0 for a scalar document). */
  depth: number;
}

/** JSON texts from this size on are parsed in slices (a native JSON.parse of 7 MB takes ~0.2 s). */
export const SLICED_JSON_BYTES = 256 * 1024;

/**
 * `parseSource` as sliceable work (util/loop-slice.ts): a big JSON document (what heatclient
 * sends) parses and is checked in slices; YAML still parses in one call.
 */
export function* parseSourceSteps(
  file: string,
  text: string,
  limits: SourceLimits = DEFAULT_LIMITS,
  /** The document as JSON text, when a worker has parsed the YAML already (yaml-off-loop.ts). */
  parsedYaml?: string,
  /**
   * The same text parsed already (the CLI's loader parsed it to find its files; the API's body
   * parser): its data serves when it is this file's and this text's, and its shape within these
   * limits.
   */
  parsed?: SourceDocument,
): Sliceable<SourceDocument> {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxDocumentBytes) {
    throw new TemplateError(
      'limit',
      // Heat's words (heat/common/template_format.py), for environments too.
      `Template size (${bytes} bytes) exceeds maximum allowed size (${limits.maxDocumentBytes} bytes).`,
      [],
      { file },
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const format = sourceFormat(text);
  if (parsed && parsed.file === file && parsed.text === text && parsed.format === format) {
    const known = parsed.shape;
    if (known && known.nodes <= limits.maxDocumentNodes && known.depth <= limits.maxDocumentDepth) {
      return new SourceDocument(file, text, format, parsed.data, known);
    }
    // Not measured (the API's request body) or over these limits: checked here, in the same words.
    if (!known) {
      const shape = yield* checkShape(file, parsed.data, limits, true);
      return new SourceDocument(file, text, format, parsed.data, shape);
    }
  }
  let data: Json;
  try {
    if (format === 'yaml' && parsedYaml !== undefined) {
      data = (yield* parseJsonSteps(parsedYaml)) as Json;
    } else if (format === 'json' && text.length >= SLICED_JSON_BYTES) {
      try {
        data = (yield* parseJsonSteps(text)) as Json;
      } catch (err) {
        if (!(err instanceof SyntaxError)) throw err;
        data = parseJson(file, text); // throws, with the line and column
      }
    } else data = format === 'json' ? parseJson(file, text) : parseYaml(file, text, limits);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new TemplateError('limit', 'document is nested too deeply to parse', [], { file });
    }
    throw err;
  }
  // JSON.parse makes strings of their own; a JSON text parsed in slices is the one kept.
  const shape = yield* checkShape(file, data, limits, format === 'yaml');
  return new SourceDocument(file, text, format, data, shape);
}

function parseJson(file: string, text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    // JSON.parse reports an offset at best; the YAML parser (JSON is YAML) gives a line and column.
    const { doc, lines } = parseYamlDocument(text, 'json');
    const first = doc.errors[0];
    const offset = /at position (\d+)/.exec((err as Error).message)?.[1];
    const pos = first
      ? errorPosition(first, lines)
      : offset !== undefined
        ? lines.linePos(Number(offset))
        : undefined;
    throw new TemplateError(
      'syntax',
      `invalid JSON: ${first?.message.split('\n')[0] ?? (err as Error).message}`,
      [],
      {
        file,
        ...(pos ? { position: { line: pos.line, column: pos.col } } : {}),
      },
    );
  }
}

function parseYaml(
  file: string,
  text: string,
  limits: Pick<TemplateLimits, 'maxAliasCount' | 'maxDocumentDepth' | 'maxDocumentNodes'>,
): Json {
  try {
    const fast = loadYamlFast(text, limits.maxDocumentDepth);
    if (fast !== undefined) return fast;
  } catch (err) {
    if (err instanceof FastYamlDepthError) {
      throw new TemplateError(
        'limit',
        `document is nested deeper than ${limits.maxDocumentDepth} levels`,
        [],
        {
          file,
          ...(err.line !== undefined ? { position: { line: err.line, column: err.column ?? 1 } } : {}),
        },
      );
    }
    if (!(err instanceof FastYamlError)) throw err;
    // The slow parser words errors better and knows positions; it sees the same syntax error.
  }
  const { doc, lines } = parseYamlDocument(text, 'yaml');
  const first = doc.errors[0];
  if (first) {
    const pos = errorPosition(first, lines);
    // The parser turns its own stack exhaustion into a document error; that is a depth limit.
    const kind = first.code === 'RESOURCE_EXHAUSTION' ? 'limit' : 'syntax';
    // A document with aliases only reaches this parser: what PyYAML reads, Heat accepts.
    const lenient =
      kind === 'syntax' ? loadYamlLenient(text, limits.maxDocumentDepth, limits.maxDocumentNodes) : undefined;
    if (lenient !== undefined) return lenient;
    const detail =
      kind === 'limit'
        ? 'document is nested too deeply to parse'
        : `invalid YAML: ${first.message.split('\n')[0]}`;
    throw new TemplateError(kind, detail, [], {
      file,
      ...(pos ? { position: { line: pos.line, column: pos.col } } : {}),
    });
  }
  try {
    return doc.toJS({ maxAliasCount: limits.maxAliasCount }) as Json;
  } catch (err) {
    if (err instanceof RangeError) throw err;
    const message = (err as Error).message;
    const kind = /alias count|Alias resolution is disabled/i.test(message) ? 'limit' : 'syntax';
    throw new TemplateError(kind, `invalid YAML: ${message}`, [], { file });
  }
}

function errorPosition(err: YAMLError, lines: LineCounter): { line: number; col: number } | undefined {
  return err.linePos?.[0] ?? (err.pos ? lines.linePos(err.pos[0]) : undefined);
}

function parseYamlDocument(
  text: string,
  format: 'yaml' | 'json',
): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: false, // PyYAML, and so Heat, lets a later duplicate key win
    prettyErrors: false,
    logLevel: 'error', // no warnings on the process's stderr for odd documents
    ...(format === 'json'
      ? { schema: 'json' as const }
      : {
          version: '1.1' as const,
          merge: true,
          customTags: heatYamlTags,
        }),
  });
  return { doc, lines };
}

type Tag = { tag?: string; test?: RegExp };
// Dates stay strings (Heat's loader); binary, sets and ordered maps have no JSON form, so those
// tags are left unresolved and their values stay plain strings, maps and lists.
const NON_JSON_TAGS = new Set([
  'tag:yaml.org,2002:timestamp',
  'tag:yaml.org,2002:binary',
  'tag:yaml.org,2002:set',
  'tag:yaml.org,2002:omap',
  'tag:yaml.org,2002:pairs',
]);
// PyYAML's YAML 1.1 booleans: unlike the yaml package's 1.1 schema, single letters y/n stay strings.
const PYYAML_BOOL = /^(?:[Yy]es|YES|[Nn]o|NO|[Tt]rue|TRUE|[Ff]alse|FALSE|[Oo]n|ON|[Oo]ff|OFF)$/;

/** YAML 1.1 tags as Heat's loader has them: no timestamps (dates stay strings), PyYAML's booleans. */
function heatYamlTags<T>(tags: T[]): T[] {
  return tags
    .filter((t) => !NON_JSON_TAGS.has((t as Tag).tag ?? ''))
    .map((t) => {
      const tag = t as Tag;
      if (tag.tag !== 'tag:yaml.org,2002:bool' || !tag.test) return t;
      // The package has separate tags for true and false: a value must match both its tag and PyYAML's words.
      return { ...tag, test: new RegExp(`(?=${PYYAML_BOOL.source})${tag.test.source}`) } as T;
    });
}

/** Depth and size limits, walked without recursion so that a hostile document cannot overflow the stack. */
function* checkShape(
  file: string,
  data: Json,
  limits: Pick<TemplateLimits, 'maxDocumentDepth' | 'maxDocumentNodes'>,
  /** The data's strings may be cut from a text that is not kept otherwise: give them their own. */
  cutStrings: boolean,
): Sliceable<DocumentShape> {
  // Two parallel stacks of plain values: this walk touches every node of every document, so it
  // allocates nothing per node.
  const own = cutStrings ? ownStrings() : undefined;
  const values: Json[] = [data];
  const depths: number[] = [1];
  let nodes = 0;
  let deepest = 0;
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    if (nodes % 4096 === 0) yield;
    if (++nodes > limits.maxDocumentNodes) {
      throw new TemplateError('limit', `document has more than ${limits.maxDocumentNodes} nodes`, [], {
        file,
      });
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > limits.maxDocumentDepth) {
      throw new TemplateError(
        'limit',
        `document is nested deeper than ${limits.maxDocumentDepth} levels`,
        [],
        {
          file,
        },
      );
    }
    if (depth > deepest) deepest = depth;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        let item = value[i] as Json;
        if (own && typeof item === 'string' && item.length >= SLICE_LENGTH) value[i] = item = own(item);
        values.push(item);
        depths.push(depth + 1);
      }
    } else {
      for (const key in value) {
        let item = value[key] as Json;
        if (own && typeof item === 'string' && item.length >= SLICE_LENGTH && key !== '__proto__')
          value[key] = item = own(item);
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return { nodes, depth: deepest };
}

/** V8 makes a string this long cut from another a slice of it, which keeps all of the other alive. */
const SLICE_LENGTH = 13;

/**
 * Long strings of a parser's result as strings of their own, one per distinct value: js-yaml cuts
 * every scalar from its own copy of the text, so one resource type kept by a bound template would
 * keep that whole copy (a 1,000,000-resource template: ~100 MiB), and a million equal types cost
 * one string.
 */
function ownStrings(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    let copy = seen.get(text);
    if (copy === undefined) {
      copy = JSON.parse(JSON.stringify(text)) as string; // a new flat string, lone surrogates kept
      seen.set(copy, copy);
    }
    return copy;
  };
}

export type { YamlNode };
