// Signing in, accepting an invitation (the operator's one-time link: choose a password, then signed in) and
// setting a new password from an operator-issued reset link.
import { useState } from 'preact/hooks';
import { ApiError, consoleApi } from '../api.js';
import { Field, ErrorNotice, LoadState, useLoad } from '../components/ui.js';
import { AccountChoice, Session, signIn } from '../session.js';

export function SignInPage({ onSignedIn }: { onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  // Several accounts have a user with this email and password: the person picks one.
  const [choice, setChoice] = useState<AccountChoice | null>(null);
  const attempt = async (accountId?: string) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await signIn(email, password, accountId);
      if ('accounts' in answer) setChoice(answer);
      else onSignedIn(answer);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void attempt();
  };
  if (choice)
    return (
      <main class="sign-in" id="main">
        <h1>Choose an account</h1>
        <div class="card">
          <ErrorNotice error={error} />
          <p>{email} is a user of these accounts:</p>
          <ul class="account-choice">
            {choice.accounts.map((a) => (
              <li key={a.id}>
                <button type="button" disabled={busy} onClick={() => void attempt(a.id)}>
                  {a.name}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setChoice(null);
              setPassword('');
            }}
          >
            Back
          </button>
        </div>
      </main>
    );
  return (
    <main class="sign-in" id="main">
      <h1>Sign in to the console</h1>
      <form class="card" onSubmit={submit}>
        <ErrorNotice error={error} />
        <Field label="Email" name="email" error={error}>
          {(p) => (
            <input
              {...p}
              type="email"
              autoComplete="username"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Password" name="password" error={error}>
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

interface TokenInfo {
  email: string;
  name?: string;
  role?: string;
  account?: { id: string; name: string };
}

/** `kind` 'invitations' or 'password-resets': the same page, the link's token in the path. */
export function TokenPasswordPage({
  kind,
  token,
  onSignedIn,
}: {
  kind: 'invitations' | 'password-resets';
  token: string;
  onSignedIn: (s: Session) => void;
}) {
  const info = useLoad(
    () => consoleApi.get<TokenInfo>(`/${kind}/${encodeURIComponent(token)}`),
    [kind, token],
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (password !== confirm) {
      setError(
        new ApiError(400, 'VALIDATION_ERROR', 'The passwords differ', [
          { field: 'confirm', message: 'must equal the password' },
        ]),
      );
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await consoleApi.post<Session>(`/${kind}/${encodeURIComponent(token)}`, { password }));
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in" id="main">
      <h1>{kind === 'invitations' ? 'Join your team' : 'Choose a new password'}</h1>
      <LoadState loaded={info}>
        {(i) => (
          <form class="card" onSubmit={submit}>
            <p>
              {i.account ? (
                <>
                  <strong>{i.account.name}</strong> —{' '}
                </>
              ) : null}
              {i.email}
              {i.role ? <span class="badge"> {i.role}</span> : null}
            </p>
            <ErrorNotice error={error} />
            <Field label="Password" name="password" error={error} hint="12 to 128 characters">
              {(p) => (
                <input
                  {...p}
                  type="password"
                  autoComplete="new-password"
                  required
                  minLength={12}
                  maxLength={128}
                  value={password}
                  onInput={(e) => setPassword(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label="Password again" name="confirm" error={error}>
              {(p) => (
                <input
                  {...p}
                  type="password"
                  autoComplete="new-password"
                  required
                  value={confirm}
                  onInput={(e) => setConfirm(e.currentTarget.value)}
                />
              )}
            </Field>
            <button type="submit" disabled={busy}>
              {kind === 'invitations' ? 'Set password and sign in' : 'Save password and sign in'}
            </button>
          </form>
        )}
      </LoadState>
    </main>
  );
}
