import type { CatalogPlugin } from '../../plugin-extras.js';
import { physicalResourceName } from '../../heat/physical-name.js';
import { rowReality } from '../../heat/row-reality.js';
import { tagsProperty } from './common.js';

/**
 * AWS::EC2::InternetGateway: nothing in the cloud (Neutron's external network is the gateway; a
 * VPCGatewayAttachment connects route tables to it). Its physical id is its physical name, as in Heat.
 */
export const ec2InternetGatewayPlugin: CatalogPlugin = {
  type: 'AWS::EC2::InternetGateway',
  description: "An internet gateway: the cloud's external network, which VPCGatewayAttachment connects to.",
  inRow: true,
  observes: false,
  properties: { Tags: tagsProperty() },
  attributes: {},

  async create(ctx) {
    return { physicalId: physicalResourceName(ctx) };
  },

  async delete() {
    return {};
  },

  getReality: rowReality,

  async attribute() {
    return null;
  },
};
