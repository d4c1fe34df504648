import type { TemplateRecord } from '../../store/contract.js';
import { type Environment, environmentToJSON, parseEnvironment } from '../../template/environment/index.js';
import type { ParentFacade } from '../../template/facade.js';
import type { TemplateLimits } from '../../template/limits.js';
import {
  parseSourceSteps,
  SLICED_JSON_BYTES,
  type SourceDocument,
  sourceFormat,
} from '../../template/source.js';
import { yamlToJsonOffLoop } from '../../template/yaml-off-loop.js';
import {
  type DeferredConstraints,
  type DefineOptions,
  defineStackSteps,
  type StackDefinition,
} from '../../template/stack-definition.js';
import { parseTemplateSteps } from '../../template/template.js';
import type { TypeCatalog } from '../../template/types.js';
import type { JsonObject } from '../../util/json.js';
import { runSliced, runToEnd, type Sliceable } from '../../util/loop-slice.js';
import { keepDigestsSteps } from './digests.js';

/** Partial binds kept (each holds its bound resources and the others' stubs). */
const PARTIALS = 8;

/** Identity of the stack a template is bound to (the pseudo parameters). */
export interface StackIdentity {
  stackId: string;
  stackName: string;
  projectId: string;
  /** Known to have no parent resource (a top-level stack's create or update): resource_facade is refused. */
  topLevel?: boolean;
}

/**
 * Template versions are immutable, so each engine process parses and binds one at most once and
 * keeps it: checking a resource then costs only its own snippet, never a re-parse of the stack.
 */
export class TemplateCache {
  private readonly entries = new Map<string, StackDefinition>();
  /**
   * Partial binds (operations/partial-bind.ts), apart: only a reader of one of their bound
   * resources gets one (`peekBound`); any other reader binds the whole template.
   */
  private readonly partials = new Map<string, StackDefinition>();
  /** Resources held by the cached definitions: a 100,000-resource definition weighs ~200 MiB. */
  private weight = 0;

  constructor(
    private readonly types: TypeCatalog,
    private readonly limits: TemplateLimits,
    // Resources held bound the memory; the count only bounds the entries of tiny stacks (~13 KiB
    // each), high enough that an API server showing its stacks in turn does not rebind every one.
    private readonly capacity = 1024,
    private readonly maxResources = 150_000,
  ) {}

  /** The bound definition of a stored template for one stack. */
  get(record: TemplateRecord, stack: StackIdentity): StackDefinition {
    const key = this.keyOf(record.id, stack.stackId);
    const hit = this.hit(key);
    if (hit) return hit;
    const definition = bindTemplate(record, stack, this.types, this.limits);
    this.put(key, definition);
    return definition;
  }

  /**
   * `get` for callers that can wait: a miss binds across turns of the event loop, so binding a
   * big template does not hold up requests served by the same process.
   */
  async load(record: TemplateRecord, stack: StackIdentity): Promise<StackDefinition> {
    const key = this.keyOf(record.id, stack.stackId);
    const hit = this.hit(key);
    if (hit) return hit;
    const definition = await bindTemplateSliced(record, stack, this.types, this.limits);
    this.put(key, definition);
    return definition;
  }

  /**
   * The bound definition of template `templateId` for one stack: the cached one (nothing read),
   * else the record `read` returns, bound (in slices); undefined when there is no such record.
   */
  async lookup(
    templateId: string,
    stack: StackIdentity,
    read: (templateId: string) => Promise<TemplateRecord | undefined>,
  ): Promise<StackDefinition | undefined> {
    const hit = this.hit(this.keyOf(templateId, stack.stackId));
    if (hit) return hit;
    const record = await read(templateId);
    return record && this.load(record, stack);
  }

  /**
   * `lookup` for a reader of the template's head alone (description, parameters, the nested stacks
   * of template resources, which a partial bind always binds): a partial bind serves it.
   */
  async lookupHead(
    templateId: string,
    stack: StackIdentity,
    read: (templateId: string) => Promise<TemplateRecord | undefined>,
  ): Promise<StackDefinition | undefined> {
    const key = this.keyOf(templateId, stack.stackId);
    return this.hit(key) ?? this.partials.get(key) ?? this.lookup(templateId, stack, read);
  }

  private hit(key: string): StackDefinition | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Refresh recency: Map iteration order is insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** The cached definition of a template for a stack, without loading anything. */
  peek(templateId: string, stackId: string): StackDefinition | undefined {
    return this.entries.get(this.keyOf(templateId, stackId));
  }

  /** `peek`, or a partial bind of the template that bound every one of `names`. */
  peekBound(templateId: string, stackId: string, names: readonly string[]): StackDefinition | undefined {
    const key = this.keyOf(templateId, stackId);
    const full = this.entries.get(key);
    if (full) return full;
    const partial = this.partials.get(key);
    return partial && names.every((name) => partial.partial!.has(name)) ? partial : undefined;
  }

  /**
   * Seeds the cache with a definition already built (validation at the start of an operation).
   * The least recently used definitions go beyond `capacity` entries or `maxResources` resources
   * (the newest always stays).
   */
  put(key: string, definition: StackDefinition): void {
    if (definition.partial) {
      this.partials.delete(key);
      this.partials.set(key, definition);
      // The operations running in this process: a few at a time.
      if (this.partials.size > PARTIALS) this.partials.delete(this.partials.keys().next().value!);
      return;
    }
    this.partials.delete(key);
    const previous = this.entries.get(key);
    if (previous) {
      this.weight -= previous.resources.size;
      this.entries.delete(key);
    }
    this.entries.set(key, definition);
    this.weight += definition.resources.size;
    while (this.entries.size > 1 && (this.entries.size > this.capacity || this.weight > this.maxResources)) {
      const [oldest, evicted] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.weight -= evicted.resources.size;
    }
  }

  keyOf(templateId: string, stackId: string): string {
    return `${templateId}/${stackId}`;
  }
}

/** Parses and binds a stored template (strictly: every parameter must have a value). */
export function bindTemplate(
  record: TemplateRecord,
  stack: StackIdentity,
  types: TypeCatalog,
  limits: TemplateLimits,
  deferredConstraints?: DeferredConstraints,
): StackDefinition {
  return runToEnd(
    bindSteps(record, stack, types, limits, deferredConstraints ? { deferredConstraints } : {}),
  );
}

/**
 * `bindTemplate` across turns of the event loop (util/loop-slice.ts): what the API and the
 * engine use, since a 100,000-resource template takes seconds to bind.
 */
export async function bindTemplateSliced(
  record: TemplateRecord,
  stack: StackIdentity,
  types: TypeCatalog,
  limits: TemplateLimits,
  options: BindOptions = {},
): Promise<StackDefinition> {
  const parsedYaml = await bigYamlOffLoop(record, limits, options.parsed);
  return runSliced(bindSteps(record, stack, types, limits, { ...options, parsedYaml }));
}

export interface BindOptions {
  deferredConstraints?: DeferredConstraints;
  /** The record's text as its sender parsed it (TemplateInput.parsed). */
  parsed?: SourceDocument;
  /** Compute the template's digests (core/digests.ts) before the document is released. */
  digests?: boolean;
}

/**
 * A big YAML text not parsed yet, parsed by a worker thread into JSON text (which parses in
 * slices here); undefined for anything else (JSON parses in slices, small YAML in one call).
 */
export async function bigYamlOffLoop(
  record: TemplateRecord,
  limits: TemplateLimits,
  parsed: SourceDocument | undefined,
): Promise<string | undefined> {
  const text = record.template;
  const bigYaml = !parsed && text.length >= SLICED_JSON_BYTES && sourceFormat(text) === 'yaml';
  return bigYaml ? yamlToJsonOffLoop(text, limits.maxDocumentDepth) : undefined;
}

/** How a stored template is bound for `stack` (strictly), beside the template itself. */
export function definitionOptions(
  record: TemplateRecord,
  stack: StackIdentity,
  types: TypeCatalog,
  limits: TemplateLimits,
  deferredConstraints: DeferredConstraints | undefined,
): DefineOptions {
  return {
    ...(deferredConstraints ? { deferredConstraints } : {}),
    files: record.files,
    environment: environmentFromJSON(record.environment, limits),
    ...(record.facade ? { facade: record.facade as unknown as ParentFacade } : {}),
    ...(stack.topLevel ? { topLevel: true } : {}),
    strict: true,
    types,
    limits,
    stackId: stack.stackId,
    stackName: stack.stackName,
    projectId: stack.projectId,
  };
}

function* bindSteps(
  record: TemplateRecord,
  stack: StackIdentity,
  types: TypeCatalog,
  limits: TemplateLimits,
  options: BindOptions & { parsedYaml?: string | undefined },
): Sliceable<StackDefinition> {
  const { parsedYaml, parsed } = options;
  // A JSON document (or a YAML one a worker parsed) parses in slices too; other YAML in one call.
  const source = yield* parseSourceSteps(record.url, record.template, limits, parsedYaml, parsed);
  const template = yield* parseTemplateSteps(source);
  const definition = yield* defineStackSteps(
    template,
    definitionOptions(record, stack, types, limits, options.deferredConstraints),
  );
  // Read from the document, which is released next.
  if (options.digests) yield* keepDigestsSteps(definition, record);
  // Cached for the operation's length: it keeps what it shares of the document, not the rest.
  source.release();
  return definition;
}

/** The stored (Heat-shaped) environment back into the engine's form; URLs in it are already absolute. */
export function environmentFromJSON(json: JsonObject, limits: TemplateLimits): Environment {
  return parseEnvironment('environment', JSON.stringify(json), limits, { resolveTemplates: false });
}

export function environmentJSON(env: Environment): JsonObject {
  return environmentToJSON(env);
}
