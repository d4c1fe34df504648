import { useState } from 'preact/hooks';
import { checkSession, type Session } from './api.js';

/**
 * The API's own credentials: a token (`hearth manage token create`, or a Keystone token) and the
 * project it acts in. The token is checked by one read of the project's stacks; it is kept in the
 * tab's session storage only.
 */
export function Login({ onLogin }: { onLogin: (s: Session) => void }) {
  const [token, setToken] = useState('');
  const [project, setProject] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError('');
    const session = { token: token.trim(), project: project.trim() };
    try {
      await checkSession(session);
      onLogin(session);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="login">
      <h1>Hearth console</h1>
      <form onSubmit={submit} aria-describedby="login-error">
        <label>
          Project id
          <input
            name="project"
            value={project}
            required
            autoComplete="username"
            onInput={(e) => setProject(e.currentTarget.value)}
          />
        </label>
        <label>
          Token
          <input
            name="token"
            type="password"
            value={token}
            required
            autoComplete="current-password"
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Log in
        </button>
        <p id="login-error" role="alert" class="error">
          {error}
        </p>
      </form>
    </main>
  );
}
