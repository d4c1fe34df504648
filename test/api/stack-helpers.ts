import assert from 'node:assert/strict';
import type { StackRecord } from '../../src/store/contract.js';
import type { TestApi } from './harness.js';

export interface Link {
  href: string;
  rel: string;
}

/** A stack created through the API; `url` is its canonical path (`/v1/{project}/stacks/{name}/{id}`). */
export interface CreatedStack {
  id: string;
  name: string;
  url: string;
  settled: StackRecord | undefined;
}

/** Creates a stack through the API and runs the engine until its create has ended. */
export async function createStack(
  api: TestApi,
  project: string,
  name: string,
  body: Record<string, unknown>,
  options: { token?: string; settle?: boolean } = {},
): Promise<CreatedStack> {
  const res = await api.call('POST', `/v1/${project}/stacks`, {
    body: { stack_name: name, ...body },
    ...(options.token ? { token: options.token } : {}),
  });
  assert.equal(res.statusCode, 201, res.body);
  const { id } = (res.json() as { stack: { id: string } }).stack;
  const settled = options.settle === false ? undefined : await api.settle(id);
  return { id, name, url: `/v1/${project}/stacks/${name}/${id}`, settled };
}

/** The path part of a link (links carry the server's address). */
export function linkPath(links: readonly Link[], rel: string): string | undefined {
  const href = links.find((l) => l.rel === rel)?.href;
  return href === undefined ? undefined : new URL(href).pathname;
}
