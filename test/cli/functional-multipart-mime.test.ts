import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Workdir } from './workdir.js';

// OS::Heat::MultipartMime end to end: a SoftwareConfig, a CloudConfig and a raw text as parts of
// one MIME message, read back from `stack output show`.

const TEMPLATE = `heat_template_version: 2018-08-31
resources:
  script:
    type: OS::Heat::SoftwareConfig
    properties: {config: "#!/bin/bash\\necho hello\\n"}
  cloud:
    type: OS::Heat::CloudConfig
    properties: {cloud_config: {runcmd: [[touch, /tmp/done]]}}
  mime:
    type: OS::Heat::MultipartMime
    properties:
      parts:
      - {config: {get_resource: cloud}}
      - {config: {get_resource: script}, filename: boot.sh, subtype: x-shellscript}
      - {config: "#include https://example.com/more", subtype: x-include-url}
outputs:
  message: {value: {get_attr: [mime, config]}}
`;

describe('OS::Heat::MultipartMime through the CLI', () => {
  it('writes a multipart/mixed message of the configs and the raw part', async () => {
    const w = new Workdir({ 'mime.yaml': TEMPLATE });
    await w.ok(['stack', 'create', 's', '-t', 'mime.yaml', '--wait']);
    const message = (await w.outputs('s')).message as string;
    const boundary =
      /^Content-Type: multipart\/mixed; boundary="(={15}\d{19}==)"\nMIME-Version: 1\.0\n\n/.exec(
        message,
      )?.[1];
    assert.ok(boundary, message);
    const part = (subtype: string, extra: string, body: string) =>
      `--${boundary}\nContent-Type: text/${subtype}; charset="us-ascii"\nMIME-Version: 1.0\n` +
      `Content-Transfer-Encoding: 7bit\n${extra}\n${body}\n`;
    assert.equal(
      message,
      `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\n\n` +
        part('plain', '', '#cloud-config\nruncmd:\n  - - touch\n    - /tmp/done\n') +
        part(
          'x-shellscript',
          'Content-Disposition: attachment; filename="boot.sh"\n',
          '#!/bin/bash\necho hello\n',
        ) +
        part('x-include-url', '', '#include https://example.com/more') +
        `--${boundary}--\n`,
    );
  });
});
