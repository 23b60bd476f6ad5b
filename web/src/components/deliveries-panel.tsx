import { useCallback, useId, useState } from 'react';
import type { Delivery, DeliveryDetail, Page } from '../backend/api';
import { FOLLOW_MS, useAction, usePagedList, usePolling, when } from '../lib/hooks';
import { BusyButton } from './buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from './feedback';
import { DataTable } from './table-head';

export interface DeliveriesApi {
  page(before: string | null): Promise<Page<Delivery>>;
  /** Every attempt of a delivery, where the interface has the route. */
  detail?: (id: string) => Promise<DeliveryDetail>;
  /** A manual retry of a failed delivery, where the interface has it. */
  retry?: (id: string) => Promise<Delivery>;
}

/**
 * The delivery history in the API's order (by id, not by date: the lists of both session interfaces page by id), more
 * pages on demand, each delivery's attempts and a manual retry.
 */
export function DeliveriesPanel({ api }: { api: DeliveriesApi }) {
  const { first, more, rows, cursor, loadMore, refresh } = usePagedList(
    useCallback((before: string | null) => api.page(before), [api]),
  );
  const retry = useAction();
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();

  const inFlight = (first.data?.data ?? []).filter((d) => d.status === 'pending' || d.status === 'retrying').length;

  // While deliveries of the first page are under way, follow them: the page asks again every few seconds.
  const { reload, loading } = first;
  usePolling(inFlight > 0, loading, reload, FOLLOW_MS, FOLLOW_MS);

  const doRetry = async (d: Delivery) => {
    setDone(null);
    if (!api.retry) return;
    const retried = await retry.run(() => api.retry!(d.id));
    if (retried) {
      setDone(
        `Delivery ${d.id}: a retry from attempt ${retried.attempts + 1} has started; its status below follows it.`,
      );
      await refresh();
    }
  };

  return (
    <section aria-labelledby={`${ids}-list`}>
      <h2 id={`${ids}-list`}>Delivery history</h2>
      {done && <SuccessNotice>{done}</SuccessNotice>}
      <ErrorNotice error={retry.error} title="The delivery was not retried" />
      <ErrorNotice error={first.error ?? more.error} title="Could not load the deliveries" />
      {first.loading && !first.data && <Progress label="Loading deliveries…" />}
      {inFlight > 0 && (
        <Progress
          ongoing
          label={`${inFlight === 1 ? 'A delivery is' : `${inFlight} deliveries are`} under way; this list follows them.`}
        />
      )}
      {first.data && rows.length === 0 && (
        <EmptyState title="No deliveries yet">
          Deliveries appear here when an event is sent to one of your webhooks. Register a webhook first if you have
          none.
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable
          caption="Webhook deliveries, in id order (not by date)"
          showCaption
          columns={['Event', 'Status', 'Attempts', 'Last answer', 'Created']}
          actions
        >
          <tbody>
            {rows.map((d) => (
              <DeliveryRow key={d.id} delivery={d} api={api} retrying={retry.busy} onRetry={() => void doRetry(d)} />
            ))}
          </tbody>
        </DataTable>
      )}
      {cursor && (
        <BusyButton busy={more.busy} busyLabel="Loading more deliveries…" onClick={() => void loadMore()}>
          Load more deliveries
        </BusyButton>
      )}
    </section>
  );
}

function DeliveryRow({
  delivery: d,
  api,
  retrying,
  onRetry,
}: {
  delivery: Delivery;
  api: DeliveriesApi;
  retrying: boolean;
  onRetry: () => void;
}) {
  const [open, setOpen] = useState(false);
  const detail = useAction();
  const [attempts, setAttempts] = useState<DeliveryDetail | null>(null);
  const toggle = async () => {
    const next = !open;
    setOpen(next);
    if (next && api.detail && !attempts) {
      const got = await detail.run(() => api.detail!(d.id));
      if (got) setAttempts(got);
    }
  };
  return (
    <>
      <tr>
        <th scope="row">
          <code>{d.event_type}</code>
          <br />
          <span className="muted small">{d.id}</span>
        </th>
        <td>
          <span className={`badge badge-${d.status}`}>{d.status}</span>
        </td>
        <td>
          {d.attempts} of {d.max_attempts}
        </td>
        <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
        <td>{when(d.created_at)}</td>
        <td>
          <div className="actions">
            {api.detail && (
              <button type="button" aria-expanded={open} onClick={() => void toggle()}>
                {open ? 'Hide attempts' : 'Show attempts'}
              </button>
            )}
            {'retryable' in d && d.retryable && api.retry && (
              <BusyButton busy={retrying} busyLabel="Retrying…" onClick={onRetry}>
                Retry
              </BusyButton>
            )}
          </div>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6}>
            {detail.busy && <Progress label="Loading attempts…" />}
            <ErrorNotice error={detail.error} title="Could not load the attempts" />
            {attempts && attempts.attempts_detail.length === 0 && (
              <p className="muted">No attempt has been made yet.</p>
            )}
            {attempts && attempts.attempts_detail.length > 0 && (
              <DataTable
                caption={`Attempts of delivery ${d.id}`}
                columns={['#', 'Outcome', 'HTTP status', 'Error class', 'Duration', 'Started']}
                showCaption
                className="nested"
              >
                <tbody>
                  {attempts.attempts_detail.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td>{a.outcome}</td>
                      <td>{a.status_code ?? '—'}</td>
                      <td>{a.error ?? '—'}</td>
                      <td>{a.duration_ms === null ? '—' : `${a.duration_ms} ms`}</td>
                      <td>{when(a.started_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
