import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig, templateLimitsFrom } from '../../src/config/index.js';
import { DEFAULT_LIMITS } from '../../src/template/limits.js';

describe('templateLimitsFrom', () => {
  it('gives the template layer’s own defaults from the default configuration, but Heat’s template size', () => {
    // The template layer alone (tests, benchmarks) takes 256 MiB; a configured Hearth, Heat's 512 KiB.
    assert.deepEqual(templateLimitsFrom(loadConfig({ env: {} })), {
      ...DEFAULT_LIMITS,
      maxDocumentBytes: 524_288,
    });
  });

  it('maps each option to its limit', () => {
    const config = loadConfig({
      env: {
        HEARTH_MAX_TEMPLATE_SIZE: '1000',
        HEARTH_MAX_DOCUMENT_DEPTH: '10',
        HEARTH_MAX_DOCUMENT_NODES: '20',
        HEARTH_MAX_DOCUMENT_ALIASES: '0',
        HEARTH_MAX_NESTED_STACK_DEPTH: '2',
        HEARTH_MAX_RESOURCES_PER_STACK: '30',
      },
    });
    assert.deepEqual(templateLimitsFrom(config), {
      maxDocumentBytes: 1000,
      maxDocumentDepth: 10,
      maxDocumentNodes: 20,
      maxAliasCount: 0,
      maxNestingDepth: 2,
      maxResourcesPerStack: 30,
    });
  });

  it('turns -1 resources per stack (Heat’s "unlimited") into no limit', () => {
    const limits = templateLimitsFrom(loadConfig({ env: { HEARTH_MAX_RESOURCES_PER_STACK: '-1' } }));
    assert.equal(limits.maxResourcesPerStack, Infinity);
    assert.ok(!(Number.MAX_SAFE_INTEGER > limits.maxResourcesPerStack));
  });

  it('keeps 0 resources per stack as 0', () => {
    const limits = templateLimitsFrom(loadConfig({ env: { HEARTH_MAX_RESOURCES_PER_STACK: '0' } }));
    assert.equal(limits.maxResourcesPerStack, 0);
  });
});
