import { useCallback, useId, useState, type FormEvent } from 'react';
import type { Invoice } from '../../backend/api';
import { BusyButton, ConfirmButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { shortAddress, useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

interface Line {
  description: string;
  quantity: string;
  unit_usdc: string;
}

const emptyLine = (): Line => ({ description: '', quantity: '1', unit_usdc: '' });

/** A date `days` from today (UTC), as `YYYY-MM-DD`. */
const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Invoices: contacts (`GET`/`POST /contacts`), `POST /invoices` (one payment request for the total), the list and
 * detail (`GET /invoices`, `/invoices/{id}`), the issued PDF (`GET /invoices/{id}/document`, a plain download link:
 * same origin, the session cookie goes with it) and voiding with a reason (`POST /invoices/{id}/void`).
 */
export function MerchantInvoicesPage() {
  const { api } = useAccount('merchant');
  const ids = useId();
  const invoices = useLoad(useCallback(() => api.get('/api/integrations/invoices', { query: { limit: 25 } }), [api]));
  const contacts = useLoad(useCallback(() => api.get('/api/integrations/contacts', { query: { limit: 100 } }), [api]));
  const wallets = useLoad(useCallback(() => api.get('/api/integrations/wallets'), [api]));
  const create = useAction();
  const addContact = useAction();
  const [done, setDone] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  const [contactId, setContactId] = useState('');
  const [walletId, setWalletId] = useState('');
  const [due, setDue] = useState(dateIn(14));
  const [lines, setLines] = useState<Line[]>([emptyLine()]);
  const [memo, setMemo] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');

  const contactList = contacts.data?.data ?? [];
  const walletList = wallets.data?.data ?? [];
  const chosenContact = contactId || contactList[0]?.id || '';
  const chosenWallet = walletId || walletList[0]?.id || '';
  const contactName = (id: string) => contactList.find((c) => c.id === id)?.legal_name ?? id;

  const newContact = async (e: FormEvent) => {
    e.preventDefault();
    const c = await addContact.run(() =>
      api.post('/api/integrations/contacts', { body: { legal_name: name.trim(), email: email.trim() } }),
    );
    if (c) {
      setName('');
      setEmail('');
      setContactId(c.id);
      await contacts.reload();
    }
  };

  const setLine = (i: number, patch: Partial<Line>) =>
    setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const body = {
      customer_id: chosenContact,
      wallet_id: chosenWallet,
      due_date: due,
      items: lines.map((l) => ({
        description: l.description.trim(),
        quantity: l.quantity.trim(),
        unit_usdc: l.unit_usdc.trim(),
      })),
      ...(memo.trim() ? { memo: memo.trim() } : {}),
    };
    const inv = await create.run(() => api.post('/api/integrations/invoices', { body: body }));
    if (inv) {
      setDone(`Invoice ${inv.number} is issued for ${inv.total_usdc} USDC.`);
      setLines([emptyLine()]);
      setMemo('');
      setOpen(inv.id);
      await invoices.reload();
    }
  };

  const list = invoices.data?.data ?? [];
  const ready = contacts.data && wallets.data;
  return (
    <>
      <section aria-labelledby={`${ids}-new`} className="card">
        <h2 id={`${ids}-new`}>Issue an invoice</h2>
        {ready && walletList.length === 0 && (
          <EmptyState title="Add a receiving wallet first">
            An invoice is paid into one of your verified wallets. Add and verify one on the Wallets page.
          </EmptyState>
        )}
        {ready && walletList.length > 0 && contactList.length === 0 && (
          <EmptyState title="Add a customer first">An invoice names its customer: add one below.</EmptyState>
        )}
        {ready && walletList.length > 0 && contactList.length > 0 && (
          <form className="form" onSubmit={(e) => void submit(e)}>
            <div className="field">
              <label htmlFor={`${ids}-contact`}>Customer</label>
              <select id={`${ids}-contact`} value={chosenContact} onChange={(e) => setContactId(e.target.value)}>
                {contactList.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.legal_name} ({c.email})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-wallet`}>Paid into</label>
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
              <label htmlFor={`${ids}-due`}>Due date</label>
              <input id={`${ids}-due`} type="date" value={due} onChange={(e) => setDue(e.target.value)} required />
            </div>
            <fieldset className="field">
              <legend>Lines</legend>
              {lines.map((l, i) => (
                <div key={i} className="line" role="group" aria-label={`Line ${i + 1}`}>
                  <div className="field grow">
                    <label htmlFor={`${ids}-d${i}`}>Description</label>
                    <input
                      id={`${ids}-d${i}`}
                      value={l.description}
                      onChange={(e) => setLine(i, { description: e.target.value })}
                      required
                      autoComplete="off"
                    />
                  </div>
                  <div className="field narrow">
                    <label htmlFor={`${ids}-q${i}`}>Quantity</label>
                    <input
                      id={`${ids}-q${i}`}
                      inputMode="decimal"
                      value={l.quantity}
                      onChange={(e) => setLine(i, { quantity: e.target.value })}
                      required
                      autoComplete="off"
                    />
                  </div>
                  <div className="field narrow">
                    <label htmlFor={`${ids}-u${i}`}>Unit price (USDC)</label>
                    <input
                      id={`${ids}-u${i}`}
                      inputMode="decimal"
                      value={l.unit_usdc}
                      onChange={(e) => setLine(i, { unit_usdc: e.target.value })}
                      required
                      autoComplete="off"
                    />
                  </div>
                  {lines.length > 1 && (
                    <button
                      type="button"
                      className="danger-outline"
                      onClick={() => setLines(lines.filter((_, j) => j !== i))}
                      aria-label={`Remove line ${i + 1}`}
                    >
                      Remove
                    </button>
                  )}
                </div>
              ))}
              <p>
                <button type="button" onClick={() => setLines([...lines, emptyLine()])} disabled={lines.length >= 100}>
                  Add a line
                </button>
              </p>
            </fieldset>
            <div className="field">
              <label htmlFor={`${ids}-memo`}>Memo (optional)</label>
              <textarea
                id={`${ids}-memo`}
                rows={2}
                value={memo}
                onChange={(e) => setMemo(e.target.value)}
                maxLength={1000}
              />
            </div>
            <BusyButton type="submit" className="primary" busy={create.busy} busyLabel="Issuing the invoice…">
              Issue invoice
            </BusyButton>
          </form>
        )}
        <ErrorNotice error={create.error} title="The invoice was not issued" />
        <ErrorNotice error={contacts.error ?? wallets.error} title="Could not load your customers and wallets" />
        {!ready && !contacts.error && !wallets.error && <Progress label="Loading customers and wallets…" />}
      </section>

      <section aria-labelledby={`${ids}-contact-new`} className="card">
        <h2 id={`${ids}-contact-new`}>Add a customer</h2>
        <form className="form" onSubmit={(e) => void newContact(e)}>
          <div className="field">
            <label htmlFor={`${ids}-cname`}>Legal name</label>
            <input
              id={`${ids}-cname`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={160}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-cemail`}>Customer e-mail</label>
            <input
              id={`${ids}-cemail`}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              autoComplete="off"
            />
          </div>
          <BusyButton type="submit" busy={addContact.busy} busyLabel="Adding the customer…">
            Add customer
          </BusyButton>
        </form>
        <ErrorNotice error={addContact.error} title="The customer was not added" />
      </section>

      <section aria-labelledby={`${ids}-list`}>
        <h2 id={`${ids}-list`}>Invoices</h2>
        {done && <SuccessNotice>{done}</SuccessNotice>}
        <ErrorNotice error={invoices.error} title="Could not load the invoices" />
        {invoices.loading && !invoices.data && <Progress label="Loading invoices…" />}
        {invoices.data && list.length === 0 && (
          <EmptyState title="No invoices yet">
            Issue one above: it gets a number, a PDF and a payment request for its total.
          </EmptyState>
        )}
        {list.length > 0 && (
          <DataTable
            caption="Invoices, in id order (not by date)"
            showCaption
            columns={['Number', 'Customer', 'Status', 'Total', 'Due']}
            actions
          >
            <tbody>
              {list.map((inv) => (
                <InvoiceRow
                  key={inv.id}
                  invoice={inv}
                  customer={contactName(inv.customer_id)}
                  open={open === inv.id}
                  onToggle={() => setOpen(open === inv.id ? null : inv.id)}
                  onChanged={invoices.reload}
                />
              ))}
            </tbody>
          </DataTable>
        )}
        {invoices.data?.next_cursor && <p className="hint">Only the first 25 invoices in id order are shown.</p>}
      </section>
    </>
  );
}

function InvoiceRow({
  invoice: inv,
  customer,
  open,
  onToggle,
  onChanged,
}: {
  invoice: Invoice;
  customer: string;
  open: boolean;
  onToggle: () => void;
  onChanged: () => Promise<void>;
}) {
  const { api } = useAccount('merchant');
  const ids = useId();
  const voiding = useAction();
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const doVoid = async () => {
    const got = await voiding.run(() =>
      api.post('/api/integrations/invoices/{id}/void', {
        path: { id: inv.id },
        body: reason.trim() ? { reason: reason.trim() } : {},
      }),
    );
    if (got) {
      setDone(`Invoice ${got.number} is voided: its payment page no longer asks for payment.`);
      await onChanged();
    }
  };
  const pdf = `${api.prefix}/invoices/${encodeURIComponent(inv.id)}/document`;
  return (
    <>
      <tr>
        <th scope="row">{inv.number}</th>
        <td className="wrap">{customer}</td>
        <td>
          <span className={`badge badge-${inv.status}`}>{inv.status}</span>
        </td>
        <td>{inv.total_usdc} USDC</td>
        <td>{inv.due_date}</td>
        <td>
          <div className="actions">
            <button
              type="button"
              aria-expanded={open}
              onClick={onToggle}
              aria-label={`${open ? 'Hide' : 'View'} invoice ${inv.number}`}
            >
              {open ? 'Hide' : 'View'}
            </button>
            <a
              className="button"
              href={pdf}
              download={`${inv.number}.pdf`}
              aria-label={`Download the PDF of invoice ${inv.number}`}
            >
              PDF
            </a>
          </div>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6}>
            {done && <SuccessNotice>{done}</SuccessNotice>}
            <DataTable
              caption={`Lines of invoice ${inv.number}`}
              columns={['Description', 'Quantity', 'Unit (USDC)', 'Amount (USDC)']}
              showCaption
              className="nested"
            >
              <tbody>
                {inv.items.map((l, i) => (
                  <tr key={i}>
                    <td className="wrap">{l.description}</td>
                    <td>{l.quantity}</td>
                    <td>{l.unit_usdc}</td>
                    <td>{l.amount_usdc}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            <dl className="pay-facts">
              <dt>Subtotal</dt>
              <dd>{inv.subtotal_usdc} USDC</dd>
              <dt>Tax ({inv.tax_mode})</dt>
              <dd>{inv.tax_usdc} USDC</dd>
              <dt>Total</dt>
              <dd>{inv.total_usdc} USDC</dd>
              <dt>Issued</dt>
              <dd>{when(inv.issued_at)}</dd>
              <dt>Payment request</dt>
              <dd>
                {inv.request_id} on {inv.network}
              </dd>
              {inv.paid_at && (
                <>
                  <dt>Paid</dt>
                  <dd>
                    {when(inv.paid_at)} <code className="wrap">{inv.tx_hash}</code>
                  </dd>
                </>
              )}
              {inv.voided_at && (
                <>
                  <dt>Voided</dt>
                  <dd>{when(inv.voided_at)}</dd>
                </>
              )}
              <dt>Document SHA-256</dt>
              <dd>
                <code className="wrap small">{inv.document_sha256}</code>
              </dd>
            </dl>
            {inv.status === 'issued' && (
              <div className="form void">
                <div className="field">
                  <label htmlFor={`${ids}-reason`}>Reason for voiding (optional)</label>
                  <input
                    id={`${ids}-reason`}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    maxLength={500}
                    autoComplete="off"
                  />
                </div>
                <ConfirmButton
                  label={`Void invoice ${inv.number}`}
                  confirmLabel="Yes, void it"
                  busy={voiding.busy}
                  onConfirm={() => void doVoid()}
                >
                  Void invoice
                </ConfirmButton>
              </div>
            )}
            <ErrorNotice error={voiding.error} title="The invoice was not voided" />
          </td>
        </tr>
      )}
    </>
  );
}
