import { badRequest, notFound } from '../errors.js';
import type { Volume } from './types.js';

/** `GET /volumes[/detail]` query handling: filters, sort, marker and limit, as Cinder reads them. */

export type Query = Record<string, string | undefined>;

const MAX_LIMIT = 1000;
const SORT_KEYS = [
  'id',
  'name',
  'status',
  'size',
  'created_at',
  'updated_at',
  'availability_zone',
  'bootable',
];

/** Cinder's `metadata` filter arrives as JSON or as a Python dict's repr (`{'k': 'v'}`). */
function parseMetadataFilter(text: string): Record<string, string> {
  for (const candidate of [text, text.replace(/'/g, '"')]) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        return Object.fromEntries(Object.entries(parsed).map(([k, val]) => [k, String(val)]));
      }
    } catch {
      // try the next form
    }
  }
  throw badRequest(`Invalid input received: metadata filter ${text} is not a JSON object.`);
}

function matches(volume: Volume, query: Query): boolean {
  if (query.name !== undefined && volume.name !== query.name) return false;
  if (query.status !== undefined && volume.status !== query.status) return false;
  if (query.availability_zone !== undefined && volume.availability_zone !== query.availability_zone)
    return false;
  if (query.bootable !== undefined && String(volume.bootable) !== query.bootable.toLowerCase()) return false;
  if (query.project_id !== undefined && volume.project_id !== query.project_id) return false;
  if (query.metadata !== undefined) {
    const wanted = parseMetadataFilter(query.metadata);
    if (Object.entries(wanted).some(([k, val]) => volume.metadata[k] !== val)) return false;
  }
  return true;
}

/** `sort=name:asc,size` or `sort_key`/`sort_dir`; Cinder's default is newest first. */
function sortKeys(query: Query): { key: string; desc: boolean }[] {
  const specs = query.sort
    ? query.sort.split(',').map((part) => {
        const [key = '', dir = 'desc'] = part.trim().split(':');
        return { key, dir };
      })
    : query.sort_key
      ? [{ key: query.sort_key, dir: query.sort_dir ?? 'desc' }]
      : [{ key: 'created_at', dir: 'desc' }];
  return specs.map(({ key, dir }) => {
    if (!SORT_KEYS.includes(key)) throw badRequest(`Invalid input received: Invalid sort key ${key}.`);
    if (dir !== 'asc' && dir !== 'desc')
      throw badRequest(`Invalid input received: Invalid sort direction ${dir}.`);
    return { key, desc: dir === 'desc' };
  });
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return a < b ? -1 : 1;
}

/** One page of the volumes the query selects, and whether more follow it. */
export function selectVolumes(
  volumes: Volume[],
  query: Query,
): { page: Volume[]; more: boolean; count: number } {
  const keys = sortKeys(query);
  const order = new Map(volumes.map((vol, i) => [vol.id, i]));
  const selected = volumes.filter((vol) => matches(vol, query));
  selected.sort((a, b) => {
    for (const { key, desc } of keys) {
      const c = compare(a[key], b[key]);
      if (c !== 0) return desc ? -c : c;
    }
    // Ties (one fake clock instant): newest first, so paging has one fixed order.
    return order.get(b.id)! - order.get(a.id)!;
  });
  let rest = selected;
  if (query.marker !== undefined) {
    const at = selected.findIndex((vol) => vol.id === query.marker);
    if (at < 0) throw notFound('Marker', query.marker);
    rest = selected.slice(at + 1);
  }
  let limit = MAX_LIMIT;
  if (query.limit !== undefined) {
    limit = Number(query.limit);
    if (!/^\d+$/.test(query.limit))
      throw badRequest('Invalid input received: limit must be a non-negative integer.');
    limit = Math.min(limit, MAX_LIMIT);
  }
  const page = rest.slice(0, limit);
  return { page, more: rest.length > page.length && page.length > 0, count: selected.length };
}
