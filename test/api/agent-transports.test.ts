import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ec2SignatureV2 } from '../../src/api/agent/cfn.js';
import { cfnInitData } from '../../src/resources/server-agent/user-data.js';
import type { ServerRecord } from '../../src/sandbox/compute/server-state.js';
import { sandboxCloud } from '../sandbox/support.js';
import {
  runZaqarclientScript,
  type ServeProcess,
  startNoauthServe,
  zaqarclientSkip,
} from './serve-process.js';

// A real `hearth serve` and the sandbox cloud: SOFTWARE_CONFIG servers boot with a cfn-init-data
// part naming their transport and credential, and the test acts as each server's agent over HTTP.

const PROJECT = 'agents';
const zaqarclientMissing = await zaqarclientSkip();

const STACK = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: agents-net}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.72.0.0/24}
  cfn:
    type: OS::Nova::Server
    depends_on: subnet
    metadata: {role: web}
    properties: &server
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data_format: SOFTWARE_CONFIG
      user_data: "#!/bin/sh\\necho booted\\n"
  heat:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      <<: *server
      software_config_transport: POLL_SERVER_HEAT
  url:
    type: OS::Nova::Server
    depends_on: subnet
    properties:
      <<: *server
      software_config_transport: POLL_TEMP_URL
  zaq:
    type: OS::Nova::Server
    depends_on: subnet
    metadata: {role: queue}
    properties:
      <<: *server
      software_config_transport: ZAQAR_MESSAGE
  deployed:
    type: OS::Heat::DeployedServer
    properties: {software_config_transport: POLL_TEMP_URL}
outputs:
  deployed_occ: {value: {get_attr: [deployed, os_collect_config]}}
  cfn_occ: {value: {get_attr: [cfn, os_collect_config]}}
  url_occ: {value: {get_attr: [url, os_collect_config]}}
`;

/** A Zaqar Client-ID (zaqarclient sends a UUID). */
const CLIENT = '3381af92-2b9e-11e3-b191-71861300734c';

interface Occ {
  collectors: string[];
  cfn?: {
    metadata_url: string;
    access_key_id: string;
    secret_access_key: string;
    stack_name: string;
    path: string;
  };
  heat?: {
    user_id: string;
    password: string;
    auth_url: string;
    project_id: string;
    stack_id: string;
    resource_name: string;
  };
  request?: { metadata_url: string };
  zaqar?: {
    user_id: string;
    password: string;
    auth_url: string;
    project_id: string;
    queue_id: string;
    region_name: string | null;
  };
}

type Json = Record<string, unknown>;

describe('API: servers’ agents reach their metadata through each software_config_transport', () => {
  const cloud = sandboxCloud();
  let serve: ServeProcess;
  let api: string;
  let stackPath = '';
  const occs: Record<string, Occ> = {};

  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, headers: response.headers };
  };

  /** A Keystone v3 password login at the agent identity route: the token and the catalog's endpoints. */
  const login = async (auth: { auth_url: string; user_id: string; password: string; project_id: string }) => {
    const r = await call('POST', `${auth.auth_url}/auth/tokens`, {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { id: auth.user_id, password: auth.password } },
        },
        scope: { project: { id: auth.project_id } },
      },
    });
    assert.equal(r.status, 201, r.text);
    const catalog = (JSON.parse(r.text) as { token: { catalog: Json[] } }).token.catalog;
    const endpoint = (type: string) =>
      (catalog.find((c) => c.type === type) as { endpoints: { url: string }[] }).endpoints[0]!.url;
    return { token: r.headers.get('x-subject-token')!, endpoint };
  };

  /** A request to the Zaqar subset as zaqarclient sends it (a Client-ID unless told otherwise). */
  const zaqar = (
    method: string,
    url: string,
    token: string,
    body?: unknown,
    clientId: string | null = CLIENT,
  ) =>
    call(method, url, body, {
      'x-auth-token': token,
      ...(clientId === null ? {} : { 'client-id': clientId }),
      ...(method === 'DELETE' ? { 'content-type': 'application/json' } : {}),
    });

  const waitFor = async (name: string, wanted: RegExp): Promise<Json> => {
    for (let i = 0; i < 600; i++) {
      const r = await call('GET', `${api}/stacks/${name}`);
      const stack = (JSON.parse(r.text) as { stack: Json }).stack;
      if (wanted.test(String(stack.stack_status))) return stack;
      if (
        /FAILED|COMPLETE/.test(String(stack.stack_status)) &&
        !/IN_PROGRESS/.test(String(stack.stack_status))
      )
        assert.fail(`${name}: ${String(stack.stack_status)} ${String(stack.stack_status_reason)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail(`${name} never reached ${wanted}`);
  };

  /** A DescribeStackResource request as os-collect-config's cfn collector signs it. */
  const describeResource = async (occ: NonNullable<Occ['cfn']>, resource: string, accept?: string) => {
    const url = new URL(occ.metadata_url);
    const params: Record<string, string> = {
      Action: 'DescribeStackResource',
      StackName: occ.stack_name,
      LogicalResourceId: resource,
      AWSAccessKeyId: occ.access_key_id,
      SignatureVersion: '2',
      SignatureMethod: 'HmacSHA256',
    };
    params.Signature = ec2SignatureV2(occ.secret_access_key, {
      verb: 'GET',
      host: url.host,
      path: url.pathname,
      params,
    });
    return call('GET', `${occ.metadata_url}?${new URLSearchParams(params).toString()}`, undefined, {
      'content-type': 'application/json',
      ...(accept ? { accept } : {}),
    });
  };

  before(async () => {
    serve = await startNoauthServe();
    api = `${serve.url}/v1/${PROJECT}`;
    const created = await call('POST', `${api}/stacks`, { stack_name: 'agents', template: STACK });
    assert.equal(created.status, 201, created.text);
    const stack = await waitFor('agents', /^CREATE_COMPLETE$/);
    stackPath = `agents/${String(stack.id)}`;
  });
  after(async () => serve?.stop());

  it('each server boots with a cfn-init-data part carrying its transport’s os-collect-config', async () => {
    for (const name of ['cfn', 'heat', 'url', 'zaq']) {
      const shown = await call('GET', `${api}/stacks/${stackPath}/resources/${name}`);
      const id = (JSON.parse(shown.text) as { resource: Json }).resource.physical_resource_id as string;
      const server = cloud.state.get<ServerRecord>('server', id);
      assert.ok(server?.userData, `${name}: the server has user data`);
      const mime = Buffer.from(server.userData, 'base64').toString('utf8');
      assert.match(mime, /Content-Type: multipart\/mixed/);
      assert.match(mime, /echo booted/, 'the user’s script is a part of it');
      const init = cfnInitData(mime);
      assert.ok(init, `${name}: a cfn-init-data part`);
      assert.deepEqual(init.deployments, []);
      occs[name] = init['os-collect-config'] as unknown as Occ;
    }
    assert.deepEqual(occs.cfn!.collectors, ['ec2', 'cfn', 'local']);
    assert.deepEqual(occs.heat!.collectors, ['ec2', 'heat', 'local']);
    assert.deepEqual(occs.url!.collectors, ['ec2', 'request', 'local']);
    assert.deepEqual(occs.zaq!.collectors, ['ec2', 'zaqar', 'local']);
    assert.equal(occs.zaq!.zaqar!.auth_url, `${serve.url}/agent-identity/v3`);
    assert.match(occs.zaq!.zaqar!.queue_id, /^agents-zaq-[a-z2-7]{12}$/, 'named as Heat names it');
    assert.equal(occs.cfn!.cfn!.metadata_url, `${serve.url}/cfn/v1/`);
    assert.equal(occs.cfn!.cfn!.path, 'cfn.Metadata');
    assert.equal(occs.heat!.heat!.auth_url, `${serve.url}/agent-identity/v3`);
    assert.equal(occs.heat!.heat!.stack_id, stackPath);
    // The attribute says the same as the boot data.
    const outputs = await call('GET', `${api}/stacks/${stackPath}/outputs/cfn_occ`);
    assert.deepEqual((JSON.parse(outputs.text) as { output: Json }).output.output_value, occs.cfn);
  });

  it('POLL_SERVER_CFN: an EC2-signed DescribeStackResource gives the metadata (XML as Heat’s, or JSON)', async () => {
    const occ = occs.cfn!.cfn!;
    const xml = await describeResource(occ, 'cfn');
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.headers.get('content-type') ?? '', /application\/xml/);
    const text = /<Metadata>(.*)<\/Metadata>/.exec(xml.text)?.[1];
    assert.ok(text, xml.text);
    const metadata = JSON.parse(text.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as Json;
    assert.equal(metadata.role, 'web', 'the template’s metadata');
    assert.deepEqual(metadata.deployments, []);
    assert.deepEqual(metadata['os-collect-config'], occs.cfn);
    assert.match(xml.text, /<ResourceStatus>CREATE_COMPLETE<\/ResourceStatus>/);

    const json = await describeResource(occ, 'cfn', 'application/json');
    const detail = (JSON.parse(json.text) as Json).DescribeStackResourceResponse as Json;
    assert.deepEqual(
      ((detail.DescribeStackResourceResult as Json).StackResourceDetail as Json).Metadata,
      metadata,
    );

    const other = await describeResource(occ, 'heat');
    assert.equal(other.status, 403, 'another server’s metadata');
    assert.match(other.text, /<Code>AccessDenied<\/Code>/);
    const forged = await describeResource({ ...occ, secret_access_key: 'not-the-secret' }, 'cfn');
    assert.equal(forged.status, 403);
    assert.match(forged.text, /SignatureDoesNotMatch/);
  });

  it('POLL_SERVER_HEAT: a Keystone v3 password login, then the resource metadata through the catalog', async () => {
    const occ = occs.heat!.heat!;
    const login = await call('POST', `${occ.auth_url}/auth/tokens`, {
      auth: {
        identity: { methods: ['password'], password: { user: { id: occ.user_id, password: occ.password } } },
        scope: { project: { id: occ.project_id } },
      },
    });
    assert.equal(login.status, 201, login.text);
    const token = login.headers.get('x-subject-token')!;
    const catalog = (JSON.parse(login.text) as { token: { catalog: Json[] } }).token.catalog;
    const heat = catalog.find((s) => s.type === 'orchestration') as { endpoints: { url: string }[] };
    const endpoint = heat.endpoints[0]!.url;
    assert.equal(endpoint, `${serve.url}/v1/${PROJECT}`);
    const auth = { 'x-auth-token': token };
    const read = await call(
      'GET',
      `${endpoint}/stacks/${occ.stack_id}/resources/${occ.resource_name}/metadata`,
      undefined,
      auth,
    );
    assert.equal(read.status, 200, read.text);
    const metadata = (JSON.parse(read.text) as { metadata: Json }).metadata;
    assert.deepEqual(metadata['os-collect-config'], occs.heat);
    assert.deepEqual(metadata.deployments, []);

    // Nothing else: another server's metadata, the stack, another project.
    const refusals = [
      await call('GET', `${endpoint}/stacks/${occ.stack_id}/resources/cfn/metadata`, undefined, auth),
      await call('GET', `${endpoint}/stacks/${occ.stack_id}`, undefined, auth),
      await call('POST', `${endpoint}/stacks/${occ.stack_id}/resources/cfn/signal`, {}, auth),
    ];
    for (const r of refusals) assert.equal(r.status, 403, r.text);
    const elsewhere = await call(
      'GET',
      `${serve.url}/v1/other/stacks/${occ.stack_id}/resources/heat/metadata`,
      undefined,
      auth,
    );
    assert.equal(elsewhere.status, 403, elsewhere.text);
    const wrong = await call('POST', `${occ.auth_url}/auth/tokens`, {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { id: occ.user_id, password: `${occ.password}x` } },
        },
      },
    });
    assert.equal(wrong.status, 401, wrong.text);
  });

  it('POLL_TEMP_URL: a GET of the pre-signed URL is the metadata document; a DeployedServer’s too', async () => {
    const read = await call('GET', occs.url!.request!.metadata_url);
    assert.equal(read.status, 200, read.text);
    const metadata = JSON.parse(read.text) as Json;
    assert.deepEqual(metadata['os-collect-config'], occs.url);
    assert.deepEqual(metadata.deployments, []);

    const outputs = await call('GET', `${api}/stacks/${stackPath}/outputs/deployed_occ`);
    const deployed = (JSON.parse(outputs.text) as { output: { output_value: Occ } }).output.output_value;
    assert.deepEqual(deployed.collectors, ['request', 'local'], 'no ec2 collector for a DeployedServer');
    const own = await call('GET', deployed.request!.metadata_url);
    assert.equal(own.status, 200, own.text);
    assert.deepEqual((JSON.parse(own.text) as Json)['os-collect-config'], deployed);
  });

  it('ZAQAR_MESSAGE: the login’s catalog names messaging, where a pop of the server’s queue is its metadata', async () => {
    const occ = occs.zaq!.zaqar!;
    const { token, endpoint } = await login(occ);
    const messaging = endpoint('messaging');
    assert.equal(messaging, `${serve.url}/agent-messaging`);
    const queue = `${messaging}/v2/queues/${occ.queue_id}`;
    const popped = await zaqar('DELETE', `${queue}/messages?pop=1`, token);
    assert.equal(popped.status, 200, popped.text);
    const [message] = (JSON.parse(popped.text) as { messages: Json[] }).messages;
    const body = message!.body as Json;
    assert.equal(body.role, 'queue', 'the template’s metadata');
    assert.deepEqual(body.deployments, []);
    assert.deepEqual(body['os-collect-config'], occs.zaq);
    assert.deepEqual(
      Object.keys(message!).sort(),
      ['age', 'body', 'href', 'id', 'ttl'],
      'Zaqar’s message fields',
    );
    const again = await zaqar('DELETE', `${queue}/messages?pop=1`, token);
    assert.deepEqual(JSON.parse(again.text), JSON.parse(popped.text), 'every pop gives the document now');
    const listed = await zaqar('GET', `${queue}/messages`, token);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(JSON.parse(listed.text), { messages: [message], links: [] });
    assert.equal((await zaqar('PUT', queue, token)).status, 204, 'the queue exists');

    // Zaqar's rules: a Client-ID, a valid token, and only this credential's queues.
    const missing = await zaqar('DELETE', `${queue}/messages?pop=1`, token, undefined, null);
    assert.equal(missing.status, 400, missing.text);
    assert.equal((JSON.parse(missing.text) as Json).title, 'Missing header value');
    const malformed = await zaqar('DELETE', `${queue}/messages?pop=1`, token, undefined, 'not-a-uuid');
    assert.equal(malformed.status, 400, malformed.text);
    const forged = await zaqar('DELETE', `${queue}/messages?pop=1`, `${token}x`);
    assert.equal(forged.status, 401, forged.text);
    assert.equal((await zaqar('GET', `${queue}/messages`, 'hearth-api-token')).status, 401);
    const another = await zaqar('DELETE', `${messaging}/v2/queues/other-queue/messages?pop=1`, token);
    assert.equal(another.status, 403, another.text);
    assert.equal((JSON.parse(another.text) as Json).title, 'Not authorized');
    const { token: heatToken } = await login(occs.heat!.heat!);
    const stranger = await zaqar('DELETE', `${queue}/messages?pop=1`, heatToken);
    assert.equal(stranger.status, 403, `another server’s agent: ${stranger.text}`);
    const posted = await zaqar('POST', `${queue}/messages`, token, { messages: [{ body: {}, ttl: 60 }] });
    assert.equal(posted.status, 403, 'the metadata queue takes no messages from the agent');
    const badPop = await zaqar('DELETE', `${queue}/messages?pop=0`, token);
    assert.equal(badPop.status, 400, badPop.text);
    const unknown = await zaqar('GET', `${messaging}/v2/queues/${occ.queue_id}/stats`, token);
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal((JSON.parse(unknown.text) as Json).title, 'Not found');
  });

  it('the deployments to a server are in its metadata for every transport, current at each read', async () => {
    const shown = await call('GET', `${api}/stacks/${stackPath}/resources/url`);
    const serverId = (JSON.parse(shown.text) as { resource: Json }).resource.physical_resource_id as string;
    const config = await call('POST', `${api}/software_configs`, {
      name: 'hello',
      group: 'script',
      config: 'echo hello',
    });
    assert.equal(config.status, 200, config.text);
    const configId = (JSON.parse(config.text) as { software_config: Json }).software_config.id as string;
    const made = await call('POST', `${api}/software_deployments`, {
      config_id: configId,
      server_id: serverId,
      action: 'CREATE',
      status: 'IN_PROGRESS',
    });
    assert.ok([200, 201].includes(made.status), made.text);
    const read = await call('GET', occs.url!.request!.metadata_url);
    const deployments = (JSON.parse(read.text) as { deployments: Json[] }).deployments;
    assert.equal(deployments.length, 1, read.text);
    assert.equal(deployments[0]!.config, 'echo hello');
    assert.equal(deployments[0]!.group, 'script');
    // Another server's metadata does not have it.
    const cfn = await describeResource(occs.cfn!.cfn!, 'cfn', 'application/json');
    assert.doesNotMatch(cfn.text, /echo hello/);
    const id = (JSON.parse(made.text) as { software_deployment: Json }).software_deployment.id as string;
    assert.equal((await call('DELETE', `${api}/software_deployments/${id}`)).status, 204);
    const after = await call('GET', occs.url!.request!.metadata_url);
    assert.deepEqual((JSON.parse(after.text) as Json).deployments, []);
  });

  it('a transport change keeps the credential: the agent reads the new section the old way, then polls the new way', async () => {
    const updated = await call('PATCH', `${api}/stacks/${stackPath}`, {
      template: STACK.replace(
        /( {2}cfn:\n(?:.*\n)*? {4}properties: &server\n)/,
        '$1      software_config_transport: POLL_TEMP_URL\n',
      ).replace(
        'software_config_transport: POLL_TEMP_URL\n  zaq:',
        'software_config_transport: ZAQAR_MESSAGE\n  zaq:',
      ),
    });
    assert.equal(updated.status, 202, updated.text);
    await waitFor('agents', /^UPDATE_COMPLETE$/);
    const old = await describeResource(occs.cfn!.cfn!, 'cfn', 'application/json');
    assert.equal(old.status, 200, old.text);
    assert.match(old.text, /request/, 'the old transport serves the new os-collect-config section');
    const outputs = await call('GET', `${api}/stacks/${stackPath}/outputs/cfn_occ`);
    const now = (JSON.parse(outputs.text) as { output: { output_value: Occ } }).output.output_value;
    assert.deepEqual(now.collectors, ['ec2', 'request', 'local']);
    const read = await call('GET', now.request!.metadata_url);
    assert.equal(read.status, 200, read.text);
    assert.equal((JSON.parse(read.text) as Json).role, 'web');

    // To ZAQAR_MESSAGE: the temp URL serves the zaqar section, whose queue then serves the metadata.
    const viaUrl = await call('GET', occs.url!.request!.metadata_url);
    assert.equal(viaUrl.status, 200, viaUrl.text);
    const section = (JSON.parse(viaUrl.text) as { 'os-collect-config': Occ })['os-collect-config'];
    assert.deepEqual(section.collectors, ['ec2', 'zaqar', 'local']);
    const { token, endpoint } = await login(section.zaqar!);
    const popped = await zaqar(
      'DELETE',
      `${endpoint('messaging')}/v2/queues/${section.zaqar!.queue_id}/messages?pop=1`,
      token,
    );
    assert.equal(popped.status, 200, popped.text);
    const body = (JSON.parse(popped.text) as { messages: { body: Json }[] }).messages[0]!.body;
    assert.deepEqual(body['os-collect-config'], section);
  });

  it('an agent token signals the deployments to its server, and no other', async () => {
    const template = `heat_template_version: 2018-08-31
resources:
  net: {type: OS::Neutron::Net, properties: {name: deploy-net}}
  subnet:
    type: OS::Neutron::Subnet
    properties: {network: {get_resource: net}, cidr: 10.73.0.0/24}
  mine:
    type: OS::Nova::Server
    depends_on: subnet
    properties: &server
      image: cirros-0.6.2-x86_64-disk
      flavor: m1.tiny
      networks: [{network: {get_resource: net}}]
      user_data_format: SOFTWARE_CONFIG
      software_config_transport: POLL_SERVER_HEAT
  other:
    type: OS::Nova::Server
    depends_on: subnet
    properties: *server
  config: {type: OS::Heat::SoftwareConfig, properties: {group: script, config: "echo hi"}}
  dep:
    type: OS::Heat::SoftwareDeployment
    properties: {config: {get_resource: config}, server: {get_resource: mine}}
`;
    const created = await call('POST', `${api}/stacks`, { stack_name: 'deploy', template });
    assert.equal(created.status, 201, created.text);
    const id = (JSON.parse(created.text) as { stack: Json }).stack.id as string;
    const path = `${api}/stacks/deploy/${id}`;
    // The deployment waits for its signal: read each server's credential from its boot data.
    const tokens: Record<string, string> = {};
    for (let i = 0; i < 600 && Object.keys(tokens).length < 2; i++) {
      for (const name of ['mine', 'other']) {
        const r = await call('GET', `${path}/resources/${name}`);
        const resource = (JSON.parse(r.text) as { resource?: Json }).resource;
        const server = resource?.physical_resource_id
          ? cloud.state.get<ServerRecord>('server', resource.physical_resource_id as string)
          : undefined;
        const occ = server?.userData
          ? (cfnInitData(Buffer.from(server.userData, 'base64').toString('utf8'))?.[
              'os-collect-config'
            ] as unknown as Occ)
          : undefined;
        if (occ?.heat) tokens[name] = occ.heat.password;
      }
      if (Object.keys(tokens).length < 2) await new Promise((res) => setTimeout(res, 100));
    }
    let status = '';
    for (let i = 0; i < 600 && status !== 'CREATE_IN_PROGRESS'; i++) {
      const r = await call('GET', `${path}/resources/dep`);
      status = String((JSON.parse(r.text) as { resource?: Json }).resource?.resource_status ?? '');
      if (status !== 'CREATE_IN_PROGRESS') await new Promise((res) => setTimeout(res, 100));
    }
    const outputs = { deploy_stdout: 'hi', deploy_stderr: '', deploy_status_code: 0 };
    const refused = await call('POST', `${path}/resources/dep/signal`, outputs, {
      'x-auth-token': tokens.other!,
    });
    assert.equal(refused.status, 403, `another server’s agent: ${refused.text}`);
    const signalled = await call('POST', `${path}/resources/dep/signal`, outputs, {
      'x-auth-token': tokens.mine!,
    });
    assert.equal(signalled.status, 200, signalled.text);
    await waitFor('deploy', /^CREATE_COMPLETE$/);
    const dep = await call('GET', `${path}/resources/dep`);
    assert.equal(
      (JSON.parse(dep.text) as { resource: { attributes: Json } }).resource.attributes.deploy_stdout,
      'hi',
    );
    // Not a resource of another kind either: the server itself.
    const server = await call('POST', `${path}/resources/mine/signal`, {}, { 'x-auth-token': tokens.mine! });
    assert.equal(server.status, 403, server.text);
  });

  /**
   * A stack of two ZAQAR_MESSAGE DeployedServers, `mine` with a ZAQAR_SIGNAL deployment `dep`, once
   * the deployment waits; its URL and each server's zaqar section.
   */
  const zaqarStack = async (name: string) => {
    const template = `heat_template_version: 2018-08-31
resources:
  mine:
    type: OS::Heat::DeployedServer
    properties: {software_config_transport: ZAQAR_MESSAGE}
  other:
    type: OS::Heat::DeployedServer
    properties: {software_config_transport: ZAQAR_MESSAGE}
  config:
    type: OS::Heat::SoftwareConfig
    properties: {group: script, config: "echo hi", outputs: [{name: result}]}
  dep:
    type: OS::Heat::SoftwareDeployment
    properties: {config: {get_resource: config}, server: {get_resource: mine}, signal_transport: ZAQAR_SIGNAL}
outputs:
  mine: {value: {get_attr: [mine, os_collect_config]}}
  other: {value: {get_attr: [other, os_collect_config]}}
`;
    const created = await call('POST', `${api}/stacks`, { stack_name: name, template });
    assert.equal(created.status, 201, created.text);
    const id = (JSON.parse(created.text) as { stack: Json }).stack.id as string;
    const path = `${api}/stacks/${name}/${id}`;
    let status = '';
    for (let i = 0; i < 600 && status !== 'CREATE_IN_PROGRESS'; i++) {
      const r = await call('GET', `${path}/resources/dep`);
      status = String((JSON.parse(r.text) as { resource?: Json }).resource?.resource_status ?? '');
      if (status !== 'CREATE_IN_PROGRESS') await new Promise((res) => setTimeout(res, 100));
    }
    const occOf = async (name: string) => {
      const r = await call('GET', `${path}/resources/${name}`);
      return (
        (JSON.parse(r.text) as { resource: { attributes: Json } }).resource.attributes
          .os_collect_config as Occ
      ).zaqar!;
    };
    return { path, occOf };
  };

  it('ZAQAR_SIGNAL: the deployment’s queue takes its outputs from its signal token or its server’s agent', async () => {
    const { path, occOf } = await zaqarStack('zaqar');
    const mine = await login(await occOf('mine'));
    const popped = await zaqar(
      'DELETE',
      `${mine.endpoint('messaging')}/v2/queues/${(await occOf('mine')).queue_id}/messages?pop=1`,
      mine.token,
    );
    const deployments = (JSON.parse(popped.text) as { messages: { body: { deployments: Json[] } }[] })
      .messages[0]!.body.deployments;
    assert.equal(deployments.length, 1, popped.text);
    const inputs = Object.fromEntries(
      (deployments[0]!.inputs as { name: string; value: unknown }[]).map((i) => [i.name, i.value]),
    ) as Record<string, string>;
    assert.equal(inputs.deploy_signal_transport, 'ZAQAR_SIGNAL');
    assert.equal(inputs.deploy_signal_id, undefined);
    const signal = await login({
      auth_url: inputs.deploy_auth_url!,
      user_id: inputs.deploy_user_id!,
      password: inputs.deploy_password!,
      project_id: inputs.deploy_project_id!,
    });
    const queue = `${signal.endpoint('messaging')}/v2/queues/${inputs.deploy_queue_id}`;
    const outputs = { deploy_stdout: 'hi', deploy_stderr: '', deploy_status_code: 0, result: 'R' };

    const other = await login(await occOf('other'));
    const refused = await zaqar('POST', `${queue}/messages`, other.token, { messages: [{ body: outputs }] });
    assert.equal(refused.status, 403, `another server’s agent: ${refused.text}`);
    // The server's own agent may post there: a body that is no signal shows it got past the check.
    const notSignal = await zaqar('POST', `${queue}/messages`, mine.token, { messages: [{ body: 'x' }] });
    assert.equal(notSignal.status, 400, notSignal.text);
    const noMessages = await zaqar('POST', `${queue}/messages`, signal.token, { body: outputs });
    assert.equal(noMessages.status, 400, noMessages.text);
    const readSignals = await zaqar('GET', `${queue}/messages`, signal.token);
    assert.equal(readSignals.status, 403, 'a signal queue is not read through the agent routes');

    const posted = await zaqar('POST', `${queue}/messages`, signal.token, {
      messages: [{ body: outputs, ttl: 600 }],
    });
    assert.equal(posted.status, 201, posted.text);
    const resources = (JSON.parse(posted.text) as { resources: string[] }).resources;
    assert.equal(resources.length, 1);
    assert.ok(resources[0]!.startsWith(`/v2/queues/${inputs.deploy_queue_id}/messages/`), resources[0]);
    await waitFor('zaqar', /^CREATE_COMPLETE$/);
    const dep = await call('GET', `${path}/resources/dep`);
    const attributes = (JSON.parse(dep.text) as { resource: { attributes: Json } }).resource.attributes;
    assert.deepEqual([attributes.deploy_stdout, attributes.result], ['hi', 'R']);
    assert.equal((await call('DELETE', path)).status, 204);
  });

  it(
    'python-zaqarclient pops a server’s metadata and posts a deployment’s signal',
    { skip: zaqarclientMissing },
    async () => {
      const { path, occOf } = await zaqarStack('zaqarclient');
      const occ = await occOf('mine');
      const script = resolve(import.meta.dirname, 'zaqarclient-wire.py');
      const auth = [occ.auth_url, occ.user_id, occ.password, occ.project_id];
      const popped = JSON.parse(await runZaqarclientScript(script, ['pop', ...auth, occ.queue_id])) as {
        endpoint: string;
        body: { deployments: { inputs: { name: string; value: string }[] }[] };
      };
      assert.equal(popped.endpoint, `${serve.url}/agent-messaging`);
      const inputs = Object.fromEntries(popped.body.deployments[0]!.inputs.map((i) => [i.name, i.value]));
      const outputs = { deploy_stdout: 'via zaqarclient', deploy_stderr: '', deploy_status_code: 0 };
      const signalAuth = ['deploy_auth_url', 'deploy_user_id', 'deploy_password', 'deploy_project_id'];
      await runZaqarclientScript(script, [
        'post',
        ...signalAuth.map((k) => inputs[k]!),
        inputs.deploy_queue_id!,
        JSON.stringify(outputs),
      ]);
      await waitFor('zaqarclient', /^CREATE_COMPLETE$/);
      const dep = await call('GET', `${path}/resources/dep`);
      const attributes = (JSON.parse(dep.text) as { resource: { attributes: Json } }).resource.attributes;
      assert.equal(attributes.deploy_stdout, 'via zaqarclient');
      assert.equal((await call('DELETE', path)).status, 204);
    },
  );

  it('every credential is refused once its server is deleted', async () => {
    const deleted = await call('DELETE', `${api}/stacks/${stackPath}`);
    assert.equal(deleted.status, 204, deleted.text);
    for (let i = 0; i < 600; i++) {
      const r = await call('GET', `${api}/stacks/${stackPath}`);
      if (r.status === 404) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const url = await call('GET', occs.url!.request!.metadata_url);
    assert.equal(url.status, 401, url.text);
    const occ = occs.heat!.heat!;
    const login = await call('POST', `${occ.auth_url}/auth/tokens`, {
      auth: {
        identity: { methods: ['password'], password: { user: { id: occ.user_id, password: occ.password } } },
      },
    });
    assert.equal(login.status, 401, login.text);
    const read = await call('GET', `${api}/stacks/${occ.stack_id}/resources/heat/metadata`, undefined, {
      'x-auth-token': occ.password,
    });
    assert.equal(read.status, 401, read.text);
  });
});
