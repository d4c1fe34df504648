/** The four colours of the console: done, running, failed, not started (also text, for contrast). */
export type Tone = 'complete' | 'progress' | 'failed' | 'waiting';

export function tone(status: string): Tone {
  if (status.endsWith('_FAILED')) return 'failed';
  if (status.endsWith('_IN_PROGRESS')) return 'progress';
  if (status.endsWith('_COMPLETE')) return 'complete';
  return 'waiting';
}

export function Badge({ status }: { status: string }) {
  return (
    <span class={`badge ${tone(status)}`} data-status={status}>
      {status}
    </span>
  );
}
