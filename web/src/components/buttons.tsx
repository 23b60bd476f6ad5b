import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/** A button whose work may take a while: disabled and `aria-busy` while it runs, with the running label. */
export function BusyButton({
  busy,
  busyLabel,
  children,
  className,
  onClick,
  type = 'button',
}: {
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

/** Ignores a key's auto-repeat (a key held down): only its first press activates a button. */
const firstPressOnly = (e: KeyboardEvent) => {
  if (e.repeat) e.preventDefault();
};

/**
 * A destructive action in two steps, without a modal: the first press asks, the second does it. `label` names the
 * action and its object for screen readers (e.g. "Revoke key ci").
 *
 * When it asks, the focus goes to the safe choice, Cancel, which comes first: a second Enter (or a double click) lands
 * on Cancel, never on the confirming button, and a held Enter presses nothing more (its repeats are ignored). Escape
 * cancels; cancelling gives the focus back to the button that asked.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  busy,
  onConfirm,
  children,
}: {
  label: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (asking || !refocus.current) return;
    refocus.current = false;
    opener.current?.focus();
  }, [asking]);
  const cancel = () => {
    refocus.current = true;
    setAsking(false);
  };

  if (!asking) {
    return (
      <button
        ref={opener}
        type="button"
        className="danger-outline"
        aria-label={label}
        onKeyDown={firstPressOnly}
        onClick={() => setAsking(true)}
        disabled={busy}
      >
        {children}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="group"
      aria-label={`Confirm: ${label}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          cancel();
        } else firstPressOnly(e);
      }}
    >
      <button type="button" autoFocus onClick={cancel}>
        Cancel
      </button>
      <button
        type="button"
        className="danger"
        disabled={busy}
        aria-busy={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>
    </span>
  );
}
