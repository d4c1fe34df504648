import type { Cloud } from '../openstack/index.js';
import type { Unknown, Value } from '../template/functions/types.js';
import type { Json, JsonObject } from '../util/json.js';
import type { ActionResult, PeerResource, PluginContext, RealityState, ResourcePlugin } from './contract.js';

/**
 * Nested-stack types: resource types (OS::Heat::ResourceGroup, OS::Heat::Stack) implemented by a
 * child stack whose template is generated from the resource's properties. The engine runs them
 * with the machinery of template resources (engine/nodes/nested/nested.ts): it creates, updates and deletes the
 * child and parks on it; the plugin only says what the child is and what its attributes are.
 */
export interface NestedStackType {
  /**
   * The child from the properties (converted by the schema, defaults applied) and the row's data:
   * its template text (HOT, JSON or YAML), its parameters, and data to keep on the row.
   */
  child(properties: Record<string, Value>, data: Readonly<JsonObject>, options?: ChildOptions): NestedChild;
  /**
   * What the child is made from that only the cloud knows (the load balancer's members'
   * addresses), read before `child` is called, which finds it in `options.gathered`. Not called
   * by previews, which ask the cloud nothing.
   */
  gather?(properties: Record<string, Value>, cloud: Cloud): Promise<JsonObject>;
  /** The resource's attributes once the child is done (computed once, from the child's rows). */
  attributes(view: NestedView): Record<string, Json>;
  /**
   * The URL of the template the child is read from (AWS::CloudFormation::Stack's TemplateURL):
   * the engine fetches it, unless the parent's files have it, before it calls `child`, which finds
   * it in `options.files`. Absent or undefined: the child needs no remote template.
   */
  remoteTemplate?(properties: Record<string, Value>): string | undefined;
  /**
   * Another resource of the stack the child is built from (the AWS groups' launch configuration),
   * by its reference id or name: the engine reads it before it calls `child`, which finds it in
   * `options.peer` (absent when there is none). Undefined: the child needs none.
   */
  peer?(properties: Record<string, Value>): string | undefined;
}

/** What else shapes the child: the resource's update_policy, and whether the child is being created. */
export interface ChildOptions {
  updatePolicy?: Value;
  creating?: boolean;
  /**
   * The row's last operation ended COMPLETE and nothing is in flight: the data it recorded then
   * holds for every member. False on a retry of an update already begun (or after a failed one),
   * so a plugin can tell "what the members were before this update" across a crash. Absent: true.
   */
  settled?: boolean;
  /** The parent's files, with the remote template (remoteTemplate) once fetched. */
  files?: Readonly<Record<string, string>>;
  /**
   * The parent stack's parameter values (Heat's LoadBalancer passes the parent's KeyName,
   * LbImageId, LbFlavor and LBTimeout on to its child).
   */
  stackParameters?: ReadonlyMap<string, Json | Unknown>;
  /** What `gather` read from the cloud; absent in a preview. */
  gathered?: JsonObject;
  /** The resource `peer` named, as persisted now. */
  peer?: PeerResource;
}

export interface NestedChild {
  template: string;
  parameters: JsonObject;
  data?: JsonObject;
  /**
   * The region whose endpoints the child's cloud calls use, with the stack owner's credentials
   * (OS::Heat::Stack's `context.region_name`); absent: the parent's. A changed region replaces the child.
   */
  region?: string;
}

/** A resource of the child stack, as its row caches it. */
export interface NestedMember {
  name: string;
  refId: string | null;
  attributes: Readonly<JsonObject>;
}

export interface NestedView {
  childId: string;
  childName: string;
  properties: Record<string, Value>;
  data: Readonly<JsonObject>;
  members: readonly NestedMember[];
  outputs: Readonly<Record<string, Json>>;
}

/** A plugin whose implementation is a generated child stack. */
export interface NestedPlugin extends ResourcePlugin {
  readonly nested: NestedStackType;
}

export function isNestedPlugin(plugin: ResourcePlugin | undefined): plugin is NestedPlugin {
  return plugin !== undefined && (plugin as Partial<NestedPlugin>).nested !== undefined;
}

function notDirect(): never {
  throw new Error('internal: a nested-stack type is run by the engine through its child stack');
}

/** The plugin methods a nested-stack type never has called (the engine drives its child instead). */
export const NESTED_STUBS = {
  // Its reality is its child stack's resources, which drift detection visits instead.
  observes: false as const,
  async create(): Promise<ActionResult> {
    return notDirect();
  },
  async delete(): Promise<ActionResult> {
    return notDirect();
  },
  async getReality(ctx: PluginContext): Promise<RealityState> {
    return ctx.physicalId === null
      ? { state: 'gone' }
      : { state: 'present', properties: { ...(ctx.storedProperties ?? {}) } };
  },
  async attribute(): Promise<Value> {
    return null;
  },
};
