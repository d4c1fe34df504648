/**
 * A Heat API answer other than success: the message is the body's `error.message` (Heat's error
 * body), or the status line when the server sent something else.
 */
export class HeatApiError extends Error {
  override readonly name = 'HeatApiError';
  constructor(
    readonly status: number,
    /** Heat's fault type (`EntityNotFound`, `HTTPNotFound` for a route the server lacks...). */
    readonly type: string,
    message: string,
  ) {
    super(message);
  }

  /** The server has no such route (as opposed to a stack or resource that does not exist). */
  get noRoute(): boolean {
    return this.status === 404 && this.type === 'HTTPNotFound';
  }
}

/** The server could not be reached (refused, DNS, TLS): no HTTP answer at all. */
export class HeatConnectionError extends Error {
  override readonly name = 'HeatConnectionError';
}

interface HeatErrorShape {
  error?: { message?: unknown; type?: unknown };
}

/** The error a failed response stands for, from its body text (Heat's error body when it is one). */
export function responseError(status: number, statusText: string, text: string): HeatApiError {
  let parsed: HeatErrorShape | undefined;
  try {
    parsed = JSON.parse(text) as HeatErrorShape;
  } catch {
    parsed = undefined;
  }
  const error = parsed?.error;
  if (error && typeof error.message === 'string') {
    return new HeatApiError(status, typeof error.type === 'string' ? error.type : 'Error', error.message);
  }
  const snippet = text.trim().slice(0, 200);
  return new HeatApiError(status, 'Error', `HTTP ${status} ${statusText}${snippet ? `: ${snippet}` : ''}`);
}
