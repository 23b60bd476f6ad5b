import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiClient, type Answer } from '../backend/client';
import type { CompanyPaths, Role } from '../backend/api';
import { BusyButton } from '../components/buttons';
import { ErrorNotice, SuccessNotice } from '../components/feedback';
import { useAction } from '../lib/hooks';

/** The answer of accepting an invitation. */
type Accepted = Answer<CompanyPaths, '/api/company/invitations/accept', 'post'>;

const ROLE_NAMES: Record<Role, string> = { member: 'member', billing_admin: 'billing administrator' };

/** The token of the link in the invitation e-mail (`#token=…`): a fragment, which the browser never sends to a server. */
function tokenOfLink(): string | null {
  const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/**
 * Accepting a company invitation (`POST /api/company/invitations/accept`), reached from the link in the invitation
 * e-mail: the invitee chooses a password, then signs in. Public: no session is needed. The token is read from the
 * link's fragment once and taken out of the address bar, so it does not stay in the browser's history.
 */
export function AcceptInvitationPage() {
  const [token] = useState(tokenOfLink);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [accepted, setAccepted] = useState<Accepted | null>(null);
  const action = useAction();
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const api = useMemo(
    () =>
      new ApiClient<CompanyPaths>({ prefix: '/api/company', idempotencyKeys: false, onSessionEnded: () => undefined }),
    [],
  );

  useEffect(() => {
    document.title = 'Accept an invitation · Paycore';
    heading.current?.focus();
    if (window.location.hash)
      window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== repeat);
    if (!token || password !== repeat) return;
    const done = await action.run(() => api.post('/api/company/invitations/accept', { body: { token, password } }));
    if (done) {
      setPassword('');
      setRepeat('');
      setAccepted(done);
    }
  };

  return (
    <div className="sign-in-shell">
      <main id="main" className="sign-in">
        <h1 tabIndex={-1} ref={heading}>
          Accept an invitation
        </h1>
        {accepted ? (
          <>
            <SuccessNotice>
              You joined {accepted.company.name} as {ROLE_NAMES[accepted.member.role]}. Sign in with{' '}
              {accepted.member.email} and the password you chose.
            </SuccessNotice>
            <p>
              <Link to="/sign-in?as=company">Sign in</Link>
            </p>
          </>
        ) : !token ? (
          <p className="notice notice-error" role="alert">
            This page needs the link from your invitation e-mail. Open the link in that e-mail again, or ask the billing
            administrator who invited you for a new invitation.
          </p>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="form">
            <p>Choose the password you will sign in with: 12 to 256 characters.</p>
            <div className="field">
              <label htmlFor={`${ids}-password`}>Password</label>
              <input
                id={`${ids}-password`}
                type="password"
                autoComplete="new-password"
                minLength={12}
                maxLength={256}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                required
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-repeat`}>Password again</label>
              <input
                id={`${ids}-repeat`}
                type="password"
                autoComplete="new-password"
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
                required
                aria-invalid={mismatch}
                aria-describedby={mismatch ? `${ids}-mismatch` : undefined}
              />
              {mismatch && (
                <p id={`${ids}-mismatch`} className="notice notice-error" role="alert">
                  The two passwords differ.
                </p>
              )}
            </div>
            <BusyButton type="submit" className="primary" busy={action.busy} busyLabel="Joining…">
              Join the company
            </BusyButton>
          </form>
        )}
        <ErrorNotice error={action.error} title="The invitation was not accepted" />
      </main>
    </div>
  );
}
