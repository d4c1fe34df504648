import { useState } from 'preact/hooks';
import { checkSession, passwordLogin, type Session } from './api.js';

/**
 * The API's own credentials: a token (`hearth manage token create`, or a Keystone token) and the
 * project it acts in, or (keystone mode) a user's password, which the server turns into a token.
 * The token is checked by one read of the project's stacks; it is kept in the tab's session
 * storage only.
 */
export function Login({ onLogin }: { onLogin: (s: Session) => void }) {
  const [mode, setMode] = useState<'token' | 'password'>('token');
  const [token, setToken] = useState('');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [domain, setDomain] = useState('Default');
  const [project, setProject] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const session =
        mode === 'token'
          ? { token: token.trim(), project: project.trim() }
          : await passwordLogin({
              user: user.trim(),
              password,
              project: project.trim(),
              domain: domain.trim(),
            });
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
        <fieldset class="mode">
          <legend>Log in with</legend>
          <label class="inline">
            <input type="radio" name="mode" checked={mode === 'token'} onChange={() => setMode('token')} />a
            token
          </label>
          <label class="inline">
            <input
              type="radio"
              name="mode"
              checked={mode === 'password'}
              onChange={() => setMode('password')}
            />
            a Keystone user and password
          </label>
        </fieldset>
        <label>
          {mode === 'token' ? 'Project id' : 'Project name'}
          <input name="project" value={project} required onInput={(e) => setProject(e.currentTarget.value)} />
        </label>
        {mode === 'token' ? (
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
        ) : (
          <>
            <label>
              User
              <input
                name="user"
                value={user}
                required
                autoComplete="username"
                onInput={(e) => setUser(e.currentTarget.value)}
              />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                value={password}
                required
                autoComplete="current-password"
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            </label>
            <label>
              Domain
              <input name="domain" value={domain} onInput={(e) => setDomain(e.currentTarget.value)} />
            </label>
          </>
        )}
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
