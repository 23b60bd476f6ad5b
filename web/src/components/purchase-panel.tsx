import { useEffect, useId, useState } from 'react';
import type { Network, Page, Purchase } from '../backend/api';
import { formatAtomic } from '../lib/usdc';
import { FOLLOW_MS, usePolling, when, type Loaded } from '../lib/hooks';
import { EmptyState, ErrorNotice, Progress } from './feedback';
import { DataTable } from './table-head';

/**
 * A purchase paid in USDC to the platform's wallet, shared by the merchant's plan page and the company's "Buy credits"
 * page (the same purchase on both interfaces: `kind` "plan" or "credits"; docs/proof.md "Plans paid in USDC",
 * docs/processing.md "Credit packs paid in USDC"): what it buys, its payment request, where it stands, the list of
 * purchases, and the following of the one awaiting its payment.
 */

/** "30,000" from the API's decimal string. */
const formatCredits = (credits: string | null): string => (credits === null ? '?' : BigInt(credits).toLocaleString());

/** What a purchase buys, as a sentence fragment: "the business plan", "30,000 credits". */
export const purchaseSubject = (p: Pick<Purchase, 'kind' | 'plan' | 'credits'>): string =>
  p.kind === 'credits' ? `${formatCredits(p.credits)} credits` : `the ${p.plan ?? ''} plan`;

function statusText(p: Purchase): string {
  switch (p.status) {
    case 'awaiting_payment':
      return 'Waiting for your payment. This page follows it and updates by itself once the payment is final on the chain.';
    case 'paid':
      return p.kind === 'credits'
        ? `Paid: ${formatCredits(p.credits)} credits were added to your wallet.`
        : 'Paid: your plan is active.';
    case 'underpaid':
      return 'Less than the amount arrived. Nothing was granted; contact support to settle it (paying the difference does not complete it).';
    case 'review':
      return 'A payment arrived that needs a person (see the reason). Nothing was granted yet; contact support.';
    case 'expired':
      return 'The payment request expired without a payment. Start a new purchase to pay.';
  }
}

/**
 * The purchases of a page in the API's order (by id, not by date), and the one the page follows: `chosen` (just
 * started or picked from the list), else the most recently created of them still awaiting its payment. While it awaits its payment the list is asked
 * again every `FOLLOW_MS`; when it turns paid, `onGranted` runs once (the plan or the credits shown change).
 */
export function useFollowedPurchase(
  purchases: Loaded<Page<Purchase>>,
  chosen: string | null,
  onGranted: () => Promise<void>,
) {
  const list = purchases.data?.data ?? [];
  const newestAwaiting = () =>
    list.filter((p) => p.status === 'awaiting_payment').sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ??
    null;
  const current = list.find((p) => p.id === chosen) ?? (chosen ? null : newestAwaiting());
  const { reload, loading } = purchases;
  usePolling(current?.status === 'awaiting_payment', loading, reload, FOLLOW_MS, FOLLOW_MS);

  const [granted, setGranted] = useState<string | null>(null);
  useEffect(() => {
    if (current?.status === 'paid' && granted !== current.id) {
      setGranted(current.id);
      void onGranted();
    }
  }, [current, granted, onGranted]);
  return { list, current };
}

/** The payment request of a purchase: what to send, where, on which network, until when; and where it stands. */
export function PurchasePanel({ purchase: p }: { purchase: Purchase }) {
  const ids = useId();
  const [copied, setCopied] = useState<string | null>(null);
  /** Still to be paid: only then the page says what to send and offers to copy it. */
  const open = p.status === 'awaiting_payment';
  const copy = async (what: string, value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(what);
    } catch {
      setCopied(null);
    }
  };
  return (
    <section aria-labelledby={`${ids}-pay`} className="card payment">
      <h2 id={`${ids}-pay`}>Payment for {purchaseSubject(p)}</h2>
      <div
        role="status"
        aria-live="polite"
        className={`notice ${p.status === 'paid' ? 'notice-ok' : p.status === 'awaiting_payment' ? 'notice-info' : 'notice-error'}`}
      >
        <p className="notice-title">Status: {p.status.replace('_', ' ')}</p>
        <p>{statusText(p)}</p>
        {p.review_reason && <p>Reason: {p.review_reason}</p>}
        {p.status === 'paid' && p.period_end && (
          <p>
            Paid period: {when(p.period_start)} to {when(p.period_end)}.
          </p>
        )}
      </div>
      {open && <Progress ongoing label="Waiting for the payment to be confirmed…" />}
      <dl className="pay-facts">
        <dt>{open ? 'Amount to send' : 'Amount'}</dt>
        <dd>
          <strong className="amount">{p.amount_usdc} USDC</strong>{' '}
          {open && (
            <>
              <button type="button" onClick={() => void copy('amount', p.amount_usdc)} aria-label="Copy the amount">
                {copied === 'amount' ? 'Copied' : 'Copy'}
              </button>
              <span className="hint">
                Exactly this amount: it is the price ({p.price_usdc} USDC) plus a small matching amount that identifies
                your payment.
              </span>
            </>
          )}
        </dd>
        <dt>To address</dt>
        <dd>
          <code className="wrap">{p.pay_to}</code>{' '}
          {open && (
            <button type="button" onClick={() => void copy('address', p.pay_to)} aria-label="Copy the address">
              {copied === 'address' ? 'Copied' : 'Copy'}
            </button>
          )}
        </dd>
        <dt>Network</dt>
        <dd>{p.network} (native USDC)</dd>
        <dt>From</dt>
        <dd>
          <code className="wrap">{p.payer}</code>
        </dd>
        {open && (
          <>
            <dt>Pay before</dt>
            <dd>{when(p.expires_at)}</dd>
          </>
        )}
        {BigInt(p.received_atomic) > 0n && (
          <>
            <dt>Received</dt>
            <dd>{formatAtomic(p.received_atomic)} USDC</dd>
          </>
        )}
        {p.tx_hash && (
          <>
            <dt>Transaction</dt>
            <dd>
              <code className="wrap">{p.tx_hash}</code>
            </dd>
          </>
        )}
      </dl>
      {open && (
        <p>
          <a href={p.payment_url} target="_blank" rel="noopener noreferrer">
            Open the payment page (QR code for your wallet)
          </a>
        </p>
      )}
    </section>
  );
}

/**
 * The list of purchases in the API's order (by id, not by date; its caption says so), each with a button to show it in the panel. A plan's row says its period; a
 * pack's says when it was paid.
 */
export function PurchaseHistory(props: {
  title: string;
  purchases: Loaded<Page<Purchase>>;
  list: Purchase[];
  current: Purchase | null;
  onShow: (id: string) => void;
  empty: string;
}) {
  const { title, purchases, list, current, onShow, empty } = props;
  const ids = useId();
  const credits = list.some((p) => p.kind === 'credits');
  return (
    <section aria-labelledby={`${ids}-history`}>
      <h2 id={`${ids}-history`}>{title}</h2>
      <ErrorNotice error={purchases.error} title="Could not load your purchases" />
      {purchases.loading && !purchases.data && <Progress label="Loading purchases…" />}
      {purchases.data && list.length === 0 && <EmptyState title="No purchases yet">{empty}</EmptyState>}
      {list.length > 0 && (
        <DataTable
          caption={`${title}, in id order (not by date)`}
          showCaption
          columns={[credits ? 'Pack' : 'Plan', 'Status', 'Amount', credits ? 'Paid' : 'Period', 'Started']}
          actions
        >
          <tbody>
            {list.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  {p.kind === 'credits' ? `${formatCredits(p.credits)} credits` : p.plan}
                  <br />
                  <span className="muted small">{p.id}</span>
                </th>
                <td>
                  <span className={`badge badge-${p.status}`}>{p.status.replace('_', ' ')}</span>
                </td>
                <td>{p.amount_usdc} USDC</td>
                <td>
                  {p.kind === 'credits'
                    ? when(p.paid_at)
                    : p.period_start
                      ? `${when(p.period_start)} – ${when(p.period_end)}`
                      : '—'}
                </td>
                <td>{when(p.created_at)}</td>
                <td>
                  {p.id !== current?.id && (
                    <button type="button" onClick={() => onShow(p.id)} aria-label={`Show purchase ${p.id}`}>
                      Show
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}

/** The network and paying address of a purchase form (`ids` is the form's `useId`). */
export function PaymentFields(props: {
  ids: string;
  networks: Network[];
  network: Network | '';
  onNetwork: (n: Network) => void;
  payer: string;
  onPayer: (p: string) => void;
}) {
  const { ids, networks, network, onNetwork, payer, onPayer } = props;
  return (
    <>
      <div className="field">
        <label htmlFor={`${ids}-network`}>Network</label>
        <select id={`${ids}-network`} value={network} onChange={(e) => onNetwork(e.target.value as Network)}>
          {networks.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-payer`}>Paying from (wallet address)</label>
        <input
          id={`${ids}-payer`}
          value={payer}
          onChange={(e) => onPayer(e.target.value)}
          required
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${ids}-payer-hint`}
        />
        <p id={`${ids}-payer-hint`} className="hint">
          The address you will send the USDC from. A payment from another address is not matched automatically.
        </p>
      </div>
    </>
  );
}
