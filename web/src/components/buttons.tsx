import { useState, type ReactNode } from 'react';

/** A button whose work may take a while: disabled and `aria-busy` while it runs, with the running label. */
export function BusyButton({ busy, busyLabel, children, className, onClick, type = 'button' }: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
  className?: string;
  onClick?: () => void;
  type?: 'button' | 'submit';
}) {
  return (
    <button type={type} className={className} disabled={busy} aria-busy={busy} onClick={onClick}>
      {busy ? busyLabel : children}
    </button>
  );
}

/**
 * A destructive action in two steps, without a modal: the first press asks, the second does it. `label` names the
 * action and its object for screen readers (e.g. "Revoke key ci").
 */
export function ConfirmButton({ label, confirmLabel, busy, onConfirm, children }: {
  label: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="danger-outline" aria-label={label} onClick={() => setAsking(true)} disabled={busy}>
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={`Confirm: ${label}`}>
      <button
        type="button"
        className="danger"
        autoFocus
        disabled={busy}
        aria-busy={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
