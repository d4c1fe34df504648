// The console's only way to the server: the Heat-compatible API, with the session's token.

export interface Session {
  token: string;
  project: string;
}

export interface Stack {
  id: string;
  stack_name: string;
  stack_status: string;
  stack_status_reason: string;
  creation_time: string;
  updated_time: string | null;
  description?: string;
  /** Seconds between observations, when the observer watches the stack. */
  observe_interval?: number;
  heal?: boolean;
}

export interface Resource {
  resource_name: string;
  resource_type: string;
  resource_status: string;
  resource_status_reason: string;
  physical_resource_id: string;
  required_by: string[];
  updated_time: string;
  attributes?: Record<string, unknown>;
  description?: string;
  links?: { href: string; rel: string }[];
}

export interface StackEvent {
  id: string;
  event_time: string;
  resource_name: string;
  resource_status: string;
  resource_status_reason: string;
  physical_resource_id: string | null;
}

/** A refusal of the API, with Heat's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const KEY = 'hearth-console-session';

export function savedSession(): Session | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return saved && typeof saved.token === 'string' ? saved : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

export function projectUrl(session: Session, path: string): string {
  return `/v1/${encodeURIComponent(session.project)}${path}`;
}

export async function call<T>(session: Session, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(projectUrl(session, path), {
    method,
    headers: {
      'x-auth-token': session.token,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const json = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (!res.ok) {
    const error = (json as { error?: { message?: string } } | undefined)?.error;
    throw new ApiError(res.status, error?.message ?? `HTTP ${res.status}`);
  }
  return json as T;
}

export const stackPath = (s: { stack_name: string; id: string }) =>
  `/stacks/${encodeURIComponent(s.stack_name)}/${encodeURIComponent(s.id)}`;

/** The list's filters: a text in the name (Hearth's name_contains), a status. */
export interface StackFilters {
  search?: string;
  status?: string;
}

function filterQuery(q: URLSearchParams, options: StackFilters): URLSearchParams {
  if (options.search) q.set('name_contains', options.search);
  if (options.status) q.set('status', options.status);
  return q;
}

/** A page of stacks: Heat's list with its limit/marker paging. */
export async function listStacks(
  session: Session,
  options: StackFilters & { marker?: string; limit: number },
): Promise<Stack[]> {
  const q = filterQuery(new URLSearchParams({ limit: String(options.limit) }), options);
  if (options.marker) q.set('marker', options.marker);
  return (await call<{ stacks: Stack[] }>(session, 'GET', `/stacks?${q}`)).stacks;
}

/** How many of the project's stacks match, all pages (Heat's with_count), listing none. */
export async function countStacks(session: Session, options: StackFilters): Promise<number> {
  const q = filterQuery(new URLSearchParams({ limit: '0', with_count: 'true' }), options);
  return (await call<{ count: number }>(session, 'GET', `/stacks?${q}`)).count;
}

/** Checks a session by its cheapest read: one stack of the project. */
export async function checkSession(session: Session): Promise<void> {
  await call(session, 'GET', '/stacks?limit=1');
}

/** The console's address of a stack the API links to (`.../stacks/{name}/{id}`), if it is one. */
export function stackHash(href: string): string | undefined {
  const m = /\/stacks\/([^/]+)\/([^/]+)$/.exec(new URL(href, location.href).pathname);
  return m ? `#/stacks/${m[1]}/${m[2]}` : undefined;
}

/** A Keystone user's password login, made by the server (keystone mode): the session it opens. */
export async function passwordLogin(login: {
  user: string;
  password: string;
  project: string;
  domain: string;
}): Promise<Session> {
  const res = await fetch('/console/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(login),
  });
  const json = (await res.json().catch(() => undefined)) as
    { token?: string; project_id?: string; error?: { message?: string } } | undefined;
  if (!res.ok || !json?.token || !json.project_id)
    throw new ApiError(res.status, json?.error?.message ?? `HTTP ${res.status}`);
  return { token: json.token, project: json.project_id };
}

/** A stack's resources counted by the server (Hearth's `resource-summary`): a few kB at any size. */
export interface ResourceSummary {
  total: number;
  /** `{type: {ACTION_STATUS: n}}`. */
  by_type: Record<string, Record<string, number>>;
  /** `{ACTION_STATUS: n}`. */
  by_status: Record<string, number>;
  /** The resources that are stacks of their own (the first 200 by name), and how many there are. */
  nested: {
    total: number;
    resources: { resource_name: string; resource_status: string; links: { href: string; rel: string }[] }[];
  };
}

export async function resourceSummary(session: Session, path: string): Promise<ResourceSummary> {
  return (await call<{ resource_summary: ResourceSummary }>(session, 'GET', `${path}/resource-summary`))
    .resource_summary;
}

/** What a drilled-down list shows: a type, a status, a text in the names (each optional). */
export interface ResourceFilter {
  type?: string;
  status?: string;
  name_contains?: string;
}

/** A page of a stack's resources in name order (Hearth's `resource-page`), and the next one's marker. */
export async function resourcePage(
  session: Session,
  path: string,
  filter: ResourceFilter,
  options: { marker?: string; limit: number },
): Promise<{ resources: Resource[]; next_marker?: string }> {
  const q = new URLSearchParams({ limit: String(options.limit) });
  for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v as string);
  if (options.marker !== undefined) q.set('marker', options.marker);
  return call(session, 'GET', `${path}/resource-page?${q}`);
}
