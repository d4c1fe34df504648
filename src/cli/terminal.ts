/*
 * What the CLI asks of the terminal it writes to: whether to colour (https://no-color.org,
 * FORCE_COLOR) and how wide it is. Plain SGR codes: no dependency, the same on every Node.
 */

/** A stream the CLI writes to; only a terminal has `isTTY` and `columns`. */
export interface OutputStream {
  isTTY?: boolean;
  columns?: number;
}

type Env = Record<string, string | undefined>;

/**
 * Whether text for `stream` may be coloured: `NO_COLOR` set non-empty never, else `FORCE_COLOR`
 * (not 0/false) always, else only a terminal that is not `TERM=dumb`.
 */
export function useColour(stream: OutputStream | undefined, env: Env = process.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream?.isTTY === true && env.TERM !== 'dumb';
}

const STYLES = {
  red: ['\x1b[31m', '\x1b[39m'],
  green: ['\x1b[32m', '\x1b[39m'],
  yellow: ['\x1b[33m', '\x1b[39m'],
  bold: ['\x1b[1m', '\x1b[22m'],
} as const;

export type Style = keyof typeof STYLES;

/** `text` in `style`, unconditionally (the caller decided with useColour). */
export function styled(style: Style, text: string): string {
  const [open, close] = STYLES[style];
  return `${open}${text}${close}`;
}

/** `text` in `style` when `stream` takes colour, else as it is. */
export function paint(stream: OutputStream | undefined, style: Style, text: string): string {
  return useColour(stream) ? styled(style, text) : text;
}

/**
 * The width of the terminal `stream` is: `COLUMNS` when set to a positive number (as Python's
 * shutil reads it), else the terminal's own; undefined when not a terminal (or one of no size,
 * such as a pty nobody sized).
 */
export function terminalWidth(stream: OutputStream | undefined, env: Env = process.env): number | undefined {
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  if (stream?.isTTY === true && stream.columns !== undefined && stream.columns > 0) return stream.columns;
  return undefined;
}
