import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { MerchantOverview, PaidPlan, Network, Page, PlanInfo, Purchase } from '../../backend/types';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { formatAtomic } from '../../lib/usdc';
import { FOLLOW_MS, useAction, useLoad, usePolling, when } from '../../lib/hooks';
import { useAccount } from '../../session';

/**
 * Plan and usage (`GET /api/integrations`, `GET /plan`) and buying or renewing a plan paid in USDC to the platform's
 * wallet (`POST /plan/purchases`, followed with `GET /plan/purchases/{id}` until it is paid, underpaid, in review or
 * expired). The purchase part works without an active plan or trial: that is when it is needed most.
 */
export function MerchantOverviewPage() {
  const { api } = useAccount('merchant');
  const overview = useLoad(useCallback(() => api.get<MerchantOverview>(''), [api]));
  const plan = useLoad(useCallback(() => api.get<PlanInfo>('/plan'), [api]));
  const e = overview.data?.entitlements;
  const { reload: reloadOverview } = overview;
  const { reload: reloadPlan } = plan;
  const reloadAll = useCallback(async () => {
    await Promise.all([reloadOverview(), reloadPlan()]);
  }, [reloadOverview, reloadPlan]);
  return (
    <>
      <ErrorNotice error={overview.error?.code === 'customer_access_required' ? null : overview.error} title="Could not load your plan" />
      {overview.error?.code === 'customer_access_required' && (
        <div className="notice notice-info">
          <p className="notice-title">You have no active plan or trial</p>
          <p>{overview.error.message}</p>
          <p>Buy a plan below; the other pages work again once its payment is confirmed.</p>
        </div>
      )}
      {overview.loading && !overview.data && <Progress label="Loading your plan…" />}
      {e && (
        <dl className="facts">
          <div>
            <dt>Plan</dt>
            <dd>{e.plan ?? 'none'}</dd>
          </div>
          <div>
            <dt>Ends</dt>
            <dd>{when(e.ends_at)}</dd>
          </div>
          <div>
            <dt>Payment requests this period</dt>
            <dd>
              {e.usage.requests} of {e.requests_per_period ?? 'unlimited'}
            </dd>
          </div>
          <div>
            <dt>Invoices this period</dt>
            <dd>
              {e.usage.invoices} of {e.invoices_per_period ?? 'unlimited'}
            </dd>
          </div>
          <div>
            <dt>Active keys</dt>
            <dd>
              {e.keys.used} of {e.keys.limit}
            </dd>
          </div>
          <div>
            <dt>Webhook destinations</dt>
            <dd>
              {e.destinations.used} of {e.destinations.limit}
            </dd>
          </div>
        </dl>
      )}
      <ErrorNotice error={plan.error} title="Could not load the plans on offer" />
      {plan.data && <BuyPlan info={plan.data} onGranted={reloadAll} />}
    </>
  );
}

const STATUS_TEXT: Record<Purchase['status'], string> = {
  awaiting_payment: 'Waiting for your payment. This page follows it and updates by itself once the payment is final on the chain.',
  paid: 'Paid: your plan is active.',
  underpaid: 'Less than the amount arrived. Nothing was granted; contact support to settle it (paying the difference does not complete it).',
  review: 'A payment arrived that needs a person (see the reason). Nothing was granted yet; contact support.',
  expired: 'The payment request expired without a payment. Start a new purchase to pay.',
};

function BuyPlan({ info, onGranted }: { info: PlanInfo; onGranted: () => Promise<void> }) {
  const { api } = useAccount('merchant');
  const ids = useId();
  const purchases = useLoad(useCallback(() => api.get<Page<Purchase>>('/plan/purchases?limit=10'), [api]));
  const buy = useAction();
  const [choice, setChoice] = useState<PaidPlan>(info.paid_plan ?? 'starter');
  const [network, setNetwork] = useState<Network | ''>(info.purchase_networks[0] ?? '');
  const [payer, setPayer] = useState('');
  const [currentId, setCurrentId] = useState<string | null>(null);

  // The purchase followed: the one just started, else the newest still awaiting its payment.
  // The API pages by id; the page shows its purchases newest first.
  const list = [...(purchases.data?.data ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const current = list.find((p) => p.id === currentId) ?? (currentId ? null : list.find((p) => p.status === 'awaiting_payment') ?? null);
  const awaiting = current?.status === 'awaiting_payment';
  const { reload, loading } = purchases;
  usePolling(awaiting, loading, reload, FOLLOW_MS, FOLLOW_MS);

  // When the followed purchase is paid, the plan and usage above change: load them again once.
  const [granted, setGranted] = useState<string | null>(null);
  useEffect(() => {
    if (current?.status === 'paid' && granted !== current.id) {
      setGranted(current.id);
      void onGranted();
    }
  }, [current, granted, onGranted]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!network) return;
    const started = await buy.run(() => api.post<Purchase>('/plan/purchases', { plan: choice, network, payer: payer.trim() }));
    if (started) {
      setCurrentId(started.id);
      await purchases.reload();
    }
  };

  return (
    <>
      <section aria-labelledby={`${ids}-buy`} className="card">
        <h2 id={`${ids}-buy`}>Buy or renew a plan</h2>
        {info.purchase_networks.length === 0 ? (
          <EmptyState title="Plans cannot be bought here yet">No network is set up to receive plan payments. Ask the platform's support: they can grant a plan.</EmptyState>
        ) : (
          <form className="form" onSubmit={(e) => void submit(e)}>
            <p className="hint">
              A plan runs {info.prices[0]?.period_days ?? 30} days from its payment; a renewal starts where the running period ends, so no day is lost. Paid in USDC.
            </p>
            <div className="field">
              <label htmlFor={`${ids}-plan`}>Plan</label>
              <select id={`${ids}-plan`} value={choice} onChange={(e) => setChoice(e.target.value as PaidPlan)}>
                {info.prices.map((p) => (
                  <option key={p.plan} value={p.plan}>
                    {p.plan}: {p.price_usdc} USDC for {p.period_days} days
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-network`}>Network</label>
              <select id={`${ids}-network`} value={network} onChange={(e) => setNetwork(e.target.value as Network)}>
                {info.purchase_networks.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-payer`}>Paying from (wallet address)</label>
              <input id={`${ids}-payer`} value={payer} onChange={(e) => setPayer(e.target.value)} required autoComplete="off" spellCheck={false} aria-describedby={`${ids}-payer-hint`} />
              <p id={`${ids}-payer-hint`} className="hint">
                The address you will send the USDC from. A payment from another address is not matched automatically.
              </p>
            </div>
            <BusyButton type="submit" className="primary" busy={buy.busy} busyLabel="Starting the purchase…">
              Continue to payment
            </BusyButton>
          </form>
        )}
        <ErrorNotice error={buy.error} title="The purchase was not started" />
      </section>

      {current && <PurchasePanel purchase={current} />}

      <section aria-labelledby={`${ids}-history`}>
        <h2 id={`${ids}-history`}>Your plan purchases</h2>
        <ErrorNotice error={purchases.error} title="Could not load your purchases" />
        {purchases.loading && !purchases.data && <Progress label="Loading purchases…" />}
        {purchases.data && list.length === 0 && <EmptyState title="No purchases yet">Choose a plan above to buy one.</EmptyState>}
        {list.length > 0 && (
          <table>
            <caption className="visually-hidden">Plan purchases, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
                <th scope="col">Period</th>
                <th scope="col">Started</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    {p.plan}
                    <br />
                    <span className="muted small">{p.id}</span>
                  </th>
                  <td>
                    <span className={`badge badge-${p.status}`}>{p.status.replace('_', ' ')}</span>
                  </td>
                  <td>{p.amount_usdc} USDC</td>
                  <td>{p.period_start ? `${when(p.period_start)} – ${when(p.period_end)}` : '—'}</td>
                  <td>{when(p.created_at)}</td>
                  <td>
                    {p.id !== current?.id && (
                      <button type="button" onClick={() => setCurrentId(p.id)} aria-label={`Show purchase ${p.id}`}>
                        Show
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/** The payment request of a purchase: what to send, where, on which network, until when; and where it stands. */
function PurchasePanel({ purchase: p }: { purchase: Purchase }) {
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
      <h2 id={`${ids}-pay`}>
        Payment for the {p.plan} plan
      </h2>
      <div role="status" aria-live="polite" className={`notice ${p.status === 'paid' ? 'notice-ok' : p.status === 'awaiting_payment' ? 'notice-info' : 'notice-error'}`}>
        <p className="notice-title">Status: {p.status.replace('_', ' ')}</p>
        <p>{STATUS_TEXT[p.status]}</p>
        {p.review_reason && <p>Reason: {p.review_reason}</p>}
        {p.status === 'paid' && p.period_end && <p>Paid period: {when(p.period_start)} to {when(p.period_end)}.</p>}
      </div>
      {p.status === 'awaiting_payment' && <Progress ongoing label="Waiting for the payment to be confirmed…" />}
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
                Exactly this amount: it is the price ({p.price_usdc} USDC) plus a small matching amount that identifies your payment.
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
