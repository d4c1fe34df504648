import type { Value } from '../../../template/functions/types.js';
import { C, P } from '../../../template/properties/index.js';
import type { Json, JsonObject } from '../../../util/json.js';
import type { CatalogPlugin } from '../../plugin-extras.js';
import { NESTED_STUBS, type NestedPlugin } from '../../nested-type.js';

/**
 * AWS::RDS::DBInstance: as in Heat, a nested stack from a built-in template (Heat keeps it in its
 * global environment as a template resource): a server in a security group that opens SSH, ICMP
 * and the database port, set up by cfn-init from its metadata (MariaDB installed, the database and
 * its user made by a SQL file) and reporting through a wait condition it has 600 s to signal.
 * Every property is a parameter of that template, so every change updates the child. Its
 * attributes are the child's outputs: the server's public address and the port.
 */

const ENDPOINT_ADDRESS = 'Endpoint.Address';
const ENDPOINT_PORT = 'Endpoint.Port';
/** The image Heat's template boots: one with heat-cfntools (a cloud must offer it by that name). */
export const DB_IMAGE = 'F19-x86_64-cfntools';

/** DB instance classes and the flavors they run on. */
const CLASSES: Record<string, string> = {
  'db.m1.small': 'm1.small',
  'db.m1.large': 'm1.large',
  'db.m1.xlarge': 'm1.xlarge',
  'db.m2.xlarge': 'm2.xlarge',
  'db.m2.2xlarge': 'm2.2xlarge',
  'db.m2.4xlarge': 'm2.4xlarge',
};

const ref = (name: string) => ({ Ref: name });
const tcp = (port: Json) => ({ IpProtocol: 'tcp', FromPort: port, ToPort: port, CidrIp: '0.0.0.0/0' });

/** The SQL the server runs once MariaDB is up: the database, and a user with every right on it. */
const SETUP_SQL = [
  'CREATE DATABASE DBName;',
  'GRANT ALL PRIVILEGES ON DBName.* TO "MasterUsername"@"%"',
  'IDENTIFIED BY "MasterUserPassword";',
  'FLUSH PRIVILEGES;',
  'EXIT',
  '',
].join('\n');

/** The server's first boot: cfn-init, the root password, the SQL, then the signal. */
const BOOT_SCRIPT = [
  '#!/bin/bash -v',
  'iptables -F',
  'fail() {',
  `  /opt/aws/bin/cfn-signal -e 1 -r "$1" 'WaitHandle'`,
  '  exit 1',
  '}',
  '/opt/aws/bin/cfn-init -s AWS::StackName -r DatabaseInstance --region AWS::Region || fail "cfn-init failed"',
  `mysqladmin -u root password 'MasterUserPassword'`,
  `mysql -u root --password='MasterUserPassword' < /tmp/db_setup.sql || fail "the database setup failed"`,
  `/opt/aws/bin/cfn-signal -e 0 -r "MySQL server setup complete" 'WaitHandle'`,
  '',
].join('\n');

/** The child's template (CloudFormation format, as Heat's); KeyName only when one is given. */
function dbTemplate(withKey: boolean): JsonObject {
  const parameters: JsonObject = {
    AllocatedStorage: { Type: 'String' },
    DBInstanceClass: { Type: 'String' },
    DBName: { Type: 'String' },
    DBSecurityGroups: { Type: 'CommaDelimitedList', Default: '' },
    Engine: { Type: 'String', AllowedValues: ['MySQL'] },
    MasterUsername: { Type: 'String' },
    // Hidden, unlike Heat's: the child's parameters are shown by the API.
    MasterUserPassword: { Type: 'String', NoEcho: 'true' },
    Port: { Type: 'String', Default: '3306' },
  };
  if (withKey) parameters.KeyName = { Type: 'String' };
  const instanceTypes: JsonObject = {};
  for (const [cls, flavor] of Object.entries(CLASSES)) instanceTypes[cls] = { Instance: flavor };
  return {
    HeatTemplateFormatVersion: '2012-12-12',
    Description: 'Hearth’s built-in AWS::RDS::DBInstance: a MySQL server',
    Parameters: parameters,
    Mappings: { DBInstanceToInstance: instanceTypes },
    Resources: {
      ServerSecurityGroup: {
        Type: 'AWS::EC2::SecurityGroup',
        Properties: {
          GroupDescription: 'SSH, ICMP and the database port',
          SecurityGroupIngress: [
            { IpProtocol: 'icmp', FromPort: '-1', ToPort: '-1', CidrIp: '0.0.0.0/0' },
            tcp('22'),
            tcp(ref('Port')),
          ],
        },
      },
      DatabaseInstance: {
        Type: 'AWS::EC2::Instance',
        Metadata: {
          'AWS::CloudFormation::Init': {
            config: {
              packages: { yum: { mariadb: [], 'mariadb-server': [] } },
              services: { systemd: { mysqld: { enabled: true, ensureRunning: true } } },
              files: {
                '/tmp/db_setup.sql': {
                  content: {
                    'Fn::Replace': [
                      {
                        DBName: ref('DBName'),
                        MasterUsername: ref('MasterUsername'),
                        MasterUserPassword: ref('MasterUserPassword'),
                      },
                      SETUP_SQL,
                    ],
                  },
                  mode: '000644',
                  owner: 'root',
                  group: 'root',
                },
              },
            },
          },
        },
        Properties: {
          ImageId: DB_IMAGE,
          InstanceType: { 'Fn::FindInMap': ['DBInstanceToInstance', ref('DBInstanceClass'), 'Instance'] },
          ...(withKey ? { KeyName: ref('KeyName') } : {}),
          SecurityGroups: [ref('ServerSecurityGroup')],
          UserData: {
            'Fn::Base64': {
              'Fn::Replace': [
                {
                  'AWS::StackName': ref('AWS::StackName'),
                  'AWS::Region': ref('AWS::Region'),
                  MasterUserPassword: ref('MasterUserPassword'),
                  WaitHandle: ref('WaitHandle'),
                },
                BOOT_SCRIPT,
              ],
            },
          },
        },
      },
      WaitHandle: { Type: 'AWS::CloudFormation::WaitConditionHandle' },
      WaitCondition: {
        Type: 'AWS::CloudFormation::WaitCondition',
        DependsOn: 'DatabaseInstance',
        Properties: { Handle: ref('WaitHandle'), Timeout: '600' },
      },
    },
    Outputs: {
      [ENDPOINT_ADDRESS]: { Value: { 'Fn::GetAtt': ['DatabaseInstance', 'PublicIp'] } },
      [ENDPOINT_PORT]: { Value: ref('Port') },
    },
  };
}

const stringProperty = (description: string, required = true) =>
  P.string({ description, required, updateAllowed: true });

export const rdsDbInstancePlugin: CatalogPlugin & NestedPlugin = {
  ...NESTED_STUBS,
  type: 'AWS::RDS::DBInstance',
  description: 'A MySQL database server: a nested stack of a server set up by cfn-init.',
  properties: {
    AllocatedStorage: stringProperty('The storage to allocate, in GB (not used by the built-in template).'),
    DBInstanceClass: stringProperty('The class of the server (db.m1.small ...), which names its flavor.'),
    DBName: stringProperty('The name of the database to create.'),
    DBSecurityGroups: P.list({
      description: 'Database security groups (not used by the built-in template).',
      updateAllowed: true,
    }),
    Engine: P.string({
      description: 'The database engine.',
      required: true,
      updateAllowed: true,
      constraints: [C.allowedValues(['MySQL'])],
    }),
    KeyName: stringProperty('The Nova key pair to log in to the server with.', false),
    MasterUserPassword: stringProperty('The password of the database’s user.'),
    MasterUsername: stringProperty('The name of the database’s user.'),
    Port: stringProperty('The port the database listens on (default 3306).', false),
  },
  attributes: {
    [ENDPOINT_ADDRESS]: { description: 'The address the database is reached at.' },
    [ENDPOINT_PORT]: { description: 'The port the database listens on.' },
  },

  nested: {
    child(properties: Record<string, Value>) {
      const parameters: JsonObject = {};
      for (const name of ['AllocatedStorage', 'DBInstanceClass', 'DBName', 'Engine', 'MasterUsername']) {
        parameters[name] = String(properties[name] ?? '');
      }
      parameters.MasterUserPassword = String(properties.MasterUserPassword ?? '');
      const groups = properties.DBSecurityGroups;
      if (Array.isArray(groups)) parameters.DBSecurityGroups = groups.map(String).join(',');
      if (typeof properties.Port === 'string') parameters.Port = properties.Port;
      const key =
        typeof properties.KeyName === 'string' && properties.KeyName !== '' ? properties.KeyName : null;
      if (key !== null) parameters.KeyName = key;
      return { template: JSON.stringify(dbTemplate(key !== null)), parameters };
    },
    attributes(view) {
      return {
        [ENDPOINT_ADDRESS]: view.outputs[ENDPOINT_ADDRESS] ?? null,
        [ENDPOINT_PORT]: view.outputs[ENDPOINT_PORT] ?? null,
      };
    },
  },
};
