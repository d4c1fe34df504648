import type { Value } from '../../template/functions/types.js';
import type { PropertySchema, SupportStatus } from '../../template/properties/index.js';
import { isPlainObject, type Json, type JsonObject, setOwn } from '../../util/json.js';
import type { CatalogPlugin } from '../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../nested-type.js';
import { addBatches, batching, isPause } from './batches.js';
import {
  DEPLOYMENT_PROPERTIES,
  GROUP_ATTRIBUTES,
  OUTPUT_VALUES,
  SERVERS_PROPERTY,
  STRUCTURED_PROPERTIES,
} from './deployment-schema.js';
import { memberAttributes } from './member-attributes.js';

/** The group attributes that are maps of a member attribute of another name. */
const MEMBER_ATTRIBUTE: Readonly<Record<string, string>> = {
  deploy_stdouts: 'deploy_stdout',
  deploy_stderrs: 'deploy_stderr',
  deploy_status_codes: 'deploy_status_code',
};

const members = memberAttributes([]);

/**
 * A group attribute from what it cached: `deploy_stdouts` etc., or any other name (a member
 * attribute or a declared output) as a map of member names to the members' values.
 */
export function readDeploymentGroupAttribute(
  cached: Readonly<Record<string, Json>>,
  name: string | undefined,
): Json | undefined {
  const byMember = (members.read(cached, 'attributes') ?? {}) as JsonObject;
  const refs = members.read(cached, 'refs_map');
  const names = isPlainObject(refs) ? Object.keys(refs) : [];
  if (name === undefined) {
    const all: JsonObject = {};
    for (const key of Object.keys(GROUP_ATTRIBUTES))
      setOwn(all, key, readDeploymentGroupAttribute(cached, key) ?? null);
    setOwn(all, 'refs', cached.refs ?? []);
    return all;
  }
  const attribute = MEMBER_ATTRIBUTE[name] ?? name;
  const list = isPlainObject(byMember[attribute]) ? (byMember[attribute] as JsonObject) : undefined;
  const outputs = isPlainObject(byMember[OUTPUT_VALUES]) ? (byMember[OUTPUT_VALUES] as JsonObject) : {};
  const map: JsonObject = {};
  for (const member of names) {
    const own = outputs[member];
    const value = isPlainObject(own) && Object.hasOwn(own, attribute) ? own[attribute] : list?.[member];
    setOwn(map, member, value ?? null);
  }
  return map;
}

/** The member definition's properties: the group's, with `servers` turned into the member's `server`. */
function memberProperties(properties: Record<string, Value>, server: Json, structured: boolean): JsonObject {
  const keys = [
    ...Object.keys(DEPLOYMENT_PROPERTIES),
    ...(structured ? Object.keys(STRUCTURED_PROPERTIES) : []),
  ];
  const out: JsonObject = { server };
  for (const key of keys) {
    const v = properties[key];
    if (v !== undefined && v !== null) setOwn(out, key, v as Json);
  }
  return out;
}

/**
 * The deployment group types: a nested stack with one member deployment (`memberType`) per
 * `servers` entry, named by its key (Heat's SoftwareDeploymentGroup, a ResourceGroup). Members
 * follow the group's update_policy (batch_create, rolling_update) as a ResourceGroup's do.
 */
export function deploymentGroupPlugin(spec: {
  type: string;
  memberType: string;
  description: string;
  structured: boolean;
  supportStatus: SupportStatus;
}): CatalogPlugin & NestedPlugin {
  const properties: Record<string, PropertySchema> = {
    ...DEPLOYMENT_PROPERTIES,
    servers: SERVERS_PROPERTY,
    ...(spec.structured ? STRUCTURED_PROPERTIES : {}),
  };
  return {
    ...NESTED_STUBS,
    type: spec.type,
    description: spec.description,
    supportStatus: spec.supportStatus,
    properties,
    attributes: GROUP_ATTRIBUTES,
    dynamicAttribute: () => true,
    readAttribute: readDeploymentGroupAttribute,
    nested: {
      child(props, _data, options = {}) {
        const servers = isPlainObject(props.servers) ? props.servers : {};
        const names = Object.keys(servers);
        const resources: JsonObject = {};
        for (const name of names) {
          const member = {
            type: spec.memberType,
            properties: memberProperties(props, servers[name] as Json, spec.structured),
          };
          setOwn(resources, name, member);
        }
        const batches = batching(options.updatePolicy, options.creating ?? false, names.length);
        if (batches) addBatches(resources, names, batches, memberProperties(props, null, spec.structured));
        const template = { heat_template_version: '2015-04-30', resources };
        return { template: JSON.stringify(template), parameters: {} };
      },
      attributes: (view) => members.cache({ ...view, members: view.members.filter((m) => !isPause(m.name)) }),
    },
  };
}

const GROUP_DESCRIPTION =
  'This resource associates a group of servers with some configuration. The configuration is to ' +
  'be deployed to all servers in the group. The properties work in a similar way to ' +
  'OS::Heat::SoftwareDeployment, and in addition to the attributes documented, you may pass any ' +
  'attribute supported by OS::Heat::SoftwareDeployment, including those exposing arbitrary ' +
  'outputs, and return a map of deployment names to the specified attribute.';

/** OS::Heat::SoftwareDeploymentGroup. */
export const softwareDeploymentGroupPlugin = deploymentGroupPlugin({
  type: 'OS::Heat::SoftwareDeploymentGroup',
  memberType: 'OS::Heat::SoftwareDeployment',
  description: GROUP_DESCRIPTION,
  structured: false,
  supportStatus: { version: '5.0.0' },
});

/** OS::Heat::SoftwareDeployments: the group's old name, hidden as in Heat 19 (templates still use it). */
export const softwareDeploymentsPlugin = deploymentGroupPlugin({
  type: 'OS::Heat::SoftwareDeployments',
  memberType: 'OS::Heat::SoftwareDeployment',
  description: GROUP_DESCRIPTION,
  structured: false,
  supportStatus: {
    status: 'HIDDEN',
    version: '7.0.0',
    message: 'Please use OS::Heat::SoftwareDeploymentGroup instead.',
    previousStatus: { status: 'DEPRECATED', version: '2014.2' },
  },
});

const STRUCTURED_GROUP_DESCRIPTION =
  'This resource associates a group of servers with some configuration. This resource works ' +
  'similar as OS::Heat::SoftwareDeploymentGroup, but for structured resources.';

/** OS::Heat::StructuredDeploymentGroup. */
export const structuredDeploymentGroupPlugin = deploymentGroupPlugin({
  type: 'OS::Heat::StructuredDeploymentGroup',
  memberType: 'OS::Heat::StructuredDeployment',
  description: STRUCTURED_GROUP_DESCRIPTION,
  structured: true,
  supportStatus: { version: '5.0.0' },
});

/** OS::Heat::StructuredDeployments: hidden old name of StructuredDeploymentGroup. */
export const structuredDeploymentsPlugin = deploymentGroupPlugin({
  type: 'OS::Heat::StructuredDeployments',
  memberType: 'OS::Heat::StructuredDeployment',
  description: STRUCTURED_GROUP_DESCRIPTION,
  structured: true,
  supportStatus: {
    status: 'HIDDEN',
    version: '7.0.0',
    message: 'Please use OS::Heat::StructuredDeploymentGroup instead.',
    previousStatus: { status: 'DEPRECATED', version: '2014.2' },
  },
});
