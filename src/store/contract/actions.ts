/* What a stack or a resource is doing, and how that went: Heat's actions and statuses. */

export type StackAction =
  | 'INIT'
  | 'CREATE'
  | 'UPDATE'
  | 'DELETE'
  | 'ROLLBACK'
  | 'CHECK'
  | 'SUSPEND'
  | 'RESUME'
  | 'ADOPT'
  | 'SNAPSHOT';
export type Status = 'IN_PROGRESS' | 'COMPLETE' | 'FAILED';
export type ResourceAction = StackAction;
