import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { login, sandboxCloud } from '../sandbox/support.js';
import { addKeypair, KEY } from '../software/harness.js';
import { CORPUS } from '../support/shared.js';
import { jsonCall, type ServeProcess, startNoauthServe } from './serve-process.js';

// Issue 23's acceptance: every CloudFormation template of the corpus (heat-templates/cfn) whose
// types the sandbox serves creates and deletes through one `hearth serve` on the sandbox, its
// WaitConditions signalled by the sandbox's heat-cfntools emulation; the others are refused for
// their stated reason. Stacks are made several at once to keep the file's wall time low.

const CFN = join(CORPUS, 'cfn');
const PROJECT = 'cfncorpus';
const MYSQL_URL =
  'https://raw.github.com/openstack/heat-templates/master/cfn/F17/MySQL_Single_Instance.template';

type Json = Record<string, unknown>;

function templatesIn(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) templatesIn(path, out);
    else if (/\.(template|ya?ml)$/.test(name)) out.push(path);
  }
  return out;
}

/** Templates refused at create, and the error that says why. */
const REFUSED: Readonly<Record<string, RegExp>> = {
  // The repository's own broken examples: properties and an alarm refer to each other in a circle.
  'F17/invalid/AutoScalingMultiAZSample.template': /[Cc]ircular [Dd]ependency/,
  'F17/invalid/AutoScalingMultiAZSample.yaml': /[Cc]ircular [Dd]ependency/,
  // Types Heat 19 no longer registers (looked up before the dependencies, as Heat's validate does:
  // the invalid/ ones with a restarter are refused for it before their circle is seen).
  'F17/invalid/WordPress_Single_Instance_With_HA.template': /OS::Heat::HARestarter\) could not be found/,
  'F17/invalid/WordPress_Single_Instance_With_HA_AccessPolicy.template':
    /OS::Heat::HARestarter\) could not be found/,
  'F17/invalid/WordPress_Single_Instance_With_IHA.template': /OS::Heat::HARestarter\) could not be found/,
  'F17/WordPress_Single_Instance_With_HA.yaml': /OS::Heat::HARestarter\) could not be found/,
  'F17/AutoScalingCeilometer.yaml': /OS::Ceilometer::Alarm\) could not be found/,
  'F17/VPN_Service.template': /OS::Neutron::RouterGateway\) could not be found/,
};

/** Templates that create but cannot complete anywhere, and the failure that says why. */
const FAILING: Readonly<Record<string, RegExp>> = {
  // Its UserData passes the literal words `Ref_HostKeys` and `Fn_GetAtt_HostKeys_SecretAccessKey`
  // as cfn-init's keys (a leftover of a template converter): the CFN API refuses them, cfn-init
  // fails and error_exit signals FAILURE, as it would on a real cloud.
  'F17/Rails_Single_Instance.template': /Failed to run cfn-init/,
};

/**
 * Templates that make networks of their own: run after the others, whose servers take the
 * project's only network (Nova's "auto": more than one is an error).
 */
const OWN_NETWORKS = new Set(['F17/Neutron.template', 'F17/Neutron.yaml', 'F17/Neutron_floating.template']);

/**
 * A template run last, alone, in a project whose only network is its own: its WebServer names no
 * network (Nova's "auto" then takes the project's only one), and its port, made after the server,
 * asks for 10.0.1.2, the subnet's first address. Neutron picks a port's address at random
 * (`ipAllocation: random`, the sandbox's draws fixed at the middle so the run repeats), so the
 * server does not take it; in order, it would, and the port would conflict (409).
 */
const OWN_ONLY_NETWORK = 'F17/WordPress_Single_Instance_With_Neutron.template';

/** Images the templates' Mappings name for the types they default to (and the RDS and LB built-in templates). */
const IMAGES = [
  'F17-x86_64-cfntools',
  'F18-x86_64-cfntools',
  'F19-x86_64-cfntools',
  'F19-i386-cfntools',
  'precise-server-cloudimg-i386',
  'precise-server-cloudimg-amd64',
  'U10-x86_64-cfntools',
  'F17-x86_64-gold',
  'Fedora-Cloud-Base-20141203-21.x86_64',
];

/** The parameters each template needs beyond its defaults (only those it declares are sent). */
function parametersFor(declared: Json, net: Network): Json {
  const common: Json = {
    KeyName: KEY,
    InstanceType: 'm1.small',
    DBName: 'wordpress',
    DBUsername: 'admin',
    DBPassword: 'secret1',
    DBRootPassword: 'secret2',
    Server1: '10.0.0.5:80',
    DBIpaddress: '10.0.0.6',
    Image: 'F17-x86_64-cfntools',
    ImageId: 'F17-x86_64-cfntools',
    external_network: net.publicId,
    internal_network: net.networkId,
    internal_subnet: net.subnetId,
  };
  const out: Json = {};
  for (const [k, v] of Object.entries(common)) if (k in declared) out[k] = v;
  return out;
}

interface Network {
  publicId: string;
  networkId: string;
  subnetId: string;
  routerId: string;
}

describe('API: the CFN corpus templates create and delete on the sandbox', () => {
  // The draws (only ipAllocation's: every rate is 0) fixed: a repeatable run.
  const cloud = sandboxCloud({
    noise: { bootDelayMs: 0, cfnStartDelayMs: 0, cfnCommands: 'succeed' },
    random: () => 0.5,
  });
  let serve: ServeProcess;
  let api: string;
  let token: string;
  let projectId: string;
  let net: Network;

  const cloudCall = async (method: string, url: string, payload?: Json) => {
    const r = await cloud.app.inject({
      method: method as 'GET',
      url,
      headers: { 'x-auth-token': token },
      ...(payload === undefined ? {} : { payload }),
    });
    assert.ok(r.statusCode < 300, `${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.body === '' ? {} : (r.json() as Json);
  };

  /** What the demo project holds that a stack's delete must leave as it found. */
  const holdings = async (): Promise<Json> => {
    const servers = (await cloudCall('GET', '/compute/v2.1/servers')).servers as { id: string }[];
    const volumes = (await cloudCall('GET', `/volume/v3/${projectId}/volumes`)).volumes as { id: string }[];
    const ports = (await cloudCall('GET', '/network/v2.0/ports')).ports as { id: string }[];
    const floating = (await cloudCall('GET', '/network/v2.0/floatingips')).floatingips as { id: string }[];
    const groups = (await cloudCall('GET', '/network/v2.0/security-groups')).security_groups as {
      id: string;
    }[];
    const containers = await cloud.app.inject({
      method: 'GET',
      url: `/object-store/v1/AUTH_${projectId}?format=json`,
      headers: { 'x-auth-token': token },
    });
    const guests = (await cloud.app.inject({ method: 'GET', url: '/admin/cfntools' })).json() as {
      guests: Json[];
    };
    return {
      cfntoolsGuests: guests.guests.length,
      servers: servers.map((s) => s.id).sort(),
      volumes: volumes.map((v) => v.id).sort(),
      ports: ports.map((p) => p.id).sort(),
      floatingIps: floating.map((f) => f.id).sort(),
      securityGroups: groups.map((g) => g.id).sort(),
      containers:
        containers.statusCode === 204 ? [] : (containers.json() as { name: string }[]).map((c) => c.name),
    };
  };

  const settle = async (name: string, pending: string): Promise<Json | undefined> => {
    for (let i = 0; i < 1800; i++) {
      const r = await jsonCall('GET', `${api}/stacks/${name}`);
      if (r.status === 404) return undefined;
      const stack = (JSON.parse(r.text) as { stack: Json }).stack;
      if (stack.stack_status !== pending) return stack;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return assert.fail(`${name} stayed ${pending}`);
  };

  before(async () => {
    ({ token, projectId } = await login(cloud.app, 'demo'));
    for (const name of IMAGES) await cloudCall('POST', '/image/v2/images', { name });
    await addKeypair(cloud);
    const networks = (await cloudCall('GET', '/network/v2.0/networks')).networks as Json[];
    const publicId = String(networks.find((n) => n['router:external'] === true)?.id);
    const network = (await cloudCall('POST', '/network/v2.0/networks', { network: { name: 'corpus-net' } }))
      .network as Json;
    const subnet = (
      await cloudCall('POST', '/network/v2.0/subnets', {
        subnet: { network_id: network.id, cidr: '10.0.0.0/24', ip_version: 4 },
      })
    ).subnet as Json;
    const router = (
      await cloudCall('POST', '/network/v2.0/routers', {
        router: { name: 'corpus-router', external_gateway_info: { network_id: publicId } },
      })
    ).router as Json;
    await cloudCall('PUT', `/network/v2.0/routers/${String(router.id)}/add_router_interface`, {
      subnet_id: subnet.id,
    });
    net = {
      publicId,
      networkId: String(network.id),
      subnetId: String(subnet.id),
      routerId: String(router.id),
    };
    serve = await startNoauthServe();
    api = `${serve.url}/v1/${PROJECT}`;
  });
  after(async () => serve?.stop());

  const templates = templatesIn(CFN).map((path) => relative(CFN, path));

  it('refuses the templates Heat 19 refuses, for the reason', async () => {
    for (const [name, reason] of Object.entries(REFUSED)) {
      assert.ok(templates.includes(name), name);
      const r = await jsonCall('POST', `${api}/stacks`, {
        stack_name: `refused-${templates.indexOf(name)}`,
        template: readFileSync(join(CFN, name), 'utf8'),
        parameters: { KeyName: KEY },
      });
      assert.equal(r.status, 400, `${name}: ${r.text}`);
      assert.match(r.text, reason, name);
    }
  });

  /** Creates, checks and deletes each template of the batch at once; the sandbox is left as found. */
  const runBatch = async (names: string[]) => {
    const baseline = await holdings();
    const results = await Promise.all(
      names.map(async (name) => {
        const stackName = `corpus-${templates.indexOf(name)}`;
        const template = readFileSync(join(CFN, name), 'utf8');
        const declared = ((template.trimStart().startsWith('{') ? JSON.parse(template) : {}) as Json)
          .Parameters as Json | undefined;
        const created = await jsonCall('POST', `${api}/stacks`, {
          stack_name: stackName,
          template,
          files: { [MYSQL_URL]: readFileSync(join(CFN, 'F17/MySQL_Single_Instance.template'), 'utf8') },
          parameters: parametersFor(declared ?? yamlParameters(template), net),
        });
        if (created.status !== 201) return `${name}: create answered ${created.status} ${created.text}`;
        const stack = await settle(stackName, 'CREATE_IN_PROGRESS');
        const status = String(stack?.stack_status);
        const reason = String(stack?.stack_status_reason);
        const failing = FAILING[name];
        if (failing && !(status === 'CREATE_FAILED' && failing.test(reason)))
          return `${name}: expected to fail (${String(failing)}), got ${status} ${reason}`;
        if (!failing && status !== 'CREATE_COMPLETE') return `${name}: ${status} ${reason}`;
        const outputs = (stack?.outputs ?? []) as { output_key: string; output_value: unknown }[];
        // The URLs the templates output (WebsiteURL, Horizon URL, scale_up_url) name a host.
        for (const o of outputs.filter((o) => /url/i.test(o.output_key))) {
          if (!/^http:\/\/[\w.-]+(:\d+)?(\/|$)/.test(String(o.output_value)))
            return `${name}: ${o.output_key} is ${String(o.output_value)}`;
        }
        if (!failing && outputs.length === 0 && name !== 'F17/Neutron_floating.template')
          return `${name}: no outputs`;
        const deleted = await jsonCall('DELETE', `${api}/stacks/${stackName}/${String(stack?.id)}`);
        if (deleted.status !== 204) return `${name}: delete answered ${deleted.status}`;
        const gone = await settle(stackName, 'DELETE_IN_PROGRESS');
        if (gone && gone.stack_status !== 'DELETE_COMPLETE')
          return `${name}: ${String(gone.stack_status)} ${String(gone.stack_status_reason)}`;
        return undefined;
      }),
    );
    assert.deepEqual(
      results.filter((r) => r !== undefined),
      [],
    );
    assert.deepEqual(
      await holdings(),
      baseline,
      'the deletes leave no server, volume, port, floating IP, security group or container',
    );
  };

  it('creates and deletes the templates whose servers take the project’s network', async () => {
    await runBatch(
      templates.filter((t) => !(t in REFUSED) && t !== OWN_ONLY_NETWORK && !OWN_NETWORKS.has(t)),
    );
  });

  it('creates and deletes the templates that make networks of their own', async () => {
    await runBatch([...OWN_NETWORKS]);
  });

  it('creates and deletes the template whose server takes its network’s address at random, alone on it', async () => {
    await cloudCall('PUT', `/network/v2.0/routers/${net.routerId}/remove_router_interface`, {
      subnet_id: net.subnetId,
    });
    await cloudCall('DELETE', `/network/v2.0/routers/${net.routerId}`);
    await cloudCall('DELETE', `/network/v2.0/networks/${net.networkId}`);
    const noise = await cloud.app.inject({
      method: 'PUT',
      url: '/admin/noise',
      payload: { ipAllocation: 'random' },
    });
    assert.equal(noise.statusCode, 200, noise.body);
    await runBatch([OWN_ONLY_NETWORK]);
  });

  it('accounts for every template: 32 create and delete, the others are refused or fail for their reason', () => {
    const covered = templates.filter((t) => t in REFUSED || t in FAILING).length;
    assert.equal(templates.length, 41);
    assert.equal(covered, 9, 'refused or failing: the other 32 create and delete');
  });
});

/** The parameter names of a YAML template (top-level keys under `Parameters:`), enough for choosing values. */
function yamlParameters(text: string): Json {
  const out: Json = {};
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^Parameters:\s*$/.test(l));
  if (start < 0) return out;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const m = /^ {2}([A-Za-z0-9_]+):/.exec(line);
    if (m) out[m[1]!] = true;
  }
  return out;
}
