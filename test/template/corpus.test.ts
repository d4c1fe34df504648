import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { readLocalFile } from '../../src/cli/commands/template.js';
import { TemplateError } from '../../src/template/errors.js';
import { loadStackInput } from '../../src/template/loader.js';
import { defineStackFromText } from '../../src/template/stack-definition.js';
import { builtinPlugins, pluginCatalog } from '../../src/resources/catalog.js';
import { CORPUS } from '../support/shared.js';

// Real public HOT templates (openstack/heat-templates, Apache-2.0), kept in the shared folder beside the repo.

function templatesIn(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) templatesIn(path, out);
    else if (
      /\.ya?ml$/.test(name) &&
      /^\s*["']?heat_template_version["']?\s*:/m.test(readFileSync(path, 'utf8'))
    ) {
      out.push(path);
    }
  }
  return out;
}

/**
 * The corpus keeps only the YAML files of its repository: scripts that templates include with
 * get_file (`*.sh`, `*.ps1` ...) are absent, so they read as a placeholder. Templates must exist.
 */
function readCorpusFile(url: string): string {
  try {
    return readLocalFile(url);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !/\.(ya?ml|template)$/.test(url)) {
      return `# ${url} is not part of the corpus`;
    }
    throw err;
  }
}

// Every type Hearth implements: a template using only these must validate.
const TYPES = pluginCatalog(builtinPlugins()).typeCatalog;

/**
 * Templates refused for another reason than an unknown type, and why (a gap of Hearth's; none
 * since the server has `console_urls`). example-chef-template.yaml, whose StructuredConfig `config` is a
 * list, validates as in Heat, whose create refuses it (test/template/validate-leniency.test.ts).
 */
const REFUSED: Readonly<Record<string, RegExp>> = {};

/** Why a template is refused: the type Hearth lacks, or the error without its position. */
function reasonOf(err: unknown): string {
  if (!(err instanceof TemplateError)) return `not a TemplateError: ${String(err)}`;
  const type = /The Resource Type \(([^)]+)\) could not be found/.exec(err.message);
  return err.kind === 'unknown_type' && type ? `type Hearth lacks: ${type[1]}` : err.detail;
}

describe('the public template corpus', () => {
  const templates = templatesIn(CORPUS);

  it('holds the 90 templates the acceptance names', () => {
    assert.equal(templates.length, 90);
  });

  for (const path of templates) {
    const name = relative(CORPUS, path);
    it(`${name}: parses, builds its graph, and validates or names an unknown type`, () => {
      const input = loadStackInput(path, [], readCorpusFile);
      const options = { files: input.files, environment: input.environment };
      const structural = defineStackFromText(input.url, input.text, { ...options, allowUnknownTypes: true });
      assert.ok(structural.graph.size === structural.resources.size);
      assert.deepEqual(new Set(structural.graph.topologicalOrder()), new Set(structural.resources.keys()));
      try {
        defineStackFromText(input.url, input.text, { ...options, types: TYPES });
      } catch (err) {
        assert.ok(err instanceof TemplateError, `not a TemplateError: ${err}`);
        assert.ok(err.file && err.position, 'the error names the file and position');
        const refused = REFUSED[name];
        if (refused) return assert.match(err.message, refused);
        assert.equal(err.kind, 'unknown_type', err.message);
        assert.match(err.message, /The Resource Type \([^)]+\) could not be found\./);
        return;
      }
      assert.equal(REFUSED[name], undefined, `${name} validates now: take it off REFUSED`);
    });
  }

  it('every template: validated as `template validate` does, rejections grouped by reason', (t) => {
    const byReason = new Map<string, string[]>();
    let accepted = 0;
    for (const path of templates) {
      const name = relative(CORPUS, path);
      const input = loadStackInput(path, [], readCorpusFile);
      const options = { files: input.files, environment: input.environment, types: TYPES };
      const refuse = (err: unknown) => {
        const reason = reasonOf(err);
        byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
      };
      try {
        defineStackFromText(input.url, input.text, options);
        accepted++;
      } catch (err) {
        refuse(err);
        // What the template would meet once Hearth has its types.
        if (err instanceof TemplateError && err.kind === 'unknown_type') {
          try {
            defineStackFromText(input.url, input.text, { ...options, allowUnknownTypes: true });
          } catch (hidden) {
            refuse(hidden);
          }
        }
      }
    }
    t.diagnostic(`${accepted} of ${templates.length} templates validate; the others, by reason:`);
    for (const [reason, names] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
      t.diagnostic(`${names.length} × ${reason}: ${names.join(', ')}`);
      if (reason.startsWith('type Hearth lacks: ')) continue;
      for (const name of names) assert.match(reason, REFUSED[name] ?? /^$/, `${name} is refused: ${reason}`);
    }
  });
});
