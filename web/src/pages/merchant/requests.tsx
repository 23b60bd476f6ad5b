import { useCallback, useId, useState, type FormEvent } from 'react';
import { REQUEST_STATUSES, type PaymentRequest, type RequestStatus } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { shortAddress, useAction, useLoad, usePagedList, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

/** Payment requests: `GET /requests?status=` (a filter by the status a request reads as now), `POST /requests`, `GET /requests/{id}`. */
export function MerchantRequestsPage() {
  const { api } = useAccount('merchant');
  const ids = useId();
  const [status, setStatus] = useState<RequestStatus | ''>('');
  // The list is loaded afresh when the filter changes or a request was created (a new key remounts it).
  const [version, setVersion] = useState(0);
  const wallets = useLoad(useCallback(() => api.get('/api/integrations/wallets'), [api]));
  const create = useAction();
  const [created, setCreated] = useState<PaymentRequest | null>(null);

  const [walletId, setWalletId] = useState('');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [customer, setCustomer] = useState('');
  const [payer, setPayer] = useState('');
  const [hours, setHours] = useState('');

  const walletList = wallets.data?.data ?? [];
  const chosenWallet = walletId || walletList[0]?.id || '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setCreated(null);
    const body = {
      wallet_id: chosenWallet,
      amount_usdc: amount.trim(),
      description: description.trim(),
      ...(customer.trim() ? { customer_label: customer.trim() } : {}),
      ...(payer.trim() ? { expected_payer: payer.trim() } : {}),
      ...(hours.trim() ? { valid_hours: Number(hours) } : {}),
    };
    const got = await create.run(() => api.post('/api/integrations/requests', { body: body }));
    if (got) {
      setCreated(got);
      setAmount('');
      setDescription('');
      setCustomer('');
      setPayer('');
      setHours('');
      setVersion((v) => v + 1);
    }
  };

  return (
    <>
      <section aria-labelledby={`${ids}-new`} className="card">
        <h2 id={`${ids}-new`}>Ask for a payment</h2>
        {wallets.data && walletList.length === 0 ? (
          <EmptyState title="Add a receiving wallet first">
            Payments go to one of your verified wallets. Add and verify one on the Wallets page.
          </EmptyState>
        ) : (
          <form className="form" onSubmit={(e) => void submit(e)}>
            <div className="field">
              <label htmlFor={`${ids}-wallet`}>Receiving wallet</label>
              <select id={`${ids}-wallet`} value={chosenWallet} onChange={(e) => setWalletId(e.target.value)}>
                {walletList.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.label ? `${w.label}: ` : ''}
                    {shortAddress(w.address)} ({w.network})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-amount`}>Amount (USDC)</label>
              <input
                id={`${ids}-amount`}
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                required
                autoComplete="off"
                placeholder="12.50"
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-description`}>Description</label>
              <input
                id={`${ids}-description`}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
                required
                minLength={3}
                maxLength={350}
                autoComplete="off"
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-customer`}>Customer (optional)</label>
              <input
                id={`${ids}-customer`}
                value={customer}
                onChange={(e) => setCustomer(e.target.value)}
                maxLength={120}
                autoComplete="off"
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-payer`}>Expected payer address (optional)</label>
              <input
                id={`${ids}-payer`}
                value={payer}
                onChange={(e) => setPayer(e.target.value)}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={`${ids}-payer-hint`}
              />
              <p id={`${ids}-payer-hint`} className="hint">
                A payment from any other address then goes to review instead of being confirmed.
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-hours`}>Valid for (hours, optional)</label>
              <input
                id={`${ids}-hours`}
                type="number"
                min={1}
                max={720}
                value={hours}
                onChange={(e) => setHours(e.target.value)}
                aria-describedby={`${ids}-hours-hint`}
              />
              <p id={`${ids}-hours-hint`} className="hint">
                72 by default.
              </p>
            </div>
            <BusyButton type="submit" className="primary" busy={create.busy} busyLabel="Creating the request…">
              Create payment request
            </BusyButton>
          </form>
        )}
        <ErrorNotice error={create.error} title="The payment request was not created" />
        <ErrorNotice error={wallets.error} title="Could not load your wallets" />
      </section>
      {created && (
        <SuccessNotice>
          Payment request {created.id} is ready: ask for exactly {created.amount_usdc} USDC on {created.network}.{' '}
          <a href={created.url} target="_blank" rel="noopener noreferrer">
            Its payment page
          </a>{' '}
          is the link to send your customer.
        </SuccessNotice>
      )}

      <section aria-labelledby={`${ids}-list`}>
        <h2 id={`${ids}-list`}>Payment requests</h2>
        <div className="field filter">
          <label htmlFor={`${ids}-status`}>Show</label>
          <select id={`${ids}-status`} value={status} onChange={(e) => setStatus(e.target.value as RequestStatus | '')}>
            <option value="">All statuses</option>
            {REQUEST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <RequestList key={`${status}:${version}`} status={status} />
      </section>
    </>
  );
}

/** One filter's list in the API's order (by id, not by date), more pages on demand. */
function RequestList({ status }: { status: RequestStatus | '' }) {
  const { api } = useAccount('merchant');
  const { first, more, rows, cursor, loadMore } = usePagedList(
    useCallback(
      (before: string | null) =>
        api.get('/api/integrations/requests', {
          query: { limit: 25, status: status || undefined, before: before ?? undefined },
        }),
      [api, status],
    ),
  );
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <ErrorNotice error={first.error ?? more.error} title="Could not load the payment requests" />
      {first.loading && <Progress label="Loading payment requests…" />}
      {first.data && !first.loading && rows.length === 0 && (
        <EmptyState title={status ? `No ${status} payment requests` : 'No payment requests yet'}>
          {status
            ? 'Choose another status to see the others.'
            : 'Create one above, or from your server with an API key (POST /proof/v1/requests).'}
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable
          caption="Payment requests, in id order (not by date)"
          showCaption
          columns={['Description', 'Status', 'Amount', 'Network', 'Expires']}
          actions
        >
          <tbody>
            {rows.map((r) => (
              <RequestRow
                key={r.id}
                request={r}
                open={open === r.id}
                onToggle={() => setOpen(open === r.id ? null : r.id)}
              />
            ))}
          </tbody>
        </DataTable>
      )}
      {cursor && (
        <BusyButton busy={more.busy} busyLabel="Loading more requests…" onClick={() => void loadMore()}>
          Load more requests
        </BusyButton>
      )}
    </>
  );
}

function RequestRow({ request: r, open, onToggle }: { request: PaymentRequest; open: boolean; onToggle: () => void }) {
  return (
    <>
      <tr>
        <th scope="row" className="wrap">
          {r.description}
          <br />
          <span className="muted small">{r.id}</span>
        </th>
        <td>
          <span className={`badge badge-${r.status.toLowerCase()}`}>{r.status}</span>
        </td>
        <td>{r.amount_usdc} USDC</td>
        <td>{r.network}</td>
        <td>{when(r.expires_at)}</td>
        <td>
          <button
            type="button"
            aria-expanded={open}
            onClick={onToggle}
            aria-label={`${open ? 'Hide' : 'View'} request ${r.id}`}
          >
            {open ? 'Hide' : 'View'}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6}>
            <RequestDetail request={r} />
          </td>
        </tr>
      )}
    </>
  );
}

/** One request as `GET /requests/{id}` reads it now (the list's copy until it answers). */
function RequestDetail({ request: r }: { request: PaymentRequest }) {
  const { api } = useAccount('merchant');
  const detail = useLoad(
    useCallback(() => api.get('/api/integrations/requests/{id}', { path: { id: r.id } }), [api, r.id]),
  );
  const d = detail.data ?? r;
  return (
    <>
      <ErrorNotice error={detail.error} title="Could not load the request" />
      <dl className="pay-facts">
        <dt>Status</dt>
        <dd>{d.status}</dd>
        <dt>Amount to pay</dt>
        <dd>{d.amount_usdc} USDC (exactly; it includes a small matching amount)</dd>
        <dt>To</dt>
        <dd>
          <code className="wrap">{d.pay_to}</code> on {d.network}
        </dd>
        <dt>Customer</dt>
        <dd>{d.customer_label ?? '—'}</dd>
        <dt>Expected payer</dt>
        <dd>{d.expected_payer ? <code className="wrap">{d.expected_payer}</code> : 'any'}</dd>
        <dt>Created</dt>
        <dd>{when(d.created_at)}</dd>
        <dt>Expires</dt>
        <dd>{when(d.expires_at)}</dd>
        {d.invoice_id && (
          <>
            <dt>Invoice</dt>
            <dd>{d.invoice_id}</dd>
          </>
        )}
        {d.tx_hash && (
          <>
            <dt>Transaction</dt>
            <dd>
              <code className="wrap">{d.tx_hash}</code>
              {d.verified_at ? ` (confirmed ${when(d.verified_at)})` : ''}
            </dd>
          </>
        )}
      </dl>
      <p>
        <a href={d.url} target="_blank" rel="noopener noreferrer">
          Payment page of {d.id}
        </a>
      </p>
    </>
  );
}
