export interface Link {
  href: string;
  rel: string;
}

/** Where the API is reached, as the client addressed it: links in bodies point back there. */
export interface Base {
  /** e.g. `http://127.0.0.1:8004/v1/<project>` */
  project: string;
}

export function stackPath(base: Base, stack: { name: string; id: string }): string {
  return `${base.project}/stacks/${encodeURIComponent(stack.name)}/${stack.id}`;
}
