import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import type { CatalogPlugin } from '../../src/resources/plugin-extras.js';
import { allTemplateVersions, versionName } from '../../src/template/formats.js';
import { allVersions } from '../../src/template/versions.js';
import { HEARTH_VERSION } from '../../src/version.js';
import { type HeatError, startApi, type TestApi } from './harness.js';
import { startServe } from '../cli/serve-process.js';
import { openstackSkip } from './serve-process.js';
import { API_SAMPLES } from '../support/shared.js';

/** The JSON body of one of Heat's recorded answers. */
function sample<T>(file: string): T {
  const text = readFileSync(`${API_SAMPLES}/${file}`, 'utf8');
  return JSON.parse(text.slice(text.indexOf('\n{') + 1)) as T;
}

function isHidden(plugin: unknown): boolean {
  return (plugin as CatalogPlugin | undefined)?.supportStatus?.status === 'HIDDEN';
}

// The routes about what Hearth offers rather than about one stack: resource types, template
// versions and their functions, build info.
describe('API: catalog', () => {
  let api: TestApi;
  const P = '/v1/proj';
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  const get = async <T>(url: string) => {
    const res = await api.call('GET', `${P}${url}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as T;
  };
  const plugins = () => api.engine.deps.plugins;
  /** The types Heat lists: HIDDEN ones (old names still run, e.g. OS::Heat::SoftwareDeployments) are not. */
  const offered = () =>
    plugins()
      .types()
      .filter((t) => !isHidden(plugins().plugin(t)));
  type Types = { resource_types: (string | { resource_type: string; description: string })[] };
  type Cfn = {
    HeatTemplateFormatVersion: string;
    Parameters: Record<string, unknown>;
    Resources: Record<string, { Properties: Record<string, unknown> }>;
    Outputs: Record<string, unknown>;
  };
  type Hot = {
    heat_template_version: string;
    description: string;
    parameters: Record<string, unknown>;
    resources: unknown;
    outputs: Record<string, unknown>;
  };

  it('lists every plugin type by name, and filters them as Heat does', async () => {
    const all = (await get<Types>('/resource_types')).resource_types;
    assert.deepEqual(all, offered());
    assert.ok(!all.includes('OS::Heat::SoftwareDeployments'), 'hidden');
    assert.ok(all.includes('OS::Heat::RandomString'));

    // name is a regular expression matched at the start, as Python's re.match.
    const r = (await get<Types>('/resource_types?name=OS::Heat::R.*')).resource_types;
    assert.deepEqual(
      r,
      all.filter((t) => (t as string).startsWith('OS::Heat::R')),
    );
    assert.ok(r.length >= 3);
    assert.deepEqual((await get<Types>('/resource_types?name=Random')).resource_types, []);
    assert.deepEqual((await get<Types>('/resource_types?name=(')).resource_types, [], 'a bad pattern: none');
    assert.deepEqual((await get<Types>('/resource_types?name=OS::Heat::(None|Value)$')).resource_types, [
      'OS::Heat::None',
      'OS::Heat::Value',
    ]);
    // Catastrophic backtracking is refused rather than run.
    for (const pattern of ['(.*)*X', '(a+)+', '.*.*.*.*.*X']) {
      const res = await api.call('GET', `${P}/resource_types?name=${encodeURIComponent(pattern)}`);
      assert.equal(res.statusCode, 400, pattern);
    }

    const v2014 = (await get<Types>('/resource_types?version=2014.1')).resource_types;
    const expected = offered().filter(
      (t) => (plugins().plugin(t) as CatalogPlugin).supportStatus?.version === '2014.1',
    );
    assert.ok(expected.length > 0);
    assert.deepEqual(v2014, expected);
    assert.deepEqual((await get<Types>('/resource_types?support_status=SUPPORTED')).resource_types, all);
    assert.deepEqual((await get<Types>('/resource_types?support_status=DEPRECATED')).resource_types, []);

    const bad = await api.call('GET', `${P}/resource_types?support_status=SOMETIMES`);
    assert.equal(bad.statusCode, 400);
    assert.equal((bad.json() as HeatError).error.type, 'Invalid');
  });

  it('lists types with their descriptions (with_description, as heatclient sends it)', async () => {
    const described = (await get<Types>('/resource_types?with_description=True&name=OS::Heat::None'))
      .resource_types;
    assert.deepEqual(described, [
      { resource_type: 'OS::Heat::None', description: plugins().plugin('OS::Heat::None')!.description },
    ]);
    const bad = await api.call('GET', `${P}/resource_types?with_description=perhaps`);
    assert.equal(bad.statusCode, 400);
    assert.match((bad.json() as HeatError).error.message, /with_description/);
  });

  it('shows a type’s schema as Heat does, the URL-encoded name too', async () => {
    const shown = await get<Record<string, unknown>>(
      `/resource_types/${encodeURIComponent('OS::Heat::TestResource')}?with_description=False`,
    );
    assert.deepEqual(shown, sample('resource-type-show.txt'));
    const described = await get<Record<string, unknown>>(
      '/resource_types/OS::Heat::None?with_description=true',
    );
    assert.equal(described.description, plugins().plugin('OS::Heat::None')!.description);
    assert.deepEqual(described.properties, {});
  });

  it('answers an unknown type with 404', async () => {
    for (const url of [
      '/resource_types/OS::Sahara::Cluster',
      '/resource_types/OS::Sahara::Cluster/template',
    ]) {
      const res = await api.call('GET', `${P}${url}`);
      assert.equal(res.statusCode, 404);
      const body = res.json() as HeatError;
      assert.equal(body.title, 'Not Found');
      assert.equal(body.error.type, 'ResourceTypeNotFound');
      assert.equal(body.error.message, 'The Resource Type (OS::Sahara::Cluster) could not be found.');
    }
  });

  it('generates a type’s template: cfn by default, hot on request', async () => {
    const cfn = await get<Cfn>('/resource_types/OS::Heat::RandomString/template');
    assert.equal(cfn.HeatTemplateFormatVersion, '2012-12-12');
    assert.deepEqual(cfn.Resources.RandomString!.Properties.length, { Ref: 'length' });
    assert.deepEqual(cfn.Parameters.length, {
      Type: 'Number',
      Description: 'Length of the string to generate.',
      Default: 32,
      MinValue: 1,
      MaxValue: 512,
    });
    assert.deepEqual(cfn.Outputs['OS::stack_id'], { Value: { Ref: 'RandomString' } });

    const hot = await get<Hot>('/resource_types/OS::Heat::TestResource/template?template_type=HOT');
    assert.equal(hot.heat_template_version, '2016-10-14');
    assert.equal(hot.description, 'Initial template of TestResource');
    const schema = plugins().plugin('OS::Heat::TestResource')!;
    assert.deepEqual(Object.keys(hot.parameters), Object.keys(schema.properties));
    assert.deepEqual(hot.resources, {
      TestResource: {
        type: 'OS::Heat::TestResource',
        properties: Object.fromEntries(Object.keys(schema.properties).map((p) => [p, { get_param: p }])),
      },
    });
    assert.deepEqual(hot.parameters.fail, {
      type: 'boolean',
      description: schema.properties.fail!.description!,
      default: false,
    });
    assert.deepEqual(hot.outputs.output, {
      value: { get_attr: ['TestResource', 'output'] },
      description: schema.attributes.output!.description!,
    });
    assert.ok(hot.outputs.show, 'the base attribute too');

    const bad = await api.call('GET', `${P}/resource_types/OS::Heat::None/template?template_type=xml`);
    assert.equal(bad.statusCode, 400);
    assert.match((bad.json() as HeatError).error.message, /xml/);
  });

  it('generates for every type a HOT and a CloudFormation-format template that validate', async () => {
    for (const type of offered()) {
      for (const format of ['hot', 'cfn']) {
        const template = await get<unknown>(`/resource_types/${type}/template?template_type=${format}`);
        const res = await api.call('POST', `${P}/validate`, { body: { template } });
        // Heat's cfn template splits a CommaDelimitedList parameter, whose value is a list
        // already: Heat finds that when the stack is created, Hearth when it is validated.
        if (format === 'cfn' && res.statusCode === 400) {
          assert.match(res.body, /Fn::Split: can only split a string, got list/, type);
          continue;
        }
        assert.equal(res.statusCode, 200, `${type} (${format}): ${res.body}`);
      }
    }
  });

  it('lists the template versions as Heat names them, cfn ones first', async () => {
    const { template_versions: versions } = await get<{ template_versions: Record<string, unknown>[] }>(
      '/template_versions',
    );
    assert.equal(versions.length, allVersions().length + 2);
    const heat = sample<{ template_versions: { type: string }[] }>('template-versions.txt').template_versions;
    assert.deepEqual(versions, heat);
  });

  it('lists the functions of the CloudFormation-format versions, as Heat has them', async () => {
    type Fns = { template_functions: { functions: string; description: string }[] };
    const names = async (version: string, conditions = false) =>
      (
        await get<Fns>(
          `/template_versions/${version}/functions${conditions ? '?with_condition_func=True' : ''}`,
        )
      ).template_functions.map((f) => f.functions);
    const heat2012 = [
      'Fn::FindInMap',
      'Fn::GetAZs',
      'Ref',
      'Fn::GetAtt',
      'Fn::Select',
      'Fn::Join',
      'Fn::Split',
      'Fn::Replace',
      'Fn::Base64',
      'Fn::MemberListToMap',
      'Fn::ResourceFacade',
    ];
    assert.deepEqual(await names('HeatTemplateFormatVersion.2012-12-12'), heat2012);
    assert.deepEqual(await names('HeatTemplateFormatVersion.2012-12-12', true), heat2012);
    assert.deepEqual(await names('AWSTemplateFormatVersion.2010-09-09'), [...heat2012, 'Fn::If']);
    assert.deepEqual(await names('AWSTemplateFormatVersion.2010-09-09', true), [
      ...heat2012,
      'Fn::If',
      'Fn::Equals',
      'Fn::Not',
      'Fn::And',
      'Fn::Or',
    ]);
  });

  it('lists a version’s functions, with the condition functions on request', async () => {
    type Fns = { template_functions: { functions: string; description: string }[] };
    const fns = (await get<Fns>('/template_versions/heat_template_version.2018-08-31/functions'))
      .template_functions;
    const heat = sample<Fns>('template-functions.txt').template_functions;
    assert.deepEqual(fns.map((f) => f.functions).sort(), heat.map((f) => f.functions).sort());
    assert.ok(fns.every((f) => f.description.length > 0));
    const byAlias = await get<Fns>('/template_versions/heat_template_version.rocky/functions');
    assert.deepEqual(byAlias.template_functions, fns);

    const withConditions = (
      await get<Fns>('/template_versions/heat_template_version.2018-08-31/functions?with_condition_func=True')
    ).template_functions.map((f) => f.functions);
    assert.deepEqual(
      withConditions.slice(0, fns.length),
      fns.map((f) => f.functions),
    );
    assert.deepEqual(withConditions.slice(fns.length).sort(), ['and', 'equals', 'not', 'or']);

    const old = (await get<Fns>('/template_versions/heat_template_version.2013-05-23/functions'))
      .template_functions;
    assert.ok(old.some((f) => f.functions === 'Fn::Select'));
    assert.ok(!old.some((f) => f.functions === 'map_merge'));

    for (const version of [
      'heat_template_version.2099-01-01',
      'AWSTemplateFormatVersion.2012-12-12',
      '2018-08-31',
    ]) {
      const res = await api.call('GET', `${P}/template_versions/${version}/functions`);
      assert.equal(res.statusCode, 404, version);
      assert.match((res.json() as HeatError).error.message, new RegExp(version));
    }
  });

  it('reports the build', async () => {
    assert.deepEqual(await get('/build_info'), {
      api: { revision: HEARTH_VERSION },
      engine: { revision: HEARTH_VERSION },
    });
  });
});

const run = promisify(execFile);

// The real python-openstackclient (heatclient) against `hearth serve` in a child process.
describe('API: catalog through the openstack client', { skip: await openstackSkip() }, () => {
  let server: Awaited<ReturnType<typeof startServe>>;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-osc-'));
    server = await startServe(['--db', join(dir, 'state.db'), 'serve', '--auth', 'noauth', '--port', '0']);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openstack<T>(...args: string[]): Promise<T> {
    const env = { ...process.env, OS_AUTH_TYPE: 'none', OS_ENDPOINT: `${server.url}/v1/admin` };
    const { stdout } = await run('openstack', [...args, '-f', 'json'], { env });
    return JSON.parse(stdout) as T;
  }
  const catalog = pluginCatalog(builtinPlugins());
  const types = catalog.types().filter((t) => !isHidden(catalog.plugin(t)));

  it('template validate', async () => {
    const file = join(dir, 't.yaml');
    writeFileSync(file, readFileSync(`${API_SAMPLES}/sample-template.yaml`));
    const out = await openstack<{ Description: string; Parameters: Record<string, { Default?: unknown }> }>(
      'orchestration',
      'template',
      'validate',
      '-t',
      file,
    );
    assert.equal(out.Description, 'Sample stack for recording Heat API responses');
    assert.deepEqual(Object.keys(out.Parameters), ['v', 'secret']);
    // A hidden parameter's template default, shown as written (as Heat): the caller's own text.
    assert.equal(out.Parameters.secret!.Default, 's3cr3t');
  });

  it('resource type list and show', async () => {
    const list = await openstack<{ 'Resource Type': string }[]>('orchestration', 'resource', 'type', 'list');
    assert.deepEqual(
      list.map((t) => t['Resource Type']),
      types,
    );
    const shown = await openstack<{
      resource_type: string;
      properties: Record<string, { default?: unknown }>;
    }>('orchestration', 'resource', 'type', 'show', 'OS::Heat::RandomString');
    assert.equal(shown.resource_type, 'OS::Heat::RandomString');
    assert.equal(shown.properties.length!.default, 32);
  });

  it('template version list', async () => {
    const versions = await openstack<{ Version: string; Type: string }[]>(
      'orchestration',
      'template',
      'version',
      'list',
    );
    assert.deepEqual(
      versions.map((v) => v.Version),
      allTemplateVersions().map((v) => versionName(v)),
    );
  });
});
