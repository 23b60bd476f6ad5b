import { useCallback, useId, useState } from 'react';
import type { ProofEvent } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

const LIMIT = 50;

/** The event feed (`GET /events?after=&limit=`): the stored envelopes, oldest first, newer ones on demand. */
export function MerchantEventsPage() {
  const { api } = useAccount('merchant');
  const ids = useId();
  const first = useLoad(
    useCallback(() => api.get('/api/integrations/events', { query: { after: 0, limit: LIMIT } }), [api]),
  );
  const more = useAction();
  const [later, setLater] = useState<{ rows: ProofEvent[]; cursor: number; full: boolean } | null>(null);
  const rows = [...(first.data?.data ?? []), ...(later?.rows ?? [])];
  const cursor = later?.cursor ?? first.data?.next_cursor ?? 0;
  const [open, setOpen] = useState<number | null>(null);

  const loadNewer = async () => {
    const next = await more.run(() => api.get('/api/integrations/events', { query: { after: cursor, limit: LIMIT } }));
    if (next)
      setLater({
        rows: [...(later?.rows ?? []), ...next.data],
        cursor: next.next_cursor,
        full: next.data.length === LIMIT,
      });
  };

  return (
    <section aria-labelledby={`${ids}-list`}>
      <h2 id={`${ids}-list`}>Events, oldest first</h2>
      <p className="hint">
        The same events your webhook destinations receive, byte for byte. Events are recorded only while you have an
        enabled webhook destination.
      </p>
      <ErrorNotice error={first.error ?? more.error} title="Could not load the events" />
      {first.loading && !first.data && <Progress label="Loading events…" />}
      {first.data && rows.length === 0 && (
        <EmptyState title="No events yet">
          Events are recorded when a payment request or invoice changes while you have an enabled webhook destination.
          Register one on the Webhooks page.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable caption="Events, oldest first" columns={['Type', 'Cursor', 'Occurred', 'Subject']} actions>
          <tbody>
            {rows.map(({ cursor: c, event: e }) => (
              <EventRow
                key={c}
                cursor={c}
                event={e}
                open={open === c}
                onToggle={() => setOpen(open === c ? null : c)}
              />
            ))}
          </tbody>
        </DataTable>
      )}
      {first.data && (
        <BusyButton busy={more.busy} busyLabel="Looking for newer events…" onClick={() => void loadNewer()}>
          Load newer events
        </BusyButton>
      )}
      {later && !later.full && (
        <p className="muted" role="status">
          No newer events for now.
        </p>
      )}
    </section>
  );
}

function EventRow({
  cursor,
  event: e,
  open,
  onToggle,
}: {
  cursor: number;
  event: ProofEvent['event'];
  open: boolean;
  onToggle: () => void;
}) {
  const subject = 'invoice_id' in e.data ? e.data.invoice_id : 'request_id' in e.data ? e.data.request_id : '—';
  return (
    <>
      <tr>
        <th scope="row">
          <code>{e.type}</code>
          <br />
          <span className="muted small">{e.id}</span>
        </th>
        <td>{cursor}</td>
        <td>{when(new Date(e.occurred_at * 1000).toISOString())}</td>
        <td>{subject}</td>
        <td>
          <button
            type="button"
            aria-expanded={open}
            onClick={onToggle}
            aria-label={`${open ? 'Hide' : 'Show'} data of event ${e.id}`}
          >
            {open ? 'Hide data' : 'Show data'}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={5}>
            <pre className="json">{JSON.stringify(e, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}
