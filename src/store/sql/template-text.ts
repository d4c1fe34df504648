import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type CutOptions, cutText, pieceHash } from '../../util/text-pieces.js';
import type { Dialect, SqlExecutor, SqlValue } from './driver.js';

/*
 * Templates' texts and digests in pieces (util/text-pieces.ts: cuts that an edit moves only near
 * it), each distinct piece stored once per stack tree, deflated, under its hash
 * (`template_chunks`), and counted by the templates that name it (`template_chunk_refs`): a new
 * version of a 100,000-resource template writes the one or two pieces its change touched, a
 * count per piece it shares, and its row (the list of its pieces' hashes).
 *
 * The counts are what makes a piece's removal safe against a concurrent template naming it: both
 * write the count's row, so on PostgreSQL one of the two transactions sees the other's write as a
 * conflict and runs again (REPEATABLE READ), and SQLite runs write transactions one at a time.
 */

/** A text cut: its pieces' hashes in order (the stored list) and each distinct piece. */
export interface PiecedText {
  readonly list: string;
  readonly pieces: ReadonlyMap<string, string>;
}

/**
 * How a template's digests are cut (engine/core/digests-form.ts: a summary line, then a line per
 * resource): the summary alone, and smaller pieces (their digests do not deflate).
 */
export const DIGEST_CUTS: CutOptions = { mask: 255, firstLineAlone: true };

/**
 * Texts shorter than this stay in their row: most templates (a nested stack's, a group's member)
 * are a piece or less, and a piece's count shared by many sibling stacks would be a row every
 * one of their transactions writes (on PostgreSQL, conflicts run them again one by one).
 */
export const PIECED_FROM = 32 * 1024;

/** A text's pieces, or undefined when it stays in its row (short) or there is none. */
export function piecedIfLong(text: string | undefined, options?: CutOptions): PiecedText | undefined {
  return text === undefined || text.length < PIECED_FROM ? undefined : piecesOf(text, options);
}

export function piecesOf(text: string, options?: CutOptions): PiecedText {
  const hashes: string[] = [];
  const pieces = new Map<string, string>();
  for (const piece of cutText(text, options)) {
    const hash = pieceHash(piece);
    hashes.push(hash);
    pieces.set(hash, piece);
  }
  return { list: hashes.join(','), pieces };
}

/** The hashes of a stored list. */
export function listHashes(list: string | null | undefined): string[] {
  return list ? list.split(',') : [];
}

/** Rows per multi-row insert (3 parameters each: far under either backend's limit). */
const ROWS = 500;

/**
 * Counts one more template naming each of `pieces` (distinct: a template counts a piece once),
 * storing those the tree does not hold yet.
 */
export async function retainPieces(
  db: SqlExecutor,
  dialect: Dialect,
  root: string,
  pieces: ReadonlyMap<string, string>,
): Promise<void> {
  if (pieces.size === 0) return;
  const held = await db.all(
    `UPDATE template_chunk_refs SET refs = refs + 1
     WHERE root_stack_id = $1 AND ${dialect.inStrings('hash', '$2')} RETURNING hash`,
    [root, JSON.stringify([...pieces.keys()])],
  );
  const missing = new Set(pieces.keys());
  for (const row of held) missing.delete(row.hash as string);
  const hashes = [...missing];
  for (let at = 0; at < hashes.length; at += ROWS) {
    const batch = hashes.slice(at, at + ROWS);
    const bodies: SqlValue[] = [];
    const counts: SqlValue[] = [];
    for (const hash of batch) {
      const piece = pieces.get(hash)!;
      bodies.push(root, hash, deflateRawSync(Buffer.from(piece, 'utf8')), piece.length);
      counts.push(root, hash, 1);
    }
    const tuples = (n: number) =>
      batch
        .map((_, i) => `(${Array.from({ length: n }, (_, j) => `$${i * n + j + 1}`).join(', ')})`)
        .join(', ');
    // A piece whose count went to zero in this transaction keeps its body until the release's delete.
    await db.run(
      `INSERT INTO template_chunks (root_stack_id, hash, body, chars) VALUES ${tuples(4)}
       ON CONFLICT (root_stack_id, hash) DO NOTHING`,
      bodies,
    );
    await db.run(
      `INSERT INTO template_chunk_refs (root_stack_id, hash, refs) VALUES ${tuples(3)}
       ON CONFLICT (root_stack_id, hash) DO UPDATE SET refs = template_chunk_refs.refs + 1`,
      counts,
    );
  }
}

/** Counts one template fewer naming each of `hashes` (distinct); pieces no template names go. */
export async function releasePieces(
  db: SqlExecutor,
  dialect: Dialect,
  root: string,
  hashes: readonly string[],
): Promise<void> {
  if (hashes.length === 0) return;
  const list = JSON.stringify(hashes);
  await db.run(
    `UPDATE template_chunk_refs SET refs = refs - 1
     WHERE root_stack_id = $1 AND ${dialect.inStrings('hash', '$2')}`,
    [root, list],
  );
  const gone = await db.all(
    `DELETE FROM template_chunk_refs
     WHERE root_stack_id = $1 AND ${dialect.inStrings('hash', '$2')} AND refs <= 0 RETURNING hash`,
    [root, list],
  );
  if (gone.length === 0) return;
  await db.run(
    `DELETE FROM template_chunks WHERE root_stack_id = $1 AND ${dialect.inStrings('hash', '$2')}`,
    [root, JSON.stringify(gone.map((r) => r.hash as string))],
  );
}

/**
 * Pieces read lately, by hash (a hash names one text whatever the tree): the next version of a
 * template, or the same one read again, fetches and inflates only the pieces not among them.
 * Least recently used first out, bounded in characters.
 */
const recent = new Map<string, string>();
let recentChars = 0;
const RECENT_CHARS = 32 * 1024 * 1024;

function remember(hash: string, text: string): void {
  if (recent.delete(hash)) recentChars -= text.length;
  if (text.length > RECENT_CHARS / 8) return;
  recent.set(hash, text);
  recentChars += text.length;
  for (const [oldest, old] of recent) {
    if (recentChars <= RECENT_CHARS) break;
    recent.delete(oldest);
    recentChars -= old.length;
  }
}

/** The text a stored list names, its pieces read and inflated (or read lately). */
export async function readPieces(
  db: SqlExecutor,
  dialect: Dialect,
  root: string,
  list: string,
): Promise<string> {
  const hashes = listHashes(list);
  if (hashes.length === 0) return '';
  const texts = new Map<string, string>();
  const wanted: string[] = [];
  for (const hash of new Set(hashes)) {
    const text = recent.get(hash);
    if (text === undefined) wanted.push(hash);
    else texts.set(hash, text);
  }
  if (wanted.length > 0) {
    const rows = await db.all(
      `SELECT hash, body FROM template_chunks WHERE root_stack_id = $1 AND ${dialect.inStrings('hash', '$2')}`,
      [root, JSON.stringify(wanted)],
    );
    for (const row of rows)
      texts.set(row.hash as string, inflateRawSync(row.body as Uint8Array).toString('utf8'));
  }
  for (const [hash, text] of texts) remember(hash, text);
  return hashes
    .map((hash) => {
      const text = texts.get(hash);
      if (text === undefined) throw new Error(`a template's piece ${hash} is missing from the store`);
      return text;
    })
    .join('');
}

/** The distinct hashes of a template's two lists. */
export function distinctHashes(
  textList: string | null | undefined,
  digestList: string | null | undefined,
): string[] {
  return [...new Set([...listHashes(textList), ...listHashes(digestList)])];
}

/** Schema 26: every long template text and digests moved into pieces, one row in memory at a time. */
export async function moveTemplateTexts(db: SqlExecutor, dialect: Dialect): Promise<void> {
  const ids = await db.all('SELECT id FROM templates WHERE text_chunks IS NULL ORDER BY id');
  for (const { id } of ids) {
    const [row] = await db.all('SELECT root_stack_id, template, digests FROM templates WHERE id = $1', [
      id as string,
    ]);
    if (!row) continue;
    const root = (row.root_stack_id as string | null) ?? '';
    const text = piecedIfLong(row.template as string);
    const digests = piecedIfLong((row.digests as string | null) ?? undefined, DIGEST_CUTS);
    if (!text && !digests) continue;
    await retainPieces(db, dialect, root, new Map([...(text?.pieces ?? []), ...(digests?.pieces ?? [])]));
    await db.run(
      `UPDATE templates SET template = ${text ? "''" : 'template'}, digests = ${digests ? 'NULL' : 'digests'},
       text_chunks = $2, digest_chunks = $3 WHERE id = $1`,
      [id as string, text?.list ?? null, digests?.list ?? null],
    );
  }
}
