import { projectUrl, type Session, type StackEvent } from './api.js';

export interface Progress {
  stack_status: string;
  stack_status_reason: string;
  updated_time: string;
  counts: { total: number; done: number; inProgress: number; waiting: number; failed: number } | null;
  activity: { running: { name: string; since: number }[]; failed: string[] };
}

export interface WatchHandlers {
  progress(p: Progress): void;
  event(e: StackEvent): void;
  /** The stream is down (and is being reopened), or up again. */
  connected(up: boolean): void;
}

/**
 * Follows a stack's watch stream (Server-Sent Events read through fetch, so that the token goes
 * in the X-Auth-Token header and never in a URL). The server ends each stream after a while; it
 * is reopened after the last event id, so nothing is missed or repeated. Returns the stopper.
 */
export function watchStack(session: Session, path: string, handlers: WatchHandlers): () => void {
  const abort = new AbortController();
  let after: number | undefined;
  let failures = 0;

  async function once(): Promise<void> {
    const q = after === undefined ? '' : `?after=${after}`;
    const res = await fetch(projectUrl(session, `${path}/watch${q}`), {
      headers: { 'x-auth-token': session.token, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`watch: HTTP ${res.status}`);
    handlers.connected(true);
    failures = 0;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  function dispatch(block: string): void {
    let name = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) after = Number(line.slice(4));
      else if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data === '') return;
    if (name === 'progress') handlers.progress(JSON.parse(data) as Progress);
    else if (name === 'event') handlers.event(JSON.parse(data) as StackEvent);
  }

  void (async () => {
    while (!abort.signal.aborted) {
      try {
        await once();
      } catch {
        if (abort.signal.aborted) return;
        handlers.connected(false);
        failures++;
      }
      // Reopened at once after a normal end; after failures, backing off up to 30 s.
      if (failures > 0) await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** failures)));
    }
  })();
  return () => abort.abort();
}
