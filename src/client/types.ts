import type { Json, JsonObject } from '../util/json.js';

/*
 * The shapes of Heat's orchestration API v1 (as Heat 19 answers; see heat-api-samples): field
 * names as on the wire. Only what a client reads is typed; the rest is there all the same.
 */

export interface Link {
  href: string;
  rel: string;
}

/** A stack named by both name and id, as every route under `/stacks/{name}/{id}` wants it. */
export interface StackId {
  name: string;
  id: string;
}

/** An item of `GET /stacks`. */
export interface HeatStackSummary {
  id: string;
  links: Link[];
  project?: string;
  stack_name: string;
  description: string;
  stack_status: string;
  stack_status_reason: string;
  creation_time: string | null;
  updated_time: string | null;
  deletion_time: string | null;
  stack_owner: string | null;
  parent: string | null;
  stack_user_project_id: string | null;
  tags: string[] | null;
}

export interface HeatOutput {
  output_key: string;
  description: string;
  output_value?: Json;
  output_error?: string;
}

/** `GET /stacks/{name}/{id}`'s `stack`. */
export interface HeatStack extends Omit<HeatStackSummary, 'project'> {
  /** Hearth's: an observed stack's seconds between observations, and whether it heals. */
  observe_interval?: number;
  heal?: boolean;
  notification_topics: string[];
  parameters: Record<string, string>;
  template_description: string;
  capabilities: unknown[];
  disable_rollback: boolean;
  timeout_mins: number | null;
  outputs?: HeatOutput[];
}

/** A resource of a list, a show (`attributes` with details) or a preview (`properties`). */
export interface HeatResource {
  resource_name: string;
  logical_resource_id?: string;
  physical_resource_id: string;
  resource_type: string;
  resource_status: string;
  /** In previews the status is split: `resource_action` + `resource_status`. */
  resource_action?: string;
  resource_status_reason: string;
  creation_time: string | null;
  updated_time: string | null;
  links?: Link[];
  required_by: string[];
  description?: string;
  attributes?: JsonObject;
  properties?: JsonObject;
  stack_name?: string;
  parent_resource?: string | null;
}

export interface HeatEvent {
  id: string;
  links: Link[];
  event_time: string;
  logical_resource_id: string;
  resource_name: string;
  physical_resource_id: string;
  resource_status: string;
  resource_status_reason: string;
  resource_type?: string;
  resource_properties?: JsonObject;
}

/** `POST /stacks/preview`'s `stack`: a stack with `resources`, nested stacks' as nested lists. */
export interface HeatStackPreview extends HeatStack {
  resources: HeatPreviewItem[];
}
export type HeatPreviewItem = HeatResource | HeatPreviewItem[];

export const CHANGE_KINDS = ['added', 'deleted', 'replaced', 'unchanged', 'updated'] as const;
export type HeatResourceChanges = Record<(typeof CHANGE_KINDS)[number], HeatResource[]>;

/** The body of create, update (PUT / PATCH), preview and validate. */
export interface HeatStackBody {
  stack_name?: string;
  /** The template document: text, or the parsed document. */
  template?: string | JsonObject;
  template_url?: string;
  files?: Record<string, string>;
  environment?: JsonObject;
  environment_files?: string[];
  parameters?: Record<string, Json>;
  timeout_mins?: number | null;
  disable_rollback?: boolean;
  /** Comma-separated. */
  tags?: string;
  /** PATCH only: parameters back to their defaults. */
  clear_parameters?: string[];
  /** Create only (Heat's adopt): the abandon document's text; the template comes from it. */
  adopt_stack_data?: string;
  /** Update only: decide from the resources' live state. */
  converge?: boolean;
  /** Hearth's: observe the stack every this many seconds (0: stop). */
  observe_interval?: number;
  /** Hearth's: with observe_interval, converge what drifted back. */
  heal?: boolean;
}

/** `POST /validate`. */
export interface HeatValidation {
  Description: string;
  Parameters: Record<string, JsonObject>;
  ParameterGroups?: JsonObject[];
  Environment?: JsonObject;
}

export interface HeatTemplateVersion {
  version: string;
  type: string;
  aliases: string[];
}

export interface HeatTemplateFunction {
  functions: string;
  description: string;
}

/** `GET /resource_types/{type}`. */
export interface HeatResourceTypeSchema {
  resource_type: string;
  properties: Record<string, JsonObject>;
  attributes: Record<string, JsonObject>;
  support_status?: JsonObject;
  description?: string;
}

/** Query strings: repeated keys for lists, `true`/`false` for booleans, unset keys left out. */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface StackListQuery {
  limit?: number;
  marker?: string;
  sort_keys?: string[];
  sort_dir?: 'asc' | 'desc';
  show_nested?: boolean;
  show_deleted?: boolean;
  global_tenant?: boolean;
  with_count?: boolean;
  id?: string[];
  name?: string[];
  status?: string[];
  action?: string[];
  tags?: string;
  tags_any?: string;
  not_tags?: string;
  not_tags_any?: string;
}

export interface EventQuery {
  marker?: string;
  limit?: number;
  sort_keys?: string[];
  sort_dir?: 'asc' | 'desc';
  resource_action?: string[];
  resource_status?: string[];
  resource_name?: string[];
  resource_type?: string[];
  nested_depth?: number;
}

export interface ResourceListQuery {
  nested_depth?: number;
  with_detail?: boolean;
  name?: string[];
  type?: string[];
  status?: string[];
  action?: string[];
  id?: string[];
  physical_resource_id?: string[];
}

export interface ResourceTypeQuery {
  name?: string;
  version?: string;
  support_status?: string;
  with_description?: boolean;
}

/** One resource's drift result (Hearth's `.../drift` routes; Heat has none). */
export interface HeatDriftResource {
  resource_name: string;
  resource_type: string;
  physical_resource_id: string;
  stack_id: string;
  stack_name: string;
  /** IN_SYNC, MODIFIED, DELETED, NOT_CHECKED or FAILED. */
  drift_status: string;
  property_diff: { property: string; expected: Json; actual: Json }[];
  drift_status_reason: string;
  detected_time: string | null;
}

/** `POST` (a detection: the resources not IN_SYNC) or `GET` (the last results) `.../drift`'s `drift`. */
export interface HeatDrift {
  stack_id: string;
  stack_name: string;
  detected_time: string | null;
  /** Resources by drift status. */
  summary: Record<string, number>;
  resources: HeatDriftResource[];
}

/** Hearth's own `PUT /stacks/{name}/{id}/plan`: per changing resource, its action and changed properties. */
export interface HearthPlan {
  resources: {
    resource_name: string;
    resource_type: string;
    action: 'create' | 'update' | 'replace' | 'delete';
    reason?: string;
    changes: { path: string; old: Json; new: Json; known_after_apply?: true }[];
  }[];
  summary: Record<'create' | 'update' | 'replace' | 'delete', number>;
}
