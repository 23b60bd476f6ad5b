import { useEffect, useRef, useState } from 'react';
import { matchPath, NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../session';
import type { PageDef } from '../pages';
import { ErrorNotice } from './feedback';
import { asApiError } from '../lib/hooks';
import type { ApiError } from '../backend/client';

/**
 * The frame of every signed-in page: a skip link, the banner (who is signed in, sign out), the section's navigation
 * built from its page table, and the main landmark whose heading takes the focus on every navigation.
 */
export function Layout({ section, base, pages }: { section: string; base: string; pages: readonly PageDef[] }) {
  const { account, signOut } = useSession();
  const location = useLocation();
  const current = pages.find((p) => matchPath({ path: `${base}/${p.path}`, end: true }, location.pathname) !== null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    document.title = `${current?.title ?? 'Dashboard'} · ${section} · Paycore`;
    heading.current?.focus();
  }, [current, section]);

  const out = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } catch (e) {
      setError(asApiError(e));
      setSigningOut(false);
    }
  };

  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="banner">
        <p className="brand">
          Paycore <span className="muted">· {section}</span>
        </p>
        {account && (
          <div className="who">
            <span>
              <strong>{account.name}</strong> <span className="muted">({account.email})</span>
            </span>
            <button type="button" onClick={() => void out()} disabled={signingOut} aria-busy={signingOut}>
              {signingOut ? 'Signing out…' : 'Sign out'}
            </button>
          </div>
        )}
      </header>
      <nav className="nav" aria-label={`${section} sections`}>
        <ul>
          {pages
            .filter((p) => !p.detail)
            .map((p) => (
              <li key={p.path}>
                <NavLink to={`${base}/${p.path}`}>{p.title}</NavLink>
              </li>
            ))}
        </ul>
      </nav>
      <main id="main" className="main">
        <h1 tabIndex={-1} ref={heading}>
          {current?.title ?? 'Not found'}
        </h1>
        <ErrorNotice error={error} title="Could not sign out" />
        <Outlet />
      </main>
    </div>
  );
}
