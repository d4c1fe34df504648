/*
 * Fitting a text table into a width, as python-cliff's `--max-width`/`--fit-width` do: the
 * narrow columns keep their width, the wide ones share what is left, and their cells wrap.
 */

/** The width a table's lines take: `| a | b |` is 1 + (width + 3) per column. */
export function tableWidth(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + w + 3, 1);
}

/**
 * Content widths for columns of `natural` widths so the table fits `maxWidth`: columns narrower
 * than a fair share keep their width, the others share the rest; none shrinks below `minWidth`
 * (nor grows), so a terminal too narrow for that gets a table wider than itself, as cliff's.
 */
export function fitWidths(natural: readonly number[], maxWidth: number, minWidth: number): number[] {
  if (natural.length === 0 || tableWidth(natural) <= maxWidth) return [...natural];
  let budget = Math.max(0, maxWidth - tableWidth(natural.map(() => 0)));
  const widths = [...natural];
  // Narrowest first: each column that fits its fair share of what is left keeps its width.
  const order = natural.map((_, i) => i).sort((a, b) => natural[a]! - natural[b]!);
  for (let k = 0; k < order.length; k++) {
    const left = order.length - k;
    const share = Math.floor(budget / left);
    const i = order[k]!;
    if (natural[i]! <= share) {
      budget -= natural[i]!;
      continue;
    }
    // This one and every wider one shrink: equal shares, the remainder to the last.
    const wider = order.slice(k);
    wider.forEach((j, n) => {
      const width = n === wider.length - 1 ? budget - share * (wider.length - 1) : share;
      widths[j] = Math.min(natural[j]!, Math.max(minWidth, width));
    });
    break;
  }
  return widths;
}

/** Where a word may break when it does not fit: after one of these (JSON, names, ids, times). */
const BREAK_AFTER = /[,;:_/.-]/g;

/**
 * A cell's text as lines of at most `width` characters: broken at the last space (dropped) that
 * fits, else after the last punctuation that does (`,` of JSON, `_` of a status, `-` of an id),
 * else cut.
 */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    let rest = line;
    while (rest.length > width && width > 0) {
      const space = rest.lastIndexOf(' ', width);
      if (space > 0) {
        out.push(rest.slice(0, space).trimEnd());
        rest = rest.slice(space + 1);
        continue;
      }
      const breaks = [...rest.slice(0, width).matchAll(BREAK_AFTER)];
      const cut = (breaks.at(-1)?.index ?? width - 1) + 1;
      out.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    out.push(rest);
  }
  return out;
}
