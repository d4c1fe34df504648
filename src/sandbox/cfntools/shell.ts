/**
 * Just enough of the shell to read a UserData script without running it: the forms the corpus uses
 * around heat-cfntools calls. Line continuations, comments, here-documents (skipped), functions
 * (`function name`, `name()`, a `{ ... }` body), and lists joined by `||`, `&&`, `;` and `|`. Words
 * keep their quoting until expansion, so `$?` and `$1` expand when the statement runs.
 */

/** One simple command: its raw words (quotes kept) and how it joins the next. */
export interface Command {
  words: string[];
  /** How the next command of the same list runs: after `||`, `&&`, `;` or `|`. */
  then: '||' | '&&' | ';' | '|' | null;
}

export type Statement =
  | { kind: 'list'; commands: Command[]; line: number }
  | { kind: 'function'; name: string; body: Statement[]; line: number };

/** Splits a line into words and operators, quotes kept in the words; a `#` word ends it. */
function lex(line: string): string[] {
  const tokens: string[] = [];
  let word = '';
  let inWord = false;
  const flush = () => {
    if (inWord) tokens.push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end < 0 ? line.length : end;
      word += line.slice(i, stop + 1);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      word += line.slice(i, j + 1);
      inWord = true;
      i = j;
    } else if (c === '\\') {
      word += line.slice(i, i + 2);
      inWord = true;
      i++;
    } else if (c === ' ' || c === '\t') {
      flush();
    } else if (c === '#' && !inWord) {
      break;
    } else if ('|&;'.includes(c)) {
      flush();
      const two = line.slice(i, i + 2);
      if (two === '||' || two === '&&') {
        tokens.push(two);
        i++;
      } else if (c === '&') {
        tokens.push(';'); // a background job: the script goes on at once
      } else tokens.push(c);
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

const OPERATORS = new Set(['||', '&&', ';', '|']);

function commandsOf(tokens: string[]): Command[] {
  const commands: Command[] = [];
  let words: string[] = [];
  for (const token of tokens) {
    if (OPERATORS.has(token)) {
      if (words.length > 0) commands.push({ words, then: token as Command['then'] });
      words = [];
    } else words.push(token);
  }
  if (words.length > 0) commands.push({ words, then: null });
  return commands;
}

/** The here-document terminators a line opens (`<<EOF`, `<< 'EOF'`, `<<-"EOF"`). */
function hereDocs(line: string): { word: string; strip: boolean }[] {
  const found: { word: string; strip: boolean }[] = [];
  for (const m of line.matchAll(/<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/g)) {
    found.push({ word: m[3]!, strip: m[1] === '-' });
  }
  return found;
}

interface Line {
  text: string;
  number: number;
}

/** Lines with continuations joined and here-document bodies dropped. */
function logicalLines(script: string): Line[] {
  const raw = script.replace(/\r\n/g, '\n').split('\n');
  const lines: Line[] = [];
  for (let i = 0; i < raw.length; i++) {
    const number = i + 1;
    let text = raw[i]!;
    while (/(^|[^\\])(\\\\)*\\$/.test(text) && i + 1 < raw.length) text = text.slice(0, -1) + raw[++i]!;
    lines.push({ text, number });
    for (const doc of hereDocs(text)) {
      while (i + 1 < raw.length) {
        const body = raw[++i]!;
        if ((doc.strip ? body.replace(/^\t+/, '') : body) === doc.word) break;
      }
    }
  }
  return lines;
}

/** Control words the interpreter reads past: the commands inside run in order, unconditionally. */
const CONTROL = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', '!']);

function dropControl(words: string[]): string[] {
  let i = 0;
  while (i < words.length && CONTROL.has(words[i]!)) i++;
  if (words[0] === 'for') return []; // `for x in ...`: the loop header itself runs nothing
  return words.slice(i);
}

/** The script's statements in order; a function's body is kept for its calls. */
export function parseScript(script: string): Statement[] {
  const lines = logicalLines(script);
  let at = 0;
  const block = (inFunction: boolean): Statement[] => {
    const statements: Statement[] = [];
    while (at < lines.length) {
      const { text, number } = lines[at++]!;
      const tokens = lex(text);
      if (tokens.length === 0) continue;
      if (inFunction && tokens[0] === '}') return statements;
      const header = functionHeader(tokens);
      if (header?.inline) {
        // `name() { cmd; cmd; }` on one line.
        const commands = commandsOf(header.inline).map((c) => ({ ...c, words: dropControl(c.words) }));
        const body: Statement[] = [
          { kind: 'list', commands: commands.filter((c) => c.words.length > 0), line: number },
        ];
        statements.push({ kind: 'function', name: header.name, body, line: number });
        continue;
      }
      if (header) {
        // `{` on the header line or the next one.
        if (!header.opened) {
          while (at < lines.length && lex(lines[at]!.text).length === 0) at++;
          if (lex(lines[at]?.text ?? '')[0] === '{') at++;
        }
        statements.push({ kind: 'function', name: header.name, body: block(true), line: number });
        continue;
      }
      const commands = commandsOf(tokens)
        .map((c) => ({ ...c, words: dropControl(c.words) }))
        .filter((c) => c.words.length > 0);
      if (commands.length > 0) statements.push({ kind: 'list', commands, line: number });
    }
    return statements;
  };
  return block(false);
}

function functionHeader(tokens: string[]): { name: string; opened: boolean; inline?: string[] } | undefined {
  let rest: string[];
  let name: string;
  if (tokens[0] === 'function' && tokens[1] !== undefined) {
    name = tokens[1].replace(/\(\)$/, '');
    rest = tokens.slice(2);
    if (rest[0] === '()') rest = rest.slice(1);
  } else if (tokens[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*\(\)$/.test(tokens[0])) {
    name = tokens[0].slice(0, -2);
    rest = tokens.slice(1);
  } else if (tokens[1] === '()' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(tokens[0] ?? '')) {
    name = tokens[0]!;
    rest = tokens.slice(2);
  } else return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) return undefined;
  if (rest[0] === '{' && rest.length > 1 && rest[rest.length - 1] === '}') {
    return { name, opened: true, inline: rest.slice(1, -1) };
  }
  return { name, opened: rest[0] === '{' };
}

/**
 * A word as the shell expands it: quotes removed, `$?`, `$N`, `$NAME`, `${NAME}` replaced from
 * `vars` (unknown: empty), nothing expanded inside single quotes.
 */
export function expandWord(word: string, vars: (name: string) => string | undefined): string {
  let out = '';
  const dollar = (text: string, i: number): [string, number] => {
    const rest = text.slice(i + 1);
    const m = /^(?:\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@*])\}|([?#@*0-9])|([A-Za-z_][A-Za-z0-9_]*))/.exec(
      rest,
    );
    if (!m) return ['$', i + 1];
    const name = m[1] ?? m[2] ?? m[3]!;
    return [vars(name) ?? '', i + 1 + m[0].length];
  };
  for (let i = 0; i < word.length;) {
    const c = word[i]!;
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      const stop = end < 0 ? word.length : end;
      out += word.slice(i + 1, stop);
      i = stop + 1;
    } else if (c === '"') {
      i++;
      while (i < word.length && word[i] !== '"') {
        if (word[i] === '\\' && '"\\$`'.includes(word[i + 1] ?? '')) {
          out += word[i + 1];
          i += 2;
        } else if (word[i] === '$') {
          const [value, next] = dollar(word, i);
          out += value;
          i = next;
        } else out += word[i++];
      }
      i++;
    } else if (c === '\\') {
      out += word[i + 1] ?? '';
      i += 2;
    } else if (c === '$') {
      const [value, next] = dollar(word, i);
      out += value;
      i = next;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
