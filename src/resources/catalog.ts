import type { DocPath } from '../template/errors.js';
import { UNKNOWN, type Value } from '../template/functions/types.js';
import { type SchemaTypeInfo, typeInfo, validateProperties } from '../template/properties/index.js';
import type { PropertyCheckOptions, ResourceTypeInfo, TypeCatalog } from '../template/types.js';
import type { PluginCatalog, ResourcePlugin } from './contract.js';
import type { CatalogPlugin } from './plugin-extras.js';
import { autoScalingGroupPlugin } from './heat/autoscaling-group.js';
import { cloudConfigPlugin } from './heat/cloud-config.js';
import { delayPlugin } from './heat/delay.js';
import { deployedServerPlugin } from './heat/deployed-server.js';
import { multipartMimePlugin } from './heat/multipart-mime.js';
import { nonePlugin } from './heat/none.js';
import { randomStringPlugin } from './heat/random-string.js';
import { resourceChainPlugin } from './heat/resource-chain.js';
import { resourceGroupPlugin } from './heat/resource-group.js';
import { scalingPolicyPlugin } from './heat/scaling-policy.js';
import { softwareComponentPlugin } from './heat/software-component.js';
import { softwareConfigPlugin } from './heat/software-config.js';
import { softwareDeploymentPlugin } from './heat/software-deployment.js';
import {
  softwareDeploymentGroupPlugin,
  softwareDeploymentsPlugin,
  structuredDeploymentGroupPlugin,
  structuredDeploymentsPlugin,
} from './heat/software-deployment-group.js';
import { structuredDeploymentPlugin } from './heat/structured-deployment.js';
import { stackPlugin } from './heat/stack.js';
import { structuredConfigPlugin } from './heat/structured-config.js';
import { testResourcePlugin } from './heat/test-resource.js';
import { valuePlugin } from './heat/value.js';
import { waitConditionPlugin } from './heat/wait-condition.js';
import { waitConditionHandlePlugin } from './heat/wait-condition-handle.js';
import { updateWaitConditionHandlePlugin } from './heat/update-wait-condition-handle.js';
import { awsStackPlugin } from './aws/cloudformation/stack.js';
import { awsWaitConditionPlugin } from './aws/cloudformation/wait-condition.js';
import { awsWaitConditionHandlePlugin } from './aws/cloudformation/wait-condition-handle.js';
import { iamAccessKeyPlugin } from './aws/iam/access-key.js';
import { iamUserPlugin } from './aws/iam/user.js';
import { accessPolicyPlugin } from './heat/access-policy.js';
import { awsAutoScalingGroupPlugin } from './aws/autoscaling/autoscaling-group.js';
import { launchConfigurationPlugin } from './aws/autoscaling/launch-configuration.js';
import { awsScalingPolicyPlugin } from './aws/autoscaling/scaling-policy.js';
import { instanceGroupPlugin } from './heat/instance-group.js';
import { neutronFloatingIpPlugin } from './openstack/neutron/floating-ip.js';
import { neutronFloatingIpAssociationPlugin } from './openstack/neutron/floating-ip-association.js';
import { cinderVolumePlugin } from './openstack/cinder/volume.js';
import { cinderVolumeAttachmentPlugin } from './openstack/cinder/volume-attachment.js';
import { neutronNetPlugin } from './openstack/neutron/net.js';
import { neutronRouterPlugin } from './openstack/neutron/router.js';
import { neutronRouterInterfacePlugin } from './openstack/neutron/router-interface.js';
import { neutronPortPlugin } from './openstack/neutron/port.js';
import { neutronSecurityGroupPlugin } from './openstack/neutron/security-group.js';
import { neutronSecurityGroupRulePlugin } from './openstack/neutron/security-group-rule.js';
import { neutronSubnetPlugin } from './openstack/neutron/subnet.js';
import { novaServerPlugin } from './openstack/nova/server.js';
import { novaFlavorPlugin } from './openstack/nova/flavor.js';
import { novaKeyPairPlugin } from './openstack/nova/keypair.js';
import { ec2EipPlugin } from './aws/ec2/eip.js';
import { ec2EipAssociationPlugin } from './aws/ec2/eip-association.js';
import { ec2InstancePlugin } from './aws/ec2/instance.js';
import { ec2InternetGatewayPlugin } from './aws/ec2/internet-gateway.js';
import { ec2NetworkInterfacePlugin } from './aws/ec2/network-interface.js';
import { ec2RouteTablePlugin } from './aws/ec2/route-table.js';
import { ec2SecurityGroupPlugin } from './aws/ec2/security-group.js';
import { ec2SubnetPlugin } from './aws/ec2/subnet.js';
import { ec2SubnetRouteTableAssociationPlugin } from './aws/ec2/subnet-route-table-association.js';
import { ec2VolumePlugin } from './aws/ec2/volume.js';
import { ec2VolumeAttachmentPlugin } from './aws/ec2/volume-attachment.js';
import { ec2VpcPlugin } from './aws/ec2/vpc.js';
import { ec2VpcGatewayAttachmentPlugin } from './aws/ec2/vpc-gateway-attachment.js';
import { cloudWatchAlarmPlugin } from './aws/cloudwatch/alarm.js';
import { loadBalancerPlugin } from './aws/lb/loadbalancer.js';
import { rdsDbInstancePlugin } from './aws/rds/db-instance.js';
import { s3BucketPlugin } from './aws/s3/bucket.js';
import { swiftContainerPlugin } from './openstack/swift/container.js';

// The engine names plugins' extras through the catalog.
export type { CatalogPlugin, PluginExtras } from './plugin-extras.js';

/** What the deployment's configuration changes in the built-in types' schemas. */
export interface BuiltinOptions {
  /** software_config_transport's default (default_software_config_transport), as Heat reads it from its config. */
  softwareConfigTransport?: string;
}

/** A server type whose software_config_transport defaults to the configured transport. */
function withTransportDefault(plugin: CatalogPlugin, transport: string | undefined): CatalogPlugin {
  const schema = plugin.properties.software_config_transport;
  if (transport === undefined || !schema || schema.default === transport) return plugin;
  return {
    ...plugin,
    properties: { ...plugin.properties, software_config_transport: { ...schema, default: transport } },
  };
}

/** The resource types Hearth has built in. A new array (of shared, stateless plugins) per call. */
export function builtinPlugins(options: BuiltinOptions = {}): ResourcePlugin[] {
  const transport = options.softwareConfigTransport;
  return [
    nonePlugin,
    valuePlugin,
    randomStringPlugin,
    testResourcePlugin,
    resourceGroupPlugin,
    autoScalingGroupPlugin,
    instanceGroupPlugin,
    scalingPolicyPlugin,
    stackPlugin,
    softwareConfigPlugin,
    structuredConfigPlugin,
    cloudConfigPlugin,
    softwareComponentPlugin,
    softwareDeploymentPlugin,
    structuredDeploymentPlugin,
    softwareDeploymentGroupPlugin,
    softwareDeploymentsPlugin,
    structuredDeploymentGroupPlugin,
    structuredDeploymentsPlugin,
    waitConditionHandlePlugin,
    waitConditionPlugin,
    updateWaitConditionHandlePlugin,
    awsWaitConditionHandlePlugin,
    launchConfigurationPlugin,
    awsAutoScalingGroupPlugin,
    awsScalingPolicyPlugin,
    awsWaitConditionPlugin,
    awsStackPlugin,
    iamUserPlugin,
    iamAccessKeyPlugin,
    accessPolicyPlugin,
    resourceChainPlugin,
    delayPlugin,
    multipartMimePlugin,
    neutronNetPlugin,
    neutronSubnetPlugin,
    neutronRouterPlugin,
    neutronRouterInterfacePlugin,
    neutronFloatingIpPlugin,
    neutronFloatingIpAssociationPlugin,
    neutronPortPlugin,
    neutronSecurityGroupPlugin,
    neutronSecurityGroupRulePlugin,
    withTransportDefault(novaServerPlugin, transport),
    withTransportDefault(deployedServerPlugin, transport),
    novaKeyPairPlugin,
    novaFlavorPlugin,
    cinderVolumePlugin,
    cinderVolumeAttachmentPlugin,
    ec2InstancePlugin,
    ec2SecurityGroupPlugin,
    ec2VolumePlugin,
    ec2VolumeAttachmentPlugin,
    ec2EipPlugin,
    ec2EipAssociationPlugin,
    ec2VpcPlugin,
    ec2SubnetPlugin,
    ec2NetworkInterfacePlugin,
    ec2InternetGatewayPlugin,
    ec2VpcGatewayAttachmentPlugin,
    ec2RouteTablePlugin,
    ec2SubnetRouteTableAssociationPlugin,
    loadBalancerPlugin,
    rdsDbInstancePlugin,
    cloudWatchAlarmPlugin,
    s3BucketPlugin,
    swiftContainerPlugin,
  ];
}

/** A TypeCatalog whose entries carry their schemas (for `resource_types show`). */
export interface SchemaTypeCatalog extends TypeCatalog {
  get(type: string): SchemaTypeInfo | undefined;
}

/** The catalog pluginCatalog builds: the contract's, with type entries that carry their schemas. */
export interface SchemaPluginCatalog extends PluginCatalog {
  readonly typeCatalog: SchemaTypeCatalog;
}

/**
 * Indexes plugins by type and describes each to the template layer through its schemas, so that
 * template validation checks properties and attribute names. Every schema is checked here
 * (PropertySchemaError for a plugin's mistake); two plugins for one type are refused.
 */
export function pluginCatalog(plugins: readonly ResourcePlugin[]): SchemaPluginCatalog {
  const byType = new Map<string, ResourcePlugin>();
  const infos = new Map<string, SchemaTypeInfo>();
  const typeCatalog: SchemaTypeCatalog = { get: (type) => infos.get(type), names: () => infos.keys() };
  for (const plugin of plugins) {
    if (byType.has(plugin.type)) throw new Error(`Two plugins implement the resource type ${plugin.type}`);
    byType.set(plugin.type, plugin);
    infos.set(plugin.type, describe(plugin, typeCatalog));
  }
  const names = [...byType.keys()].sort();
  return {
    plugin: (type) => byType.get(type),
    typeCatalog,
    types: () => [...names],
  };
}

function describe(plugin: CatalogPlugin, types: TypeCatalog): SchemaTypeInfo {
  const info = typeInfo(plugin.type, plugin.properties, plugin.attributes, {
    description: plugin.description,
    ...(plugin.supportStatus ? { supportStatus: plugin.supportStatus } : {}),
    ...(plugin.anyProperties ? { anyProperties: true } : {}),
    ...(plugin.dynamicAttribute ? { dynamicAttribute: (name) => plugin.dynamicAttribute!(name) } : {}),
    ...(plugin.readAttribute ? { readAttribute: plugin.readAttribute.bind(plugin) } : {}),
    ...(plugin.implicitDependencies ? { implicitDependencies: plugin.implicitDependencies } : {}),
  });
  if (plugin.crossCheck) Object.assign(info, { crossCheck: plugin.crossCheck });
  if (plugin.secretAttributes) Object.assign(info, { secretAttributes: plugin.secretAttributes });
  const own = plugin.constraintUses;
  const uses: Pick<ResourceTypeInfo, 'constraintUses'> = own
    ? {
        constraintUses: (value, path, wanted) => [
          ...(info.constraintUses?.(value, path, wanted) ?? []),
          ...own.call(plugin, value, path, wanted),
        ],
      }
    : {};
  const validate = plugin.validate;
  if (validate === undefined || plugin.anyProperties) return { ...info, ...uses };
  return {
    ...info,
    ...uses,
    validateProperties(value: Value, path: DocPath, options: PropertyCheckOptions = {}): void {
      // The type's own rules are Heat's Resource.validate(): not run by template validate.
      if (options.phase === 'validate') return info.validateProperties(value, path, options);
      const converted = validateProperties(plugin.properties, value, path);
      if (converted !== UNKNOWN)
        validate.call(plugin, converted as Record<string, Value>, path, types, options.scope);
    },
  };
}
