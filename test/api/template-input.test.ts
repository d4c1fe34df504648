import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { templateInput } from '../../src/api/request/template-input.js';
import { bindTemplateSliced } from '../../src/engine/core/templates.js';
import { withLimits } from '../../src/template/limits.js';
import { EMPTY_CATALOG } from '../../src/template/types.js';

const limits = withLimits();
const hot = (value: unknown) => ({
  heat_template_version: '2018-08-31',
  resources: { v: { type: 'OS::Heat::None', properties: { value } } },
});

describe('templateInput: a template sent parsed is bound without a second parse', () => {
  it('hands the body’s object on with the text written from it', async () => {
    const template = hot('x');
    const input = await templateInput({ template }, limits);
    assert.equal(input.text, JSON.stringify(template));
    assert.equal(input.parsed?.data, template);
    assert.equal(input.parsed?.file, input.url);
  });

  it('hands nothing on when the text would not read back equal, nor for a template sent as text', async () => {
    assert.equal((await templateInput({ template: hot(-0) }, limits)).parsed, undefined);
    assert.equal((await templateInput({ template: JSON.parse('{"n": 1e400}') }, limits)).parsed, undefined);
    assert.equal((await templateInput({ template: JSON.stringify(hot('x')) }, limits)).parsed, undefined);
  });

  it('checks the handed object’s shape against the limits, in the words of a parse', async () => {
    const input = await templateInput({ template: hot({ a: { b: { c: 1 } } }) }, limits);
    const record = {
      id: 't',
      template: input.text,
      url: input.url,
      files: {},
      environment: {},
      createdAt: new Date(0).toISOString(),
    };
    const stack = { stackId: 's', stackName: 'n', projectId: 'p' };
    await assert.rejects(
      bindTemplateSliced(record, stack, EMPTY_CATALOG, withLimits({ maxDocumentDepth: 5 }), {
        parsed: input.parsed!,
      }),
      /nested deeper than 5 levels/,
    );
    await assert.rejects(
      bindTemplateSliced(record, stack, EMPTY_CATALOG, withLimits({ maxDocumentNodes: 8 }), {
        parsed: input.parsed!,
      }),
      /more than 8 nodes/,
    );
  });
});
