import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Session, saveSession, savedSession } from './api.js';
import { Login } from './login.js';
import { StackPage } from './stack.js';
import { StacksList } from './stacks.js';
import './style.css';

/** `#/stacks/<name>/<id>[/resources/<name>]`, or the list. */
function parseRoute(hash: string): { stack?: { name: string; id: string }; resource?: string } {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'stacks' && parts[1] && parts[2]) {
    return {
      stack: { name: parts[1], id: parts[2] },
      ...(parts[3] === 'resources' && parts[4] ? { resource: parts[4] } : {}),
    };
  }
  return {};
}

function App() {
  const [session, setSession] = useState<Session | undefined>(savedSession());
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);

  const login = (s: Session | undefined) => {
    saveSession(s);
    setSession(s);
    if (!s) location.hash = '';
  };
  if (!session) return <Login onLogin={login} />;
  const route = parseRoute(hash);
  return (
    <>
      <header class="top">
        <a href="#/" class="brand">
          Hearth
        </a>
        <span class="who">
          project <strong data-testid="project">{session.project}</strong>
        </span>
        <button type="button" onClick={() => login(undefined)}>
          Log out
        </button>
      </header>
      <main>
        {route.stack ? (
          <StackPage
            key={route.stack.id}
            session={session}
            name={route.stack.name}
            id={route.stack.id}
            {...(route.resource ? { resource: route.resource } : {})}
          />
        ) : (
          <StacksList session={session} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
