/** An entry of an abandon document: a resource, or a nested stack with resources of its own. */
export interface AbandonEntry {
  resource_id?: string;
  id?: string;
  resources?: Record<string, AbandonEntry>;
}

/** Physical ids by `<stack path>/<name>` from an abandon document (nested stacks' resources too). */
export function documentIds(doc: AbandonEntry, path = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, entry] of Object.entries(doc.resources ?? {})) {
    if (entry.resources) Object.assign(out, documentIds(entry, `${path}${name}/`));
    else out[`${path}${name}`] = entry.resource_id!;
  }
  return out;
}
