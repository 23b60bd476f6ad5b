import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { BusyButton } from '../components/buttons';
import { ErrorNotice } from '../components/feedback';
import { useAction } from '../lib/hooks';
import { useSession, type AccountKind } from '../session';
import { homeOf } from '../pages';

/** Sign-in for both kinds of account: a /proof merchant's user or a /v1 company's member. */
export function SignInPage() {
  const { signIn, notice } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [kind, setKind] = useState<AccountKind>(params.get('as') === 'merchant' ? 'merchant' : 'company');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Paycore';
    heading.current?.focus();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const account = await action.run(() => signIn(kind, email.trim(), password));
    if (account) {
      setPassword('');
      const next = params.get('next');
      navigate(next && next.startsWith(`/${account.kind}/`) ? next : homeOf(account), { replace: true });
    }
  };

  return (
    <div className="sign-in-shell">
      <main id="main" className="sign-in">
        <h1 tabIndex={-1} ref={heading}>
          Sign in to Paycore
        </h1>
        {notice && (
          <p className="notice notice-info" role="status">
            {notice}
          </p>
        )}
        <form onSubmit={(e) => void submit(e)} className="form">
          <fieldset className="field">
            <legend>Account</legend>
            <label className="check">
              <input
                type="radio"
                name="kind"
                value="company"
                checked={kind === 'company'}
                onChange={() => setKind('company')}
              />{' '}
              Company (processing API, /v1)
            </label>
            <label className="check">
              <input
                type="radio"
                name="kind"
                value="merchant"
                checked={kind === 'merchant'}
                onChange={() => setKind('merchant')}
              />{' '}
              Merchant (payment requests, /proof)
            </label>
          </fieldset>
          <div className="field">
            <label htmlFor={`${ids}-email`}>E-mail address</label>
            <input
              id={`${ids}-email`}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-password`}>Password</label>
            <input
              id={`${ids}-password`}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </div>
          <BusyButton type="submit" className="primary" busy={action.busy} busyLabel="Signing in…">
            Sign in
          </BusyButton>
        </form>
        <ErrorNotice error={action.error} title="Could not sign in" />
        <p className="hint">
          No account yet? An operator creates merchant users; a company&rsquo;s billing administrator invites members.
        </p>
      </main>
    </div>
  );
}
