/**
 * Sign-in form for AUTH=basic: e-mail (or user name) and password, checked against the server
 * before they are kept; Slovenian errors announced to screen readers.
 */
import { useId, useState, type FormEvent } from 'react';
import { slAuth } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { getActiveSession } from '../auth-session';

export function BasicSignInForm({ projectId }: { projectId: number }) {
  const id = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      setError(slAuth.login.missingFields);
      return;
    }
    setBusy(true);
    const result = await getActiveSession()?.signInBasic?.({ username: username.trim(), password }, projectId);
    setBusy(false);
    if (result === 'ok') setPassword('');
    else setError(result === 'rejected' ? slAuth.login.invalidCredentials : slAuth.error.text);
  };

  return (
    <form className="basic-sign-in" onSubmit={(event) => void submit(event)} noValidate>
      <h2>{slAuth.login.heading}</h2>
      {error ? (
        <p className="basic-sign-in__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
      <label htmlFor={`${id}-user`}>{slAuth.login.loginLabel}</label>
      <input
        id={`${id}-user`}
        name="username"
        type="text"
        inputMode="email"
        autoComplete="username"
        autoCapitalize="none"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <label htmlFor={`${id}-password`}>{slAuth.login.passwordLabel}</label>
      <input
        id={`${id}-password`}
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <Button type="submit" text={slAuth.login.submit} disabled={busy} block />
    </form>
  );
}
