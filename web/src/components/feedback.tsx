import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApiError } from '../backend/client';

/** An error as the API worded it, with its code and request id for support. Announced to screen readers. */
export function ErrorNotice({ error, title = 'That did not work' }: { error: ApiError | null; title?: string }) {
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{title}</p>
      <p>{error.message}</p>
      {error.issues.length > 0 && (
        <ul>
          {error.issues.map((issue, i) => (
            <li key={i}>{issue.message ?? issue.path}</li>
          ))}
        </ul>
      )}
      <p className="muted small">
        {error.code}
        {error.requestId ? ` · request ${error.requestId}` : ''}
      </p>
    </div>
  );
}

/**
 * A load or an action under way: a live region, so assistive technology hears it too. `ongoing`: work on the server
 * the page follows (e.g. deliveries being retried) rather than the page's own load.
 */
export function Progress({ label, ongoing = false }: { label: string; ongoing?: boolean }) {
  return (
    <p className={ongoing ? 'progress ongoing' : 'progress'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** What an empty list means, and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="muted">{children}</div>}
    </div>
  );
}

/** A success message, announced politely. */
export function SuccessNotice({ children }: { children: ReactNode }) {
  return (
    <div className="notice notice-ok" role="status">
      {children}
    </div>
  );
}

/**
 * A secret the API shows once (an API key, a webhook signing secret, an invitation token): in a read-only field
 * to select or copy, with the warning that it will not be shown again. Focus moves to it when it appears.
 */
export function SecretOnce({
  title,
  secret,
  what,
  onDone,
}: {
  title: string;
  secret: string;
  what: string;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => heading.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className="secret" aria-labelledby="secret-title">
      <h2 id="secret-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      <p>
        Copy {what} now and keep it somewhere safe: <strong>it is shown only this once</strong>. If you lose it, make a
        new one.
      </p>
      <label htmlFor="secret-value">{what[0]!.toUpperCase() + what.slice(1)}</label>
      <div className="secret-row">
        <input
          id="secret-value"
          className="secret-value"
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" className="primary" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
