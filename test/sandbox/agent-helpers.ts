import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { login } from './support.js';

/**
 * A fake Heat for the guest agent's tests: it serves one server's metadata through each
 * collector's protocol (the CFN API with an EC2 v2 signature check, Keystone v3 + the
 * orchestration API's resource metadata, a plain URL) and records the signals each signal
 * transport delivers. Written from the protocols, not from the agent's code.
 */

export const ACCESS = 'hagt_access';
export const SECRET = 'the-secret-key';
export const USER = 'agent-user';
export const PASSWORD = 'agent-password';
export const PROJECT = 'p-123';
export const STACK = 'mystack/5a0c3d4e-0000-4000-8000-000000000001';
/** The server's metadata queue (ZAQAR_MESSAGE). */
export const ZAQAR_QUEUE = 'mystack-server-abcdefghijkl';

export interface Signal {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

export interface FakeHeat {
  url: string;
  /** The server's metadata (its `deployments` list may be changed between polls). */
  metadata: Record<string, unknown>;
  signals: Signal[];
  /** How many metadata reads succeeded through each collector, and how many were refused. */
  reads: { cfn: number; heat: number; zaqar: number; request: number; refused: number; logins: number };
  /** The token Keystone gives now; changing it makes the ones given before invalid. */
  token: string;
  /** The next N signals are answered 503. */
  refuseSignals: number;
  /** Answer the CFN API in JSON instead of Heat's default XML. */
  cfnJson: boolean;
  close(): Promise<void>;
}

/** Python's quote(value, safe='-_~'), as the signer encodes: written out byte by byte. */
function pyQuote(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function cfnSignatureOk(req: IncomingMessage, url: URL): boolean {
  const params = Object.fromEntries(url.searchParams.entries());
  const given = params.Signature;
  delete params.Signature;
  if (params.SignatureVersion !== '2' || params.SignatureMethod !== 'HmacSHA256') return false;
  if (params.AWSAccessKeyId !== ACCESS) return false;
  const query = Object.keys(params)
    .sort()
    .map((k) => `${pyQuote(k)}=${pyQuote(params[k]!)}`)
    .join('&');
  const expected = createHmac('sha256', SECRET)
    .update(`GET\n${req.headers.host}\n${url.pathname}\n${query}`)
    .digest('base64');
  return given === expected;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export async function fakeHeat(): Promise<FakeHeat> {
  const state = {
    metadata: {} as Record<string, unknown>,
    signals: [] as Signal[],
    reads: { cfn: 0, heat: 0, zaqar: 0, request: 0, refused: 0, logins: 0 },
    token: 'tok-1',
    refuseSignals: 0,
    cfnJson: false,
  };
  let base = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, base);
      const text = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const payload = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(payload);
      };
      const path = url.pathname;
      if (path === '/cfn/v1/' && req.method === 'GET') {
        if (url.searchParams.get('Action') !== 'DescribeStackResource' || !cfnSignatureOk(req, url)) {
          state.reads.refused++;
          return send(403, { error: 'SignatureDoesNotMatch' });
        }
        assert.equal(url.searchParams.get('StackName'), 'mystack');
        assert.equal(url.searchParams.get('LogicalResourceId'), 'server');
        state.reads.cfn++;
        const detail = { LogicalResourceId: 'server', Metadata: JSON.stringify(state.metadata) };
        if (state.cfnJson) {
          return send(200, {
            DescribeStackResourceResponse: { DescribeStackResourceResult: { StackResourceDetail: detail } },
          });
        }
        const xml =
          `<DescribeStackResourceResponse><DescribeStackResourceResult><StackResourceDetail>` +
          `<LogicalResourceId>server</LogicalResourceId><Metadata>${xmlEscape(detail.Metadata)}</Metadata>` +
          `</StackResourceDetail></DescribeStackResourceResult></DescribeStackResourceResponse>`;
        return send(200, xml, { 'Content-Type': 'application/xml' });
      }
      if (path === '/identity/v3/auth/tokens' && req.method === 'POST') {
        const body = JSON.parse(text);
        const user = body.auth.identity.password.user;
        if (user.id !== USER || user.password !== PASSWORD || body.auth.scope.project.id !== PROJECT) {
          state.reads.refused++;
          return send(401, {
            error: { code: 401, message: 'The request you have made requires authentication.' },
          });
        }
        const catalog = [
          {
            type: 'identity',
            endpoints: [{ interface: 'public', region: 'RegionOne', url: `${base}/identity/v3` }],
          },
          {
            type: 'orchestration',
            endpoints: [
              { interface: 'internal', region: 'RegionOne', url: `${base}/wrong` },
              { interface: 'public', region: 'RegionOne', url: `${base}/heat/v1/${PROJECT}` },
            ],
          },
          {
            type: 'messaging',
            endpoints: [{ interface: 'public', region: 'RegionOne', url: `${base}/zaqar` }],
          },
        ];
        state.reads.logins++;
        return send(
          201,
          { token: { catalog, project: { id: PROJECT } } },
          { 'X-Subject-Token': state.token },
        );
      }
      const heatBase = `/heat/v1/${PROJECT}/stacks/${STACK}/resources/server`;
      if (path.startsWith(`/heat/v1/${PROJECT}/`)) {
        if (req.headers['x-auth-token'] !== state.token) return send(401, { error: 'no token' });
        if (path === `${heatBase}/metadata` && req.method === 'GET') {
          state.reads.heat++;
          return send(200, { metadata: state.metadata });
        }
        const signal = /^\/heat\/v1\/[^/]+\/stacks\/mystack\/[^/]+\/resources\/([^/]+)\/signal$/.exec(path);
        if (signal && req.method === 'POST') {
          state.signals.push({
            method: 'HEAT',
            path: decodeURIComponent(signal[1]!),
            body: JSON.parse(text),
          });
          return send(200, '');
        }
      }
      // Zaqar v2 as zaqarclient calls it: the token, the project and a Client-ID on every request.
      const queue = /^\/zaqar\/v2\/queues\/([^/]+)\/messages$/.exec(path);
      if (queue) {
        if (req.headers['x-auth-token'] !== state.token) return send(401, { title: 'Unauthorized' });
        if (!req.headers['client-id'] || req.headers['x-project-id'] !== PROJECT)
          return send(400, { title: 'Missing header value' });
        if (req.method === 'DELETE' && queue[1] === ZAQAR_QUEUE && url.searchParams.get('pop') === '1') {
          state.reads.zaqar++;
          const message = { id: 'm1', href: '/v2/queues/q/messages/m1', ttl: 3600, age: 1 };
          return send(200, { messages: [{ ...message, body: state.metadata }] });
        }
        if (req.method === 'POST') {
          const posted = JSON.parse(text) as { messages: { body: Record<string, unknown> }[] };
          for (const m of posted.messages)
            state.signals.push({ method: 'ZAQAR', path: decodeURIComponent(queue[1]!), body: m.body });
          return send(201, { resources: ['/v2/queues/q/messages/m2'] });
        }
      }
      if (path === '/meta/object' && req.method === 'GET') {
        state.reads.request++;
        return send(200, state.metadata);
      }
      if (path.startsWith('/signal/') && (req.method === 'POST' || req.method === 'PUT')) {
        if (state.refuseSignals > 0) {
          state.refuseSignals--;
          return send(503, { error: 'try later' });
        }
        state.signals.push({ method: req.method, path, body: JSON.parse(text) });
        return send(200, '');
      }
      send(404, { error: `no route ${req.method} ${path}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: base,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeHeat;
}

/** The `os-collect-config` section Heat writes for each transport, pointed at the fake. */
export function occ(
  heat: FakeHeat,
  transport: 'cfn' | 'heat' | 'zaqar' | 'request',
): Record<string, unknown> {
  if (transport === 'zaqar') {
    return {
      collectors: ['ec2', 'zaqar', 'local'],
      zaqar: {
        auth_url: `${heat.url}/identity/v3`,
        user_id: USER,
        password: PASSWORD,
        project_id: PROJECT,
        queue_id: ZAQAR_QUEUE,
        region_name: 'RegionOne',
      },
    };
  }
  if (transport === 'cfn') {
    return {
      collectors: ['ec2', 'cfn', 'local'],
      cfn: {
        metadata_url: `${heat.url}/cfn/v1/`,
        access_key_id: ACCESS,
        secret_access_key: SECRET,
        stack_name: 'mystack',
        path: 'server.Metadata',
      },
    };
  }
  if (transport === 'heat') {
    return {
      collectors: ['ec2', 'heat', 'local'],
      heat: {
        auth_url: `${heat.url}/identity/v3`,
        user_id: USER,
        password: PASSWORD,
        project_id: PROJECT,
        stack_id: STACK,
        resource_name: 'server',
        region_name: 'RegionOne',
      },
    };
  }
  return { collectors: ['ec2', 'request', 'local'], request: { metadata_url: `${heat.url}/meta/object` } };
}

/** A derived config as Heat's metadata lists it (format_software_config), with its inputs' values. */
export function deployment(
  id: string,
  config: unknown,
  inputs: Record<string, unknown>,
  options: { group?: string; outputs?: string[]; name?: string } = {},
): Record<string, unknown> {
  return {
    id,
    name: options.name ?? `deployment-${id}`,
    group: options.group ?? 'script',
    config,
    options: {},
    creation_time: '2026-01-01T00:00:00Z',
    inputs: Object.entries(inputs).map(([name, value]) => ({
      name,
      type: 'String',
      value,
      description: name,
    })),
    outputs: (options.outputs ?? []).map((name) => ({ name, type: 'String', error_output: false })),
  };
}

/** The signal inputs of each transport, for a deployment named `resource`. */
export function signalInputs(
  heat: FakeHeat,
  transport: 'CFN_SIGNAL' | 'TEMP_URL_SIGNAL' | 'HEAT_SIGNAL' | 'ZAQAR_SIGNAL' | 'NO_SIGNAL',
  resource: string,
): Record<string, unknown> {
  const common = {
    deploy_server_id: 'server-id',
    deploy_action: 'CREATE',
    deploy_stack_id: STACK,
    deploy_resource_name: resource,
    deploy_signal_transport: transport,
  };
  if (transport === 'CFN_SIGNAL') {
    return { ...common, deploy_signal_id: `${heat.url}/signal/${resource}`, deploy_signal_verb: 'POST' };
  }
  if (transport === 'TEMP_URL_SIGNAL') {
    return { ...common, deploy_signal_id: `${heat.url}/signal/${resource}`, deploy_signal_verb: 'PUT' };
  }
  if (transport === 'HEAT_SIGNAL' || transport === 'ZAQAR_SIGNAL') {
    return {
      ...common,
      ...(transport === 'ZAQAR_SIGNAL' ? { deploy_queue_id: `queue-${resource}` } : {}),
      deploy_auth_url: `${heat.url}/identity/v3`,
      deploy_user_id: USER,
      deploy_password: PASSWORD,
      deploy_project_id: PROJECT,
      deploy_region_name: 'RegionOne',
    };
  }
  return common;
}

/** user_data as Heat's build_userdata makes it: MIME parts, the metadata in `cfn-init-data`. */
export function userData(metadata: Record<string, unknown>, encodeInitData = false): string {
  const boundary = '===============5213654343734385232==';
  const part = (type: string, filename: string, body: string, base64 = false) =>
    [
      `Content-Type: text/${type}; charset="${base64 ? 'utf-8' : 'us-ascii'}"`,
      'MIME-Version: 1.0',
      `Content-Transfer-Encoding: ${base64 ? 'base64' : '7bit'}`,
      `Content-Disposition: attachment; filename="${filename}"`,
      '',
      base64
        ? Buffer.from(body)
            .toString('base64')
            .replace(/(.{76})/g, '$1\n')
        : body,
    ].join('\n');
  const mime = [
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    'MIME-Version: 1.0',
    '',
    `--${boundary}`,
    part('cloud-config', 'cloud-config', '#cloud-config\nruncmd: []\n'),
    `--${boundary}`,
    part('x-cfninitdata', 'cfn-userdata', 'not the metadata'),
    `--${boundary}`,
    part('x-cfninitdata', 'cfn-init-data', JSON.stringify(metadata), encodeInitData),
    `--${boundary}--`,
    '',
  ].join('\n');
  return Buffer.from(mime).toString('base64');
}

/** Boots a sandbox server (as demo) with the given user_data; ACTIVE at once with bootDelayMs 0. */
export async function bootServer(
  app: FastifyInstance,
  data: string | undefined,
  name = 'vm',
  /** '' for RegionOne, '/regions/RegionTwo' for the other. */
  region = '',
): Promise<string> {
  const { token } = await login(app, 'demo');
  const r = await app.inject({
    method: 'POST',
    url: `${region}/compute/v2.1/servers`,
    headers: { 'X-Auth-Token': token },
    payload: {
      server: {
        name,
        flavorRef: '1',
        imageRef: 'cirros-0.6.2-x86_64-disk',
        ...(data ? { user_data: data } : {}),
      },
    },
  });
  assert.equal(r.statusCode, 202, r.body);
  return r.json().server.id as string;
}

/** Waits (generously) until `check` returns a truthy value; fails with `what` otherwise. */
export async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) return assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export interface AgentView {
  server_id: string;
  source: string;
  region: string | null;
  transport: string | null;
  status: string;
  last_poll_at: string | null;
  last_error: string | null;
  configs: {
    config_id: string;
    runs: number;
    status_code: number | null;
    signal: string;
    signal_attempts: number;
    signal_error: string | null;
    deploy_resource_name: string | null;
  }[];
}

export async function agents(app: FastifyInstance): Promise<AgentView[]> {
  const r = await app.inject({ method: 'GET', url: '/admin/agents' });
  assert.equal(r.statusCode, 200, r.body);
  return r.json().agents;
}

export async function agentOf(app: FastifyInstance, serverId: string): Promise<AgentView | undefined> {
  return (await agents(app)).find((a) => a.server_id === serverId);
}
