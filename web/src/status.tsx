/** The four colours of the console: done, running, failed, not started (also text, for contrast). */
export type Tone = 'complete' | 'progress' | 'failed' | 'waiting';

export function tone(status: string): Tone {
  if (status.endsWith('_FAILED')) return 'failed';
  if (status.endsWith('_IN_PROGRESS')) return 'progress';
  // INIT_COMPLETE: the row exists, the resource does not yet.
  if (status.endsWith('_COMPLETE') && !status.startsWith('INIT_')) return 'complete';
  return 'waiting';
}

export function Badge({ status }: { status: string }) {
  return (
    <span class={`badge ${tone(status)}`} data-status={status}>
      {status}
    </span>
  );
}
