import { createHash } from 'node:crypto';

/**
 * The MIME multipart text Heat's MultipartMime writes (Python's email package, compat32 policy):
 * a multipart/mixed message of text parts, each with its own Content-Type, MIME-Version and
 * Content-Transfer-Encoding headers, lines ending in "\n". Only what that message uses is here.
 */

/** One text part as it is attached: its text, its text/<subtype>, its attachment filename. */
export interface MimePart {
  text: string;
  /** Empty: text/plain. */
  subtype: string;
  /** Empty: no Content-Disposition. */
  filename: string;
}

/** Whether the text is us-ascii (no code point above 127). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** A header parameter quoted as Python quotes it (backslash before `\` and `"`). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** 76-character lines of base64, each ending in "\n" (Python's body encoding of a utf-8 text). */
function base64Lines(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  let out = '';
  for (let i = 0; i < encoded.length; i += 76) out += `${encoded.slice(i, i + 76)}\n`;
  return out;
}

/** A text part: us-ascii text as it is (7bit), anything else utf-8 in base64, as MIMEText does. */
function renderPart(part: MimePart): string {
  const ascii = isAscii(part.text);
  const headers = [
    `Content-Type: text/${part.subtype || 'plain'}; charset="${ascii ? 'us-ascii' : 'utf-8'}"`,
    'MIME-Version: 1.0',
    `Content-Transfer-Encoding: ${ascii ? '7bit' : 'base64'}`,
  ];
  if (part.filename) headers.push(`Content-Disposition: attachment; filename=${quoted(part.filename)}`);
  return `${headers.join('\n')}\n\n${ascii ? part.text : base64Lines(part.text)}`;
}

/**
 * Python's boundary shape ("=" × 15, 19 digits, "=="), its digits derived from `seed` rather than
 * random so that a create run again writes the same message; made longer, as Python does, while a
 * part has a line that would end the part early.
 */
function boundaryFor(seed: string, bodies: readonly string[]): string {
  const digest = createHash('sha256').update(`mime:${seed}`).digest();
  const digits = (digest.readBigUInt64BE(0) % 10n ** 19n).toString().padStart(19, '0');
  const base = `===============${digits}==`;
  const lines = new Set(bodies.flatMap((b) => b.split('\n')));
  let boundary = base;
  for (let n = 0; lines.has(`--${boundary}`) || lines.has(`--${boundary}--`); n++) boundary = `${base}.${n}`;
  return boundary;
}

/** The multipart/mixed message of `parts`; `seed` fixes its boundary. */
export function multipartMessage(parts: readonly MimePart[], seed: string): string {
  const bodies = parts.map(renderPart);
  const boundary = boundaryFor(seed, bodies);
  const head = `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\n\n`;
  return `${head}--${boundary}\n${bodies.join(`\n--${boundary}\n`)}\n--${boundary}--\n`;
}

/** Headers (names lower-cased, folded lines joined) and body of a message or part. */
function splitMessage(text: string): { headers: Map<string, string>; body: string } {
  const normal = text.replace(/\r\n/g, '\n');
  const end = normal.indexOf('\n\n');
  const head = end < 0 ? normal : normal.slice(0, end);
  const headers = new Map<string, string>();
  let last: string | undefined;
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && last !== undefined) {
      headers.set(last, `${headers.get(last)!} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    headers.set(last, line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? '' : normal.slice(end + 2) };
}

/** The value and parameters of a header such as `text/x-shellscript; charset="us-ascii"`. */
function parseHeader(value: string | undefined): { value: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  if (value === undefined) return { value: '', params };
  const [first = '', ...rest] = value.split(';');
  for (const m of rest.join(';').matchAll(/([^\s=;]+)\s*=\s*("((?:\\.|[^"\\])*)"|[^;]*)/g)) {
    const raw = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[2]!.trim();
    params.set(m[1]!.toLowerCase(), raw);
  }
  return { value: first.trim().toLowerCase(), params };
}

/**
 * The parts of a multipart message (Heat appends them to its own for a part of type
 * `multipart`), or undefined when `text` is not a multipart message. A base64 part is decoded.
 */
export function parseMultipart(text: string): MimePart[] | undefined {
  const { headers, body } = splitMessage(text);
  const type = parseHeader(headers.get('content-type'));
  const boundary = type.params.get('boundary');
  if (!type.value.startsWith('multipart/') || !boundary) return undefined;
  const parts: MimePart[] = [];
  let current: string[] | undefined;
  for (const line of body.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}` || trimmed === `--${boundary}--`) {
      if (current) parts.push(partOf(current.join('\n')));
      if (trimmed.endsWith('--') && trimmed !== `--${boundary}`) return parts;
      current = [];
    } else current?.push(line);
  }
  return parts;
}

function partOf(text: string): MimePart {
  const { headers, body } = splitMessage(text);
  const type = parseHeader(headers.get('content-type'));
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  const filename = parseHeader(headers.get('content-disposition')).params.get('filename') ?? '';
  return {
    text: encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body,
    subtype: type.value.includes('/') ? type.value.slice(type.value.indexOf('/') + 1) : 'plain',
    filename,
  };
}
