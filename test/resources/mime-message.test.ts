import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { multipartMessage, parseMultipart } from '../../src/resources/heat/mime-message.js';

// The expected texts are what Python's email package writes for the same parts (MultipartMime in
// Heat), with the boundary replaced by ours.

function withBoundary(message: string, boundary: string): string {
  const ours = /boundary="(.+)"/.exec(message)![1]!;
  return message.split(ours).join(boundary);
}

describe('MIME multipart messages', () => {
  it('writes an empty message as Python does', () => {
    assert.equal(
      withBoundary(multipartMessage([], 'k'), 'X'),
      'Content-Type: multipart/mixed; boundary="X"\nMIME-Version: 1.0\n\n--X\n\n--X--\n',
    );
  });

  it('writes non-ASCII text as utf-8 base64 in 76-character lines; quotes the filename', () => {
    const message = multipartMessage([{ text: 'é'.repeat(40), subtype: '', filename: 'a "b".sh' }], 'k');
    assert.equal(
      withBoundary(message, 'B'),
      'Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n\n--B\n' +
        'Content-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\n' +
        'Content-Disposition: attachment; filename="a \\"b\\".sh"\n\n' +
        'w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nD\n' +
        'qcOpw6nDqcOpw6nDqcOpw6nDqcOpw6k=\n\n--B--\n',
    );
    assert.deepEqual(parseMultipart(message), [
      { text: 'é'.repeat(40), subtype: 'plain', filename: 'a "b".sh' },
    ]);
  });

  it('picks another boundary when a part has a line that would end it', () => {
    const first = multipartMessage([{ text: 'x', subtype: '', filename: '' }], 'k');
    const boundary = /boundary="(.+)"/.exec(first)![1]!;
    const tricky = `a\n--${boundary}--\nb`;
    const message = multipartMessage([{ text: tricky, subtype: '', filename: '' }], 'k');
    assert.equal(/boundary="(.+)"/.exec(message)![1], `${boundary}.0`);
    assert.deepEqual(parseMultipart(message), [{ text: tricky, subtype: 'plain', filename: '' }]);
  });

  it('reads only multipart messages', () => {
    assert.equal(parseMultipart('just text'), undefined);
    assert.equal(parseMultipart('Content-Type: text/plain\n\nhello'), undefined);
  });
});
