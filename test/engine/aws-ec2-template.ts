/**
 * A HOT template using every AWS::EC2 type, for the engine's and the CLI's tests: a VPC with a
 * subnet moved to a route table that has a gateway, a security group, an interface with an
 * instance on it (a volume attached at boot and another by a VolumeAttachment), an EIP on that
 * instance, a second instance on the subnet with an EIPAssociation by allocation id. `tag` is the
 * first instance's role tag, `ingressPort` the security group's one ingress port.
 */
export const awsStack = (tag: string, ingressPort: string) => `heat_template_version: 2018-08-31
resources:
  vpc: {type: AWS::EC2::VPC, properties: {CidrBlock: 10.9.0.0/16}}
  subnet:
    type: AWS::EC2::Subnet
    properties: {VpcId: {get_resource: vpc}, CidrBlock: 10.9.1.0/24, AvailabilityZone: nova}
  table: {type: AWS::EC2::RouteTable, properties: {VpcId: {get_resource: vpc}}}
  routed:
    type: AWS::EC2::SubnetRouteTableAssociation
    properties: {RouteTableId: {get_resource: table}, SubnetId: {get_resource: subnet}}
  gateway: {type: AWS::EC2::InternetGateway}
  attachment:
    type: AWS::EC2::VPCGatewayAttachment
    properties: {VpcId: {get_resource: vpc}, InternetGatewayId: {get_resource: gateway}}
  sg:
    type: AWS::EC2::SecurityGroup
    properties:
      GroupDescription: web servers
      SecurityGroupIngress: [{IpProtocol: tcp, FromPort: '${ingressPort}', ToPort: '${ingressPort}', CidrIp: 0.0.0.0/0}]
  nic:
    type: AWS::EC2::NetworkInterface
    depends_on: routed
    properties: {SubnetId: {get_resource: subnet}, GroupSet: [{get_resource: sg}]}
  boot_volume: {type: AWS::EC2::Volume, properties: {Size: 1, AvailabilityZone: nova}}
  web:
    type: AWS::EC2::Instance
    properties:
      ImageId: cirros-0.6.2-x86_64-disk
      InstanceType: m1.tiny
      NetworkInterfaces: [{NetworkInterfaceId: {get_resource: nic}, DeviceIndex: '0'}]
      Tags: [{Key: role, Value: ${tag}}]
      UserData: echo hello
      Volumes: [{VolumeId: {get_resource: boot_volume}, Device: /dev/vdc}]
  data: {type: AWS::EC2::Volume, properties: {Size: 1, AvailabilityZone: nova, Tags: [{Key: tier, Value: gold}]}}
  mount:
    type: AWS::EC2::VolumeAttachment
    properties: {InstanceId: {get_resource: web}, VolumeId: {get_resource: data}, Device: /dev/vdb}
  ip:
    type: AWS::EC2::EIP
    depends_on: attachment
    properties: {InstanceId: {get_resource: web}}
  worker:
    type: AWS::EC2::Instance
    depends_on: routed
    properties:
      ImageId: cirros-0.6.2-x86_64-disk
      InstanceType: m1.tiny
      SubnetId: {get_resource: subnet}
      SecurityGroups: [{get_resource: sg}]
  worker_ip: {type: AWS::EC2::EIP, depends_on: attachment, properties: {Domain: vpc}}
  worker_ip_assoc:
    type: AWS::EC2::EIPAssociation
    properties: {AllocationId: {get_attr: [worker_ip, AllocationId]}, InstanceId: {get_resource: worker}}
outputs:
  address: {value: {get_resource: ip}}
  public_ip: {value: {get_attr: [web, PublicIp]}}
  zone: {value: {get_attr: [subnet, AvailabilityZone]}}
  nic_ip: {value: {get_attr: [nic, PrivateIpAddress]}}
  gateway: {value: {get_resource: gateway}}
`;
