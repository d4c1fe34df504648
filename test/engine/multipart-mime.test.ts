import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { Harness } from './harness.js';

// OS::Heat::MultipartMime: parts given inline or by the id of another config, read through the
// plugin context's software config lookup (an index lookup of the row with that physical id).

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  script: {type: OS::Heat::SoftwareConfig, properties: {group: script, config: "#!/bin/sh\\necho hi\\n"}}
  cloud: {type: OS::Heat::CloudConfig, properties: {cloud_config: {packages: [nginx]}}}
  mime:
    type: OS::Heat::MultipartMime
    properties:
      parts:
      - {config: {get_resource: script}, filename: run.sh, subtype: x-shellscript}
      - {config: {get_resource: cloud}, filename: cfg.yaml, subtype: cloud-config}
      - {config: "plain words", filename: notes.txt}
      - {config: "00000000-0000-4000-8000-000000000000"}
  outer:
    type: OS::Heat::MultipartMime
    properties:
      group: ungrouped-too
      parts:
      - {config: {get_resource: mime}, type: multipart}
      - {config: "caf\\u00e9"}
outputs:
  mime: {value: {get_attr: [mime, config]}}
  outer: {value: {get_attr: [outer, config]}}
  mime_id: {value: {get_resource: mime}}
`;

interface Part {
  headers: string[];
  body: string;
}

/** Splits a message by the boundary its Content-Type names, checking the framing on the way. */
function parts(message: string): { head: string[]; parts: Part[] } {
  const [head, rest] = [
    message.slice(0, message.indexOf('\n\n')),
    message.slice(message.indexOf('\n\n') + 2),
  ];
  const boundary = /^Content-Type: multipart\/mixed; boundary="(.+)"$/m.exec(head)![1]!;
  assert.match(boundary, /^={15}\d{19}==$/, "Python's boundary shape");
  assert.ok(rest.startsWith(`--${boundary}\n`));
  assert.ok(rest.endsWith(`\n--${boundary}--\n`));
  const inner = rest.slice(`--${boundary}\n`.length, -`\n--${boundary}--\n`.length);
  return {
    head: head.split('\n'),
    parts: inner.split(`\n--${boundary}\n`).map((p) => {
      const cut = p.indexOf('\n\n');
      return { headers: p.slice(0, cut).split('\n'), body: p.slice(cut + 2) };
    }),
  };
}

const textHeaders = (subtype: string, filename?: string) => [
  `Content-Type: text/${subtype}; charset="us-ascii"`,
  'MIME-Version: 1.0',
  'Content-Transfer-Encoding: 7bit',
  ...(filename ? [`Content-Disposition: attachment; filename="${filename}"`] : []),
];

describe('OS::Heat::MultipartMime', () => {
  it('assembles SoftwareConfig, CloudConfig and raw parts; is itself a config another can take apart', async () => {
    const h = await Harness.create();
    await h.create('s', TEMPLATE);
    await h.settle();
    assert.equal(await h.status('s'), 'CREATE_COMPLETE');
    const out = await h.outputs('s');

    const mime = parts(out.mime as string);
    assert.deepEqual(mime.head.slice(1), ['MIME-Version: 1.0']);
    assert.deepEqual(
      mime.parts.map((p) => p.headers),
      [
        textHeaders('x-shellscript', 'run.sh'),
        textHeaders('cloud-config', 'cfg.yaml'),
        // No subtype: Heat takes the filename without its extension.
        textHeaders('notes', 'notes.txt'),
        textHeaders('plain'),
      ],
    );
    assert.equal(mime.parts[0]!.body, '#!/bin/sh\necho hi\n');
    assert.deepEqual(parse(mime.parts[1]!.body), { packages: ['nginx'] });
    assert.ok(mime.parts[1]!.body.startsWith('#cloud-config\n'));
    assert.equal(mime.parts[2]!.body, 'plain words');
    assert.equal(mime.parts[3]!.body, '00000000-0000-4000-8000-000000000000', 'an id no config has is text');

    // A multipart part contributes its parts one by one; non-ASCII text goes utf-8, in base64.
    const outer = parts(out.outer as string);
    assert.deepEqual(
      outer.parts.map((p) => p.headers[0]),
      [...mime.parts.map((p) => p.headers[0]), 'Content-Type: text/plain; charset="utf-8"'],
    );
    assert.deepEqual(
      outer.parts.slice(0, 4).map((p) => p.body),
      mime.parts.map((p) => p.body),
    );
    assert.equal(outer.parts[4]!.headers[2], 'Content-Transfer-Encoding: base64');
    assert.equal(Buffer.from(outer.parts[4]!.body, 'base64').toString('utf8'), 'café');
    assert.notEqual(/boundary="(.+)"/.exec(outer.head[0]!)![1], /boundary="(.+)"/.exec(mime.head[0]!)![1]);

    // Its id is a config id, found by the lookup like any config's.
    const row = (await h.rows('s')).find((r) => r.name === 'mime')!;
    assert.equal(out.mime_id, row.physicalId);
    const { findSoftwareConfig } = await import('../../src/engine/context/software-configs.js');
    const found = await findSoftwareConfig(h.deps, { projectId: 'p', stackId: row.stackId }, row.physicalId!);
    assert.deepEqual(found, { id: row.physicalId, group: 'Heat::Ungrouped', config: out.mime });
    assert.equal(
      await findSoftwareConfig(h.deps, { projectId: 'other-project', stackId: row.stackId }, row.physicalId!),
      undefined,
    );
  });

  it('a create run again writes the same message (the boundary is derived, not random)', async () => {
    const a = await Harness.create();
    await a.create('s', TEMPLATE);
    await a.settle();
    const row = (await a.rows('s')).find((r) => r.name === 'mime')!;
    const { multipartMimePlugin } = await import('../../src/resources/heat/multipart-mime.js');
    const { pluginContext } = await import('../../src/engine/context/node-work.js');
    const stack = await a.stack('s');
    const ctx = pluginContext({ deps: a.deps, stack }, { ...row, physicalId: null, data: {} });
    const again = await multipartMimePlugin.create(ctx, row.properties as never);
    assert.equal(again.data?.config, row.data.config);
    assert.equal(again.physicalId, row.physicalId);
  });
});
