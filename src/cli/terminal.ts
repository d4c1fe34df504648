/* What the CLI asks of the terminal it writes to: whether to colour, how wide it is. */

/** The part of a stream these helpers read (process.stdout and process.stderr are such streams). */
export interface TerminalStream {
  isTTY?: boolean;
  columns?: number;
}

/**
 * Whether to colour what goes to `stream`: never when NO_COLOR is set and non-empty
 * (https://no-color.org), always when FORCE_COLOR is set to anything but 0 or false, else only on
 * a terminal.
 */
export function useColour(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force !== 'false') return true;
  return stream.isTTY === true;
}

/** The stream's width in columns (80 when it does not tell, as when it is not a terminal). */
export function terminalWidth(stream: TerminalStream): number {
  const columns = stream.columns;
  return columns !== undefined && columns > 0 ? columns : 80;
}
