import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import { typeInfoToHeatJSON } from '../../src/template/properties/index.js';
import type { Json, JsonObject } from '../../src/util/json.js';
import { SHARED } from '../support/shared.js';

/*
 * Every type Hearth implements has Heat 19's schema (heat-reference/resource-schemas.json):
 * property and attribute names, types, required, defaults, constraints, update_allowed,
 * immutable, nested schemas and support status (update_allowed_properties follows from update_allowed). A difference must be listed, with its reason, in
 * docs/schema-differences.md; one listed that no longer exists fails too, so the list stays true.
 * Descriptions are not compared: Hearth's are its own words.
 */

const REFERENCE = JSON.parse(
  readFileSync(resolve(SHARED, 'heat-reference/resource-schemas.json'), 'utf8'),
) as Record<string, JsonObject>;
const DOC = readFileSync(resolve(import.meta.dirname, '../../docs/schema-differences.md'), 'utf8');

type Kind = 'missing' | 'extra' | 'differs';

/** One difference: `<type> <path> <kind>`, e.g. `OS::Nova::Server properties.tags missing`. */
function key(type: string, path: string, kind: Kind): string {
  return `${type} ${path} ${kind}`;
}

/** JSON with object keys sorted and lists of constraints in a canonical order. */
function canonical(value: Json | undefined): string {
  const sort = (v: Json | undefined): Json | undefined => {
    if (Array.isArray(v)) return v.map((x) => sort(x) as Json);
    if (v !== null && typeof v === 'object') {
      const out: JsonObject = {};
      for (const k of Object.keys(v).sort()) out[k] = sort(v[k]) as Json;
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value)) ?? 'undefined';
}

const FIELDS = ['type', 'required', 'default', 'update_allowed', 'immutable'] as const;

function compareProperties(
  type: string,
  path: string,
  ours: JsonObject,
  heat: JsonObject,
  out: Set<string>,
): void {
  for (const name of new Set([...Object.keys(ours), ...Object.keys(heat)])) {
    const at = `${path}.${name}`;
    if (!Object.hasOwn(ours, name)) out.add(key(type, at, 'missing'));
    else if (!Object.hasOwn(heat, name)) out.add(key(type, at, 'extra'));
    else compareProperty(type, at, ours[name] as JsonObject, heat[name] as JsonObject, out);
  }
}

function compareProperty(type: string, path: string, ours: JsonObject, heat: JsonObject, out: Set<string>) {
  for (const field of FIELDS) {
    if (canonical(ours[field]) !== canonical(heat[field])) out.add(key(type, `${path}.${field}`, 'differs'));
  }
  const constraints = (c: Json | undefined) => ((c ?? []) as Json[]).map(canonical).sort().join();
  if (constraints(ours.constraints) !== constraints(heat.constraints))
    out.add(key(type, `${path}.constraints`, 'differs'));
  const a = ours.schema as JsonObject | undefined;
  const b = heat.schema as JsonObject | undefined;
  if (a === undefined && b === undefined) return;
  if (a === undefined) out.add(key(type, `${path}.schema`, 'missing'));
  else if (b === undefined) out.add(key(type, `${path}.schema`, 'extra'));
  else compareProperties(type, `${path}.schema`, a, b, out);
}

/** A support status as compared: its status and version, and those of the statuses before it. */
function status(s: Json | undefined): string {
  if (s === null || s === undefined || typeof s !== 'object' || Array.isArray(s)) return '';
  return `${String(s.status)}@${String(s.version)}<${status(s.previous_status)}`;
}

/**
 * The types Hearth offers: the reference lists what Heat's type list shows, so HIDDEN types
 * (old names Heat 19 still runs, e.g. OS::Heat::SoftwareDeployments) are not in it.
 */
function visibleTypes(): string[] {
  const catalog = pluginCatalog(builtinPlugins());
  return catalog.types().filter((t) => catalog.typeCatalog.get(t)?.supportStatus?.status !== 'HIDDEN');
}

function differences(): Set<string> {
  const out = new Set<string>();
  const catalog = pluginCatalog(builtinPlugins());
  for (const type of visibleTypes()) {
    const heat = REFERENCE[type];
    if (heat === undefined) {
      out.add(key(type, 'type', 'extra'));
      continue;
    }
    const ours = typeInfoToHeatJSON(catalog.typeCatalog.get(type)!);
    compareProperties(type, 'properties', ours.properties as JsonObject, heat.properties as JsonObject, out);
    // Every resource has `show`: the reference leaves it out.
    const attributes = { ...(ours.attributes as JsonObject) };
    delete attributes.show;
    const heatAttributes = heat.attributes as JsonObject;
    for (const name of new Set([...Object.keys(attributes), ...Object.keys(heatAttributes)])) {
      const at = `attributes.${name}`;
      if (!Object.hasOwn(attributes, name)) out.add(key(type, at, 'missing'));
      else if (!Object.hasOwn(heatAttributes, name)) out.add(key(type, at, 'extra'));
      else if ((attributes[name] as JsonObject).type !== (heatAttributes[name] as JsonObject).type)
        out.add(key(type, `${at}.type`, 'differs'));
    }
    if (status(ours.support_status) !== status(heat.support_status))
      out.add(key(type, 'support_status', 'differs'));
  }
  return out;
}

/** The rows of the documented list: `| `type` | `path` | kind | reason |`. */
function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of DOC.split('\n')) {
    const m = /^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*(missing|extra|differs)\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const id = key(m[1]!, m[2]!, m[3] as Kind);
    assert.ok(!rows.has(id), `listed twice in docs/schema-differences.md: ${id}`);
    rows.set(id, m[4]!.trim());
  }
  return rows;
}

describe('schema conformance with Heat 19', () => {
  it('implements only types Heat 19 has', () => {
    const catalog = pluginCatalog(builtinPlugins());
    const heatTypes = new Set(Object.keys(REFERENCE));
    assert.ok(heatTypes.size > 100, 'the reference is read whole');
    for (const type of visibleTypes()) assert.ok(heatTypes.has(type), `${type} is not a Heat 19 type`);
    const hidden = catalog.types().filter((t) => !visibleTypes().includes(t));
    assert.deepEqual(
      hidden,
      ['OS::Heat::SoftwareDeployments', 'OS::Heat::StructuredDeployments'],
      'HIDDEN in Heat 19 too',
    );
  });

  it('differs from Heat 19 only where docs/schema-differences.md says why', () => {
    const found = differences();
    const listed = documented();
    const undocumented = [...found].filter((d) => !listed.has(d)).sort();
    const stale = [...listed.keys()].filter((d) => !found.has(d)).sort();
    assert.deepEqual(
      { undocumented, stale },
      { undocumented: [], stale: [] },
      'every difference from Heat 19 is listed with its reason, and every one listed exists',
    );
    for (const [id, reason] of listed) assert.ok(reason.length > 10, `no reason given for ${id}`);
  });

  it('finds a difference when a declaration changes', () => {
    // The comparison is not vacuous: a changed copy of a type differs where it was changed.
    const reference = REFERENCE['OS::Heat::TestResource']!;
    const ours = typeInfoToHeatJSON(
      pluginCatalog(builtinPlugins()).typeCatalog.get('OS::Heat::TestResource')!,
    );
    const out = new Set<string>();
    const changed = structuredClone(ours.properties as JsonObject);
    (changed.value as JsonObject).update_allowed = false;
    delete changed.fail;
    compareProperties('T', 'properties', changed, reference.properties as JsonObject, out);
    assert.deepEqual([...out].sort(), [
      'T properties.fail missing',
      'T properties.value.update_allowed differs',
    ]);
  });
});
