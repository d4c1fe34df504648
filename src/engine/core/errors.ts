/* The errors an operation is refused with, shared by the operations and the nodes they start. */

/** The operation cannot start: bad input or a state that forbids it. */
export class OperationError extends Error {
  override readonly name = 'OperationError';
  constructor(
    message: string,
    readonly code: 'not_found' | 'conflict' | 'invalid',
  ) {
    super(message);
  }
}

/** A new update (or a delete) lost the race for the stack to another one started at the same moment. */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}
