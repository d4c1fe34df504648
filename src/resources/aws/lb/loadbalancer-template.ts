import type { Json, JsonObject } from '../../../util/json.js';

/**
 * The child template of AWS::ElasticLoadBalancing::LoadBalancer, shaped as Heat's built-in one: a
 * server that cfn-init sets up as haproxy (its configuration a file of the server's metadata, so
 * an update of the members rewrites the metadata and cfn-hup reloads haproxy), and a wait
 * condition its boot script signals. KeyName is a parameter only when the parent stack has one.
 *
 * As Heat's, it makes an IAM user and access key for the credentials file cfn-init and cfn-hup
 * sign their metadata reads with. Heat's also has a CloudWatch alarm on the latency its stats
 * pusher sent to Heat's CloudWatch API (since removed from Heat); this one has none.
 */

/** Heat's defaults for the server's image, flavor and the wait (the parent's parameters override them). */
export const LB_DEFAULTS = {
  LbImageId: 'Fedora-Cloud-Base-20141203-21.x86_64',
  LbFlavor: 'm1.small',
  LBTimeout: '600',
};

export const HAPROXY_CFG = '/etc/haproxy/haproxy.cfg';

const ref = (name: string): Json => ({ Ref: name });
const join = (...parts: Json[]): Json => ({ 'Fn::Join': ['', parts] });
const rootFile = (content: Json, mode = '000400') => ({ content, mode, owner: 'root', group: 'root' });

const BOOT = [
  '#!/bin/bash -v\n',
  'fail() {\n',
  '  /opt/aws/bin/cfn-signal -e 1 -r "$1" \'',
  ref('WaitHandle'),
  "'\n",
  '  exit 1\n',
  '}\n',
  '/opt/aws/bin/cfn-init -s ',
  ref('AWS::StackId'),
  ' -r LB_instance --region ',
  ref('AWS::Region'),
  ' || fail "cfn-init failed"\n',
  '# haproxy may connect to any port under SELinux\n',
  'setsebool haproxy_connect_any 1\n',
  '# cfn-hup polls the metadata every minute\n',
  'crontab /tmp/cfn-hup-crontab.txt\n',
  'systemctl reload-or-restart haproxy.service\n',
  '/opt/aws/bin/cfn-signal -e 0 -r "LB server setup complete" \'',
  ref('WaitHandle'),
  "'\n",
];

export function loadBalancerTemplate(withKey: boolean, haproxyCfg: string): JsonObject {
  const parameters: JsonObject = {
    LbImageId: { Type: 'String', Default: LB_DEFAULTS.LbImageId },
    LbFlavor: { Type: 'String', Default: LB_DEFAULTS.LbFlavor },
    LBTimeout: { Type: 'String', Default: LB_DEFAULTS.LBTimeout },
    SecurityGroups: { Type: 'CommaDelimitedList', Default: '' },
  };
  if (withKey) parameters.KeyName = { Type: 'String' };
  // A cfn-hup hook run when the server's metadata changes: its action's parts, joined.
  const hook = (...action: Json[]) =>
    join('triggers=post.update\npath=Resources.LB_instance.Metadata\naction=', ...action, '\nrunas=root\n');
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: 'Hearth’s built-in load balancer: an haproxy server',
    Parameters: parameters,
    Resources: {
      LB_instance: {
        Type: 'AWS::EC2::Instance',
        Metadata: {
          'AWS::CloudFormation::Init': {
            config: {
              packages: { yum: { haproxy: [], socat: [] } },
              services: { systemd: { crond: { enabled: 'true', ensureRunning: 'true' } } },
              files: {
                '/etc/cfn/cfn-credentials': rootFile(
                  join(
                    'AWSAccessKeyId=',
                    ref('CfnLBAccessKey'),
                    '\nAWSSecretKey=',
                    { 'Fn::GetAtt': ['CfnLBAccessKey', 'SecretAccessKey'] },
                    '\n',
                  ),
                ),
                '/etc/cfn/cfn-hup.conf': rootFile(
                  join(
                    '[main]\nstack=',
                    ref('AWS::StackId'),
                    '\nregion=',
                    ref('AWS::Region'),
                    '\ninterval=60\n',
                  ),
                ),
                '/etc/cfn/hooks.conf': rootFile(
                  join(
                    '[cfn-init]\n',
                    hook(
                      '/opt/aws/bin/cfn-init -s ',
                      ref('AWS::StackId'),
                      ' -r LB_instance --region ',
                      ref('AWS::Region'),
                    ),
                    '\n[reload]\n',
                    hook('systemctl reload-or-restart haproxy.service'),
                  ),
                ),
                [HAPROXY_CFG]: rootFile(haproxyCfg, '000644'),
                '/tmp/cfn-hup-crontab.txt': rootFile(
                  'MAIL=""\n\n* * * * * /opt/aws/bin/cfn-hup -f\n',
                  '000600',
                ),
              },
            },
          },
        },
        Properties: {
          ImageId: ref('LbImageId'),
          InstanceType: ref('LbFlavor'),
          ...(withKey ? { KeyName: ref('KeyName') } : {}),
          SecurityGroups: ref('SecurityGroups'),
          UserData: { 'Fn::Base64': join(...BOOT) },
        },
      },
      CfnLBUser: { Type: 'AWS::IAM::User' },
      CfnLBAccessKey: {
        Type: 'AWS::IAM::AccessKey',
        Properties: { UserName: ref('CfnLBUser') },
      },
      WaitHandle: { Type: 'AWS::CloudFormation::WaitConditionHandle' },
      WaitCondition: {
        Type: 'AWS::CloudFormation::WaitCondition',
        DependsOn: 'LB_instance',
        Properties: { Handle: ref('WaitHandle'), Timeout: ref('LBTimeout') },
      },
    },
    Outputs: {
      PublicIp: { Value: { 'Fn::GetAtt': ['LB_instance', 'PublicIp'] }, Description: 'The server’s address' },
    },
  };
}
