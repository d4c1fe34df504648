// Issue 21 (items 9-14): what Heat's template validate accepts and its create refuses. Heat's
// validate looks at property names only and never validates a nested stack's values; a stack's
// create checks its own values and the properties of its template resources, and each child
// stack checks its own when it is created. Item 16 is in functions/conditions.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyEnvironment } from '../../src/template/environment/index.js';
import { UNKNOWN } from '../../src/template/functions/types.js';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import { defineStackFromText, type DefineOptions } from '../../src/template/stack-definition.js';
import { errorOf } from './support.js';

const ROOT = 'file:///t/root.yaml';
const TYPES = pluginCatalog(builtinPlugins()).typeCatalog;

function define(text: string, options: DefineOptions = {}) {
  return defineStackFromText(ROOT, text, { types: TYPES, ...options });
}

/** Binds as `template validate` does, then as a create does: returns the create's error. */
function acceptedThenRefused(text: string, options: DefineOptions = {}) {
  define(text, options);
  return errorOf(() => define(text, { ...options, strict: true }));
}

describe('item 9: required properties inside nested templates', () => {
  const service = `heat_template_version: 2018-08-31
parameters:
  AodhPassword: {type: string, hidden: true}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: AodhPassword}}}
`;
  const role = `heat_template_version: 2018-08-31
resources:
  aodh: {type: service.yaml}
`;
  const files = { 'file:///t/service.yaml': service, 'file:///t/role.yaml': role };

  it('a template resource missing a required property validates; its create refuses it', () => {
    const text = 'heat_template_version: 2018-08-31\nresources:\n  aodh: {type: service.yaml}\n';
    const stack = define(text, { files });
    const impl = stack.resources.get('aodh')!.implementation;
    assert.equal(impl.kind, 'template');
    assert.equal(impl.kind === 'template' && impl.stack.parameters.get('AodhPassword'), UNKNOWN);
    const err = acceptedThenRefused(text, { files });
    assert.match(err.message, /resources\.aodh\.properties: property "AodhPassword" is required/);
    // parameter_defaults give it, as deployments do.
    const environment = { ...emptyEnvironment(), parameterDefaults: { AodhPassword: 'pw' } };
    define(text, { files, strict: true, environment });
  });

  it('one level deeper it is not checked at the root’s create either: the child checks it', () => {
    const text = 'heat_template_version: 2018-08-31\nresources:\n  role: {type: role.yaml}\n';
    define(text, { files });
    define(text, { files, strict: true });
    // The child's own create (its template bound strictly) refuses it.
    const child = errorOf(() =>
      defineStackFromText('file:///t/role.yaml', role, { files, types: TYPES, strict: true }),
    );
    assert.match(child.message, /property "AodhPassword" is required/);
  });
});

describe('item 10: a nested template’s parameter defaults', () => {
  const nested = `heat_template_version: 2018-08-31
parameters:
  count: {type: number, default: ''}
  flavor: {type: string, default: tiny, constraints: [{allowed_values: [small, large]}]}
resources:
  v: {type: OS::Heat::Value, properties: {value: {get_param: count}}}
`;
  const files = { 'file:///t/nested.yaml': nested };
  const text = 'heat_template_version: 2018-08-31\nresources:\n  n: {type: nested.yaml}\n';

  it('are not checked through the parent, at validate or create: unknown there', () => {
    for (const strict of [false, true]) {
      const impl = define(text, { files, strict }).resources.get('n')!.implementation;
      assert.ok(impl.kind === 'template');
      assert.equal(impl.stack.parameters.get('count'), UNKNOWN);
      assert.equal(impl.stack.parameters.get('flavor'), UNKNOWN);
    }
  });

  it('are checked when the nested template is a stack of its own', () => {
    const err = errorOf(() => defineStackFromText('file:///t/nested.yaml', nested, { types: TYPES }));
    assert.match(err.message, /parameters\.count\.default: Invalid default/);
  });

  it('values the root gives its template resources are checked at create, not at validate', () => {
    const given =
      'heat_template_version: 2018-08-31\nresources:\n  n: {type: nested.yaml, properties: {count: many}}\n';
    const err = acceptedThenRefused(given, { files });
    assert.match(err.message, /Value "many" is invalid for parameter "count"/);
  });
});

describe('item 11 and 13: a json parameter left at its default of ""', () => {
  const text = `heat_template_version: 2016-10-14
parameters:
  extra: {type: json, default: ''}
resources:
  v:
    type: OS::Heat::Value
    properties:
      value:
        repeat:
          for_each: {<%n%>: {get_param: extra}}
          template: x-<%n%>
`;

  it('is valid; at validate it has no value, so repeat over it is unknown', () => {
    assert.equal(define(text).parameters.get('extra'), UNKNOWN);
  });

  it('is "" when the stack is created; repeat then names the value it cannot iterate', () => {
    const err = errorOf(() => define(text, { strict: true }));
    assert.match(
      err.message,
      /resources\.v\.properties\.value: repeat: the values of "for_each" must be lists or maps, got string ""/,
    );
  });
});

describe('item 12: depends_on a resource whose condition is false', () => {
  it('is dropped, as Heat’s test_depends_condition says', () => {
    const text = `heat_template_version: 2016-10-14
resources:
  one: {type: OS::Heat::None}
  two: {type: OS::Heat::None, condition: false}
  three: {type: OS::Heat::None, depends_on: [one, two]}
`;
    for (const strict of [false, true]) {
      const stack = define(text, { strict });
      assert.deepEqual([...stack.resources.keys()], ['one', 'three']);
      assert.deepEqual(stack.resources.get('three')!.requires, ['one']);
    }
  });

  it('a name that is no resource at all is still an error', () => {
    const err = errorOf(() =>
      define(
        'heat_template_version: 2016-10-14\nresources:\n  a: {type: OS::Heat::None, depends_on: nope}\n',
      ),
    );
    assert.match(err.message, /resources\.a\.depends_on: the specified reference "nope" is not a resource/);
  });
});

describe('item 14: checks Heat makes at create', () => {
  it('an external_id from a parameter whose default is ""', () => {
    const text = `heat_template_version: 2016-10-14
parameters:
  existing_net: {type: string, default: ''}
resources:
  net: {type: OS::Neutron::Net, external_id: {get_param: existing_net}}
`;
    const err = acceptedThenRefused(text);
    assert.match(
      err.message,
      /resources\.net\.external_id: Invalid external resource: the external_id of net \(OS::Neutron::Net\) is empty/,
    );
    define(text, {
      strict: true,
      environment: { ...emptyEnvironment(), parameters: { existing_net: 'abc' } },
    });
  });

  it('a StructuredConfig whose config is a list', () => {
    const text = `heat_template_version: 2016-10-14
resources:
  c: {type: OS::Heat::StructuredConfig, properties: {config: ['recipe[nginx]']}}
`;
    assert.match(
      acceptedThenRefused(text).message,
      /resources\.c\.properties\.config: Value \["recipe\[nginx\]"\] is not a map/,
    );
  });

  it('a Subnet with both cidr and subnetpool', () => {
    const text = `heat_template_version: 2016-10-14
resources:
  s: {type: OS::Neutron::Subnet, properties: {network: n, cidr: 10.0.0.0/24, subnetpool: pool}}
`;
    assert.match(
      acceptedThenRefused(text).message,
      /resources\.s\.properties: Cannot define the following properties at the same time: subnetpool, cidr\./,
    );
  });

  it('a security group named default', () => {
    const text = `heat_template_version: 2016-10-14
resources:
  g: {type: OS::Neutron::SecurityGroup, properties: {name: default}}
`;
    assert.match(acceptedThenRefused(text).message, /Security groups cannot be assigned the name "default"/);
  });

  it('unknown property names are still refused at validate, as Heat does', () => {
    const err = errorOf(() =>
      define(
        'heat_template_version: 2016-10-14\nresources:\n  g: {type: OS::Neutron::SecurityGroup, properties: {nmae: x}}\n',
      ),
    );
    assert.match(
      err.message,
      /^Property error: : resources\.g\.properties: : Unknown Property nmae \(.*resources\.g\.properties\.nmae; did you mean "name"\?\)$/,
    );
  });
});
