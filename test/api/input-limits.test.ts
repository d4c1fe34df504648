import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { snapshotDatabase } from '../cli/state-snapshot.js';
import { type HeatError, SAMPLE_TEMPLATE, startApi, type TestApi } from './harness.js';

// Abuse limits on request input, at their defaults (Heat's where Heat has one): body and template
// size, nesting depth anywhere in a body or a document it carries, stack timeouts, the names a
// template gives things. Each refusal is a 400 in Heat's body, stores nothing, and leaves the
// server serving.

const P = '/v1/proj';
const DEEP = 10_000;
const VERSION = { heat_template_version: '2018-08-31' };

const deepList = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepMap = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
/** A template whose one resource's value is `inner` (JSON text). */
const templateWith = (inner: string) =>
  `{"heat_template_version":"2018-08-31","resources":{"r":{"type":"OS::Heat::TestResource","properties":{"value":${inner}}}}}`;

let api: TestApi;
let created = 0;

before(async () => {
  api = await startApi();
  api.engine.deps.settings.enableStackAdopt = true; // adopt bodies are checked too (adopt is off by default)
});
after(() => api.close());

/** Sends a request that must be refused with 400; checks Heat's body and that nothing changed. */
async function refused(method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown): Promise<HeatError> {
  const before = snapshotDatabase(api.dbFile);
  const res = await api.call(method, url, { body });
  assert.equal(res.statusCode, 400, res.body.slice(0, 500));
  const err = res.json() as HeatError;
  assert.equal(err.code, 400);
  assert.equal(err.title, 'Bad Request');
  assert.equal(err.error.traceback, null);
  assert.deepEqual(snapshotDatabase(api.dbFile), before, `${method} ${url} changed the stored state`);
  assert.equal((await api.call('GET', `${P}/stacks`)).statusCode, 200, 'the server keeps serving');
  return err;
}

const create = (fields: Record<string, unknown>) => ({ stack_name: `s${++created}`, ...fields });

describe('API limits: body and template size (Heat’s defaults)', () => {
  it('refuses a body over max_json_body_size (1 MiB) as Heat does, without reading it whole', async () => {
    const body = JSON.stringify(create({ template: VERSION, padding: 'x'.repeat(2 * 1024 * 1024) }));
    const err = await refused('POST', `${P}/stacks`, body);
    assert.equal(err.error.type, 'RequestLimitExceeded');
    assert.equal(
      err.error.message,
      `Request limit exceeded: JSON body size (${Buffer.byteLength(body)} bytes) exceeds maximum allowed size (1048576 bytes).`,
    );
  });

  it('refuses a chunked body (no Content-Length) once it passes the limit', async () => {
    const before = snapshotDatabase(api.dbFile);
    const chunk = 'x'.repeat(64 * 1024);
    const res = await api.app.inject({
      method: 'POST',
      url: `${P}/stacks`,
      headers: { 'content-type': 'application/json' },
      payload: Readable.from(
        (function* () {
          yield '{"stack_name": "chunked", "padding": "';
          for (let i = 0; i < 64; i++) yield chunk; // 4 MiB
          yield '"}';
        })(),
      ),
    });
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    const err = res.json() as HeatError;
    assert.equal(err.error.type, 'RequestLimitExceeded');
    assert.equal(
      err.error.message,
      'Request limit exceeded: JSON body size (more than 1048576 bytes) exceeds maximum allowed size (1048576 bytes).',
    );
    assert.deepEqual(snapshotDatabase(api.dbFile), before);
  });

  it('refuses a template over max_template_size (512 KiB) in a body under the body limit', async () => {
    const text = `heat_template_version: 2018-08-31\ndescription: ${'x'.repeat(600 * 1024)}\n`;
    const err = await refused('POST', `${P}/stacks`, create({ template: text }));
    assert.equal(err.error.type, 'RequestLimitExceeded');
    assert.match(
      err.error.message,
      /Template size \(\d+ bytes\) exceeds maximum allowed size \(524288 bytes\)/,
    );
    // A template sent as an object is measured as its JSON text.
    const object = { ...VERSION, description: 'x'.repeat(600 * 1024) };
    const again = await refused('POST', `${P}/validate`, { template: object });
    assert.match(again.error.message, /exceeds maximum allowed size \(524288 bytes\)/);
  });
});

describe('API limits: nesting depth', () => {
  const bodyTooDeep = /^Request limit exceeded: the JSON body is nested deeper than 128 levels/;

  it('refuses a body nested 10,000 deep anywhere: template, parameters, environment, unknown fields', async () => {
    const cases = [
      `{"stack_name":"d1","template":${templateWith(deepList(DEEP))}}`,
      `{"stack_name":"d2","template":{"heat_template_version":"2018-08-31"},"parameters":{"p":${deepMap(DEEP)}}}`,
      `{"stack_name":"d3","template":{"heat_template_version":"2018-08-31"},"environment":{"parameter_defaults":{"p":${deepList(DEEP)}}}}`,
      `{"stack_name":"d4","template":{"heat_template_version":"2018-08-31"},"junk":${deepList(DEEP)}}`,
      `{"stack_name":"d5","adopt_stack_data":${deepMap(DEEP)}}`,
    ];
    for (const body of cases) {
      const err = await refused('POST', `${P}/stacks`, body);
      assert.equal(err.error.type, 'RequestLimitExceeded');
      assert.match(err.error.message, bodyTooDeep);
    }
    assert.match(
      (await refused('POST', `${P}/validate`, `{"template":${templateWith(deepList(DEEP))}}`)).error.message,
      bodyTooDeep,
    );
    assert.match((await refused('POST', `${P}/stacks/preview`, cases[0]!)).error.message, bodyTooDeep);
  });

  it('parses a big body (in slices) as a small one: accepted, too deep, or not JSON', async () => {
    const padding = 'x'.repeat(300 * 1024);
    const big = `{"template":{"heat_template_version":"2018-08-31","description":"${padding}"}}`;
    const ok = await api.call('POST', `${P}/validate`, { body: big });
    assert.equal(ok.statusCode, 200, ok.body.slice(0, 500));
    assert.equal((ok.json() as { Description: string }).Description, padding);
    const deep = `{"template":${templateWith(deepList(DEEP))},"junk":"${padding}"}`;
    const tooDeep = await refused('POST', `${P}/validate`, deep);
    assert.equal(tooDeep.error.type, 'RequestLimitExceeded');
    assert.match(tooDeep.error.message, bodyTooDeep);
    const broken = await refused('POST', `${P}/validate`, `${big.slice(0, -1)},}`);
    assert.equal(broken.error.type, 'HTTPBadRequest');
    assert.match(broken.error.message, /^The body is not valid JSON: /);
  });

  it('takes max_json_body_depth from the configuration, counting the body as level 1', async () => {
    const small = await startApi({ limits: { max_json_body_depth: 4 } });
    try {
      // body → template → outputs → o: 4 levels; a value that is a list makes 5.
      const at = (value: unknown) => ({ template: { ...VERSION, outputs: { o: { value } } } });
      const ok = await small.call('POST', `${P}/validate`, { body: at('flat') });
      assert.equal(ok.statusCode, 200, ok.body);
      const deep = await small.call('POST', `${P}/validate`, { body: at(['x']) });
      assert.equal(deep.statusCode, 400, deep.body);
      assert.match((deep.json() as HeatError).error.message, /nested deeper than 4 levels/);
    } finally {
      await small.close();
    }
  });

  it('refuses documents sent as text nested deeper than max_document_depth: JSON and YAML', async () => {
    const documents: Record<string, string> = {
      'JSON template': templateWith(deepList(DEEP)),
      'YAML flow template': `heat_template_version: 2018-08-31\noutputs:\n  o:\n    value: ${deepList(DEEP)}\n`,
      'YAML block template': `heat_template_version: 2018-08-31\noutputs:\n  o:\n    value:\n      ${'- '.repeat(DEEP)}x\n`,
    };
    for (const [what, text] of Object.entries(documents)) {
      const err = await refused('POST', `${P}/stacks`, create({ template: text }));
      assert.equal(err.error.type, 'RequestLimitExceeded', what);
      assert.match(
        err.error.message,
        /^file:\/\/\/template(:\d+:\d+)?: document is nested deeper than 64 levels/,
        what,
      );
    }
  });

  it('refuses deep environments, files’ templates, adopt data and JSON parameters given as text', async () => {
    const env = await refused(
      'POST',
      `${P}/stacks`,
      create({ template: VERSION, environment: `parameter_defaults:\n  p: ${deepList(DEEP)}\n` }),
    );
    assert.match(env.error.message, /environment(:\d+:\d+)?: document is nested deeper than 64 levels/);

    const member = `heat_template_version: 2018-08-31\noutputs:\n  o: {value: ${deepList(DEEP)}}\n`;
    const nested = await refused(
      'POST',
      `${P}/stacks`,
      create({
        template: { ...VERSION, resources: { m: { type: 'member.yaml' } } },
        files: { 'member.yaml': member },
      }),
    );
    assert.match(nested.error.message, /member\.yaml(:\d+:\d+)?: .*nested deeper than 64 levels/);

    const adopt = await refused('POST', `${P}/stacks`, create({ adopt_stack_data: deepMap(DEEP) }));
    assert.match(adopt.error.message, /nested deeper than 64 levels/);

    const json = { ...VERSION, parameters: { p: { type: 'json' } } };
    const param = await refused(
      'POST',
      `${P}/stacks`,
      create({ template: json, parameters: { p: deepMap(DEEP) } }),
    );
    assert.match(param.error.message, /parameters\.p: .*nested deeper than 64 levels/);
  });
});

describe('API limits: timeout_mins', () => {
  it('refuses timeouts beyond Heat’s 32-bit column, negative ones and non-integers', async () => {
    for (const bad of ['1000000000000', '9223372036854775808', '2147483648', '-1']) {
      const body = `{"stack_name":"t${++created}","template":{"heat_template_version":"2018-08-31"},"timeout_mins":${bad}}`;
      const err = await refused('POST', `${P}/stacks`, body);
      assert.match(err.error.message, /timeout_mins/);
    }
    await refused('POST', `${P}/stacks`, create({ template: VERSION, timeout_mins: 1.5 }));
    // openstackclient's adopt sends `timeout`.
    const adopt = await refused('POST', `${P}/stacks`, create({ adopt_stack_data: '{}', timeout: 2 ** 40 }));
    assert.match(adopt.error.message, /'timeout'/);
  });

  it('keeps the largest timeout and reads 0 as the default, as Heat does; an update is bounded too', async () => {
    const res = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'longest', template: SAMPLE_TEMPLATE, timeout_mins: 2147483647 },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { id } = (res.json() as { stack: { id: string } }).stack;
    await api.settle(id);
    const shown = await api.call('GET', `${P}/stacks/longest/${id}`);
    assert.equal((shown.json() as { stack: { timeout_mins: number } }).stack.timeout_mins, 2147483647);
    const err = await refused('PATCH', `${P}/stacks/longest/${id}`, { timeout_mins: 1e12 });
    assert.match(err.error.message, /the largest timeout is 2147483647 minutes/);

    const zero = await api.call('POST', `${P}/stacks`, {
      body: { stack_name: 'zero', template: VERSION, timeout_mins: 0 },
    });
    assert.equal(zero.statusCode, 201, zero.body);
    const zid = (zero.json() as { stack: { id: string } }).stack.id;
    await api.settle(zid);
    const zshown = await api.call('GET', `${P}/stacks/zero/${zid}`);
    assert.equal((zshown.json() as { stack: { timeout_mins: number | null } }).stack.timeout_mins, null);
  });
});

describe('API limits: names', () => {
  const resourceNamed = (name: string) => ({ ...VERSION, resources: { [name]: { type: 'OS::Heat::None' } } });

  it('refuses resource names with NUL, control characters or a lone surrogate, naming the path', async () => {
    const cases: [string, RegExp][] = [
      ['a\u0000b', /contains the unprintable character U\+0000/],
      ['bell\u0007', /U\+0007/],
      ['del\u007f', /U\+007F/],
      ['nel\u0085', /U\+0085/],
      ['new\nline', /U\+000A/],
      ['half\ud800', /not valid Unicode \(it has a lone UTF-16 surrogate\)/],
      ['\udc00low', /lone UTF-16 surrogate/],
    ];
    for (const [name, why] of cases) {
      for (const url of [`${P}/stacks`, `${P}/validate`]) {
        const err = await refused('POST', url, create({ template: resourceNamed(name) }));
        assert.equal(err.error.type, 'StackValidationFailed');
        // file, line and column, then the path with the name escaped, as in the message.
        assert.ok(err.error.message.startsWith(`file:///template:1:`), err.error.message);
        assert.ok(err.error.message.includes(`resources[${JSON.stringify(name)}]`), err.error.message);
        assert.match(err.error.message, why);
      }
    }
  });

  it('refuses such output and parameter names too, and accepts printable Unicode', async () => {
    const output = await refused(
      'POST',
      `${P}/stacks`,
      create({ template: { ...VERSION, outputs: { 'o\u0000': { value: 1 } } } }),
    );
    assert.match(output.error.message, /outputs\["o\\u0000"\]: the output name/);
    const param = await refused(
      'POST',
      `${P}/stacks`,
      create({ template: { ...VERSION, parameters: { 'p\ud800': { type: 'string', default: 'x' } } } }),
    );
    assert.match(param.error.message, /the parameter name "p\\ud800" is not valid Unicode/);
    const ok = await api.call('POST', `${P}/validate`, { body: { template: resourceNamed('sérveur-🚀') } });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('refuses stack names outside Heat’s rule, NUL and lone surrogates included', async () => {
    for (const name of ['a\u0000b', 'a\ud800', '1abc', 'a b', 'x'.repeat(256)]) {
      const err = await refused('POST', `${P}/stacks`, { stack_name: name, template: VERSION });
      assert.match(err.error.message, /invalid stack name/);
    }
  });
});
