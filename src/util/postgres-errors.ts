/*
 * What a PostgreSQL error says, for every user of the database: the store's driver and the
 * PostgreSQL reality of the cloud-less types (which may not import the store).
 */

/** The error's SQLSTATE (or Node's network error code), if it has one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The connection is unusable: refused or reset by the network (Node's error codes), the server
 * shutting down or restarting (class 57P), or a connection exception (class 08).
 */
export function isConnectionError(error: unknown): boolean {
  const code = sqlState(error);
  // pg's own: a connection that ended, or one whose error was heard before a statement was sent.
  if (code === undefined)
    return error instanceof Error && /Connection terminated|is not queryable/i.test(error.message);
  return (
    code.startsWith('08') ||
    code.startsWith('57P') ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)
  );
}
