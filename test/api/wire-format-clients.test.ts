import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  heatclientSkip,
  openstack,
  openstackSkip,
  runHeatclientScript,
  type ServeProcess,
  startNoauthServe,
} from './serve-process.js';

// Heat's wire format as the real clients meet it, against `hearth serve`: python-heatclient's
// Python API (test/api/heatclient-wire.py) and the openstack CLI. See also wire-format.test.ts.

const TEMPLATE_DEFAULT = 'TemplateDefault7';

/** No description, a hidden parameter with a default, an output with CFN's `Description`. */
const TEMPLATE = {
  heat_template_version: '2013-05-23',
  parameters: {
    v: { type: 'string', default: 'one' },
    secret: { type: 'string', default: TEMPLATE_DEFAULT, hidden: true },
  },
  resources: { r: { type: 'OS::Heat::TestResource', properties: { value: { get_param: 'v' } } } },
  outputs: { out: { Description: 'written CFN style', value: { get_attr: ['r', 'output'] } } },
};

const SCRIPT = resolve(import.meta.dirname, 'heatclient-wire.py');
const heatclientMissing = await heatclientSkip();
const openstackMissing = await openstackSkip();

interface Raw {
  status: number;
  location: string | null;
  content_type: string | null;
  body: { stack?: Record<string, unknown>; stacks?: unknown[] };
}
type Failed = { error: string };
type Stack = Record<string, unknown> & { stack_status: string };

/** What heatclient-wire.py prints. */
interface Seen {
  create: { stack: { id: string; links: { href: string }[] } } | Failed;
  raw_create: Raw | Failed;
  followed?: Raw | Failed;
  list: Raw | Failed;
  created?: Stack;
  show?: Stack | Failed;
  update?: null | Failed;
  updated?: Stack;
  updated_output?: string;
  patch?: null | Failed;
  patched?: Stack;
  patched_output?: string;
  preview_update?: { resource_changes: Record<string, { resource_name: string }[]> } | Failed;
  preview: Stack | Failed;
  validate: { Description: string; Parameters: Record<string, Record<string, unknown>> } | Failed;
}

function ok<T>(value: T | Failed | undefined, what: string): T {
  assert.ok(value !== undefined, `${what}: not reached`);
  assert.ok(
    value === null || typeof value !== 'object' || !('error' in value),
    `${what}: ${JSON.stringify(value)}`,
  );
  return value as T;
}

describe('Heat’s wire format through the real clients', () => {
  let server: ServeProcess;
  let dir: string;
  let templateFile: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-wire-'));
    templateFile = join(dir, 't.json');
    writeFileSync(templateFile, JSON.stringify(TEMPLATE));
    server = await startNoauthServe();
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('python-heatclient’s Python API', { skip: heatclientMissing }, () => {
    // Its plain HTTP client and its keystoneauth session client, run at once.
    const seen = new Map<string, Seen>();
    before(async () => {
      await Promise.all(
        ['http', 'session'].map(async (kind) => {
          const out = await runHeatclientScript(server, SCRIPT, [kind, `py-${kind}`, templateFile]);
          seen.set(kind, JSON.parse(out) as Seen);
        }),
      );
    });

    for (const kind of ['http', 'session']) {
      const get = () => seen.get(kind)!;

      it(`${kind}: create, update, PATCH update and their previews with environment_files=None, files=None`, () => {
        const s = get();
        ok(s.create, 'create');
        assert.equal(ok(s.created, 'created').stack_status, 'CREATE_COMPLETE');
        ok(s.update, 'update');
        assert.equal(ok(s.updated, 'updated').stack_status, 'UPDATE_COMPLETE');
        assert.equal(s.updated_output, 'three');
        ok(s.patch, 'patch');
        assert.equal(ok(s.patched, 'patched').stack_status, 'UPDATE_COMPLETE');
        assert.equal(s.patched_output, 'four');
        const changes = ok(s.preview_update, 'preview_update').resource_changes;
        assert.deepEqual(
          changes.updated!.map((r) => r.resource_name),
          ['r'],
        );
        ok(s.preview, 'preview');
        ok(s.validate, 'validate');
      });

      it(`${kind}: create answers 201 with Location, the stack's URL, which the client follows`, () => {
        const s = get();
        const created = ok(s.raw_create, 'raw create');
        assert.equal(created.status, 201);
        const stack = created.body.stack as { id: string; links: { href: string; rel: string }[] };
        assert.equal(created.location, stack.links[0]!.href);
        assert.equal(created.location, `${server.url}/v1/admin/stacks/py-${kind}-raw/${stack.id}`);
        const followed = ok(s.followed, 'followed');
        assert.equal(followed.status, 200);
        assert.equal(followed.body.stack!.id, stack.id);
        // A lookup by name went through a 302 and its Location.
        assert.equal(ok(s.show, 'show').id, ok(s.create, 'create').stack.id);
      });

      it(`${kind}: JSON answers say exactly application/json`, () => {
        const s = get();
        for (const [what, raw] of Object.entries({
          create: s.raw_create,
          show: s.followed,
          list: s.list,
        })) {
          assert.equal(ok(raw, what).content_type, 'application/json', what);
        }
      });

      it(`${kind}: a template without a description is "No description" in show and preview`, () => {
        const s = get();
        for (const [what, stack] of [
          ['show', ok(s.show, 'show')],
          ['preview', ok(s.preview, 'preview')],
        ] as const) {
          assert.equal(stack.description, 'No description', what);
          assert.equal(stack.template_description, 'No description', what);
        }
        const listed = ok(s.list, 'list').body.stacks as { description: string }[];
        assert.ok(listed.length > 0);
        for (const item of listed) assert.equal(item.description, '');
        assert.equal(ok(s.validate, 'validate').Description, 'No description');
      });

      it(`${kind}: validate shows a hidden parameter's template default, never a given value`, () => {
        const secret = ok(get().validate, 'validate').Parameters.secret!;
        assert.equal(secret.NoEcho, 'true');
        assert.equal(secret.Default, TEMPLATE_DEFAULT);
        assert.equal(secret.Value, '******');
        assert.ok(!JSON.stringify(get()).includes('GivenSecret5'));
      });

      it(`${kind}: an output's CFN-style Description under 2013-05-23 is accepted, and ignored as Heat does`, () => {
        const outputs = ok(get().show, 'show').outputs;
        assert.deepEqual(outputs, [
          { output_key: 'out', description: 'No description given', output_value: 'two' },
        ]);
      });
    }
  });

  describe('the openstack CLI', { skip: openstackMissing }, () => {
    // Each run of the client takes seconds to start: they run at once, the tests read their outputs.
    const runs = new Map<string, Promise<Record<string, unknown>>>();
    const json = (...args: string[]) => {
      const key = args.join(' ');
      if (!runs.has(key))
        runs.set(
          key,
          openstack(server, [...args, '-f', 'json']).then(
            (out) => JSON.parse(out) as Record<string, unknown>,
          ),
        );
      return runs.get(key)!;
    };
    const VALIDATE = [
      'orchestration',
      'template',
      'validate',
      '-t',
      '<t>',
      '--parameter',
      'secret=GivenSecret5',
    ];
    const PREVIEW = ['stack', 'create', '--dry-run', '-t', '<t>', 'cli-preview'];
    const withFile = (args: string[]) => args.map((a) => (a === '<t>' ? templateFile : a));
    before(async () => {
      await Promise.all([
        // --wait prints the events before the stack: not JSON.
        openstack(server, withFile(['stack', 'create', '--wait', '-t', '<t>', 'cli'])),
        json(...withFile(VALIDATE)),
        json(...withFile(PREVIEW)),
      ]);
    });

    it('stack show: "No description", and the output with CFN’s Description accepted', async () => {
      const shown = await json('stack', 'show', 'cli');
      assert.equal(shown.stack_status, 'CREATE_COMPLETE');
      assert.equal(shown.description, 'No description');
      assert.deepEqual(shown.outputs, [
        { output_key: 'out', description: 'No description given', output_value: 'one' },
      ]);
    });

    it('stack create --dry-run: "No description"', async () => {
      const preview = await json(...withFile(PREVIEW));
      assert.equal(preview.description, 'No description');
      assert.equal(preview.template_description, 'No description');
    });

    it('template validate: the hidden parameter’s template default shown, the given value masked', async () => {
      const out = (await json(...withFile(VALIDATE))) as {
        Description: string;
        Parameters: Record<string, Record<string, unknown>>;
      };
      assert.equal(out.Description, 'No description');
      assert.equal(out.Parameters.secret!.Default, TEMPLATE_DEFAULT);
      assert.equal(out.Parameters.secret!.Value, '******');
      assert.ok(!JSON.stringify(out).includes('GivenSecret5'));
    });
  });
});
