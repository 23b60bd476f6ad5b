import { useCallback, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { BatchSummary } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { ProgressBar, StatusBadge } from '../../components/job-bits';
import { useAction, useLoad, usePagedList, usePolling, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { HowToSubmit, unfinished } from './jobs';
import { DataTable } from '../../components/table-head';

const ended = (b: BatchSummary) => !unfinished(b.status);
const doneOf = (b: BatchSummary) => b.progress.completed + b.progress.failed + b.progress.cancelled;

/** The company's batches, newest first, with their progress, followed while any runs. */
export function CompanyBatchesPage() {
  const { api } = useAccount('company');
  const { first, more, rows, cursor, loadMore, refresh } = usePagedList(
    useCallback(
      (before: string | null) => api.get('/api/company/batches', { query: { limit: 25, before: before ?? undefined } }),
      [api],
    ),
  );
  const ids = useId();
  const running = (first.data?.data ?? []).filter((b) => !ended(b)).length;
  // Followed while any runs, and while the list is empty (the first one appears as soon as it is accepted).
  usePolling(running > 0 || (first.data !== null && rows.length === 0), first.loading, first.reload);
  return (
    <section aria-labelledby={`${ids}-list`}>
      <h2 id={`${ids}-list`}>All batches</h2>
      <ErrorNotice error={first.error ?? more.error} title="Could not load the batches" />
      {first.loading && !first.data && <Progress label="Loading batches…" />}
      {running > 0 && (
        <Progress
          ongoing
          label={`${running === 1 ? 'A batch is' : `${running} batches are`} running; this list follows them.`}
        />
      )}
      {first.data && rows.length === 0 && (
        <EmptyState title="No batches yet">
          <HowToSubmit what="batches" />
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable caption="Batches, newest first" columns={['Batch', 'Operation', 'Status', 'Progress', 'Created']}>
          <tbody>
            {rows.map((b) => (
              <tr key={b.id}>
                <th scope="row">
                  <Link to={`/company/batches/${b.id}`}>{b.id}</Link>
                  {b.retry_of && <span className="muted small"> (retry)</span>}
                </th>
                <td>{b.operation}</td>
                <td>
                  <StatusBadge status={b.status} />
                </td>
                <td>
                  <ProgressBar
                    done={doneOf(b)}
                    total={b.progress.total}
                    label={`Items of batch ${b.id} that have ended`}
                  />
                </td>
                <td>{when(b.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      <div className="row">
        <BusyButton busy={first.loading && first.data !== null} busyLabel="Refreshing…" onClick={() => void refresh()}>
          Refresh
        </BusyButton>
        {cursor && (
          <BusyButton busy={more.busy} busyLabel="Loading older batches…" onClick={() => void loadMore()}>
            Load older batches
          </BusyButton>
        )}
      </div>
    </section>
  );
}

/** One batch: aggregate progress and credits (followed while it runs), its children, its ZIP, and retry-failed. */
export function CompanyBatchPage() {
  const { id = '' } = useParams();
  return <BatchView key={id} id={id} />; // a new batch is a new page: its own load, polling and retry state
}

function BatchView({ id }: { id: string }) {
  const account = useAccount('company');
  const { api } = account;
  const admin = account.role === 'billing_admin';
  const navigate = useNavigate();
  const batch = useLoad(
    useCallback(
      () => api.get('/api/company/batches/{batch_id}', { path: { batch_id: id }, query: { limit: 100 } }),
      [api, id],
    ),
  );
  const retry = useAction();
  const [retried, setRetried] = useState<string | null>(null);
  usePolling(batch.data !== null && !ended(batch.data), batch.loading, batch.reload);
  const b = batch.data;
  const failed = b ? b.progress.failed + b.progress.cancelled : 0;

  const doRetry = async () => {
    setRetried(null);
    const created = await retry.run(() =>
      api.post('/api/company/batches/{batch_id}/retry-failed', { path: { batch_id: id } }),
    );
    if (created) setRetried(created.id);
  };

  return (
    <>
      <p>
        <Link to="/company/batches">All batches</Link>
      </p>
      <ErrorNotice error={batch.error} title="Could not load the batch" />
      {batch.loading && !b && <Progress label="Loading the batch…" />}
      {b && (
        <>
          {!ended(b) && (
            <Progress
              ongoing
              label={`The batch is ${b.status}: ${doneOf(b)} of ${b.progress.total} items have ended. This page follows it.`}
            />
          )}
          <dl className="facts">
            <div>
              <dt>Batch</dt>
              <dd className="wrap">
                <code>{b.id}</code>
              </dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={b.status} />
              </dd>
            </div>
            <div>
              <dt>Items ended</dt>
              <dd>
                <ProgressBar done={doneOf(b)} total={b.progress.total} label="Items that have ended" />
              </dd>
            </div>
            <div>
              <dt>Completed · failed · cancelled</dt>
              <dd>
                {b.progress.completed} · {b.progress.failed} · {b.progress.cancelled}
              </dd>
            </div>
            <div>
              <dt>Credits</dt>
              <dd>
                {b.credits.charged} charged, {b.credits.reserved} reserved
              </dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{when(b.created_at)}</dd>
            </div>
          </dl>
          {b.retry_of && (
            <p>
              Retries the failed items of <Link to={`/company/batches/${b.retry_of}`}>{b.retry_of}</Link>.
            </p>
          )}
          <div className="row toolbar">
            {ended(b) ? (
              <a
                className="button-link"
                href={`/api/company/batches/${encodeURIComponent(b.id)}/results.zip`}
                download={`${b.id}.zip`}
              >
                Download results (ZIP)
              </a>
            ) : (
              <p className="muted">The results ZIP can be downloaded once the batch has ended.</p>
            )}
            {admin && ended(b) && failed > 0 && (
              <BusyButton busy={retry.busy} busyLabel="Retrying…" onClick={() => void doRetry()}>
                Retry {failed === 1 ? 'the failed item' : `the ${failed} failed items`}
              </BusyButton>
            )}
          </div>
          {retried && (
            <SuccessNotice>
              The failed items are queued again as batch{' '}
              <Link to={`/company/batches/${retried}`} onClick={() => setRetried(null)}>
                {retried}
              </Link>
              .{' '}
              <button type="button" onClick={() => void navigate(`/company/batches/${retried}`)}>
                Follow it
              </button>
            </SuccessNotice>
          )}
          <ErrorNotice error={retry.error} title="The failed items were not retried" />
          <h2>Items</h2>
          <DataTable caption={`Items of batch ${b.id}`} columns={['Item', 'Job', 'Status', 'Credits']} actions>
            <tbody>
              {b.jobs.map((j) => (
                <tr key={j.id}>
                  <th scope="row">{j.item_index}</th>
                  <td>{j.deleted_at ? j.id : <Link to={`/company/jobs/${j.id}`}>{j.id}</Link>}</td>
                  <td className="wrap">
                    <StatusBadge status={j.status} />
                    {j.status === 'failed' && <span className="small"> {j.error}</span>}
                    {j.deleted_at && <span className="small"> deleted {when(j.deleted_at)}: not in the ZIP</span>}
                  </td>
                  <td>{j.charged_credits ?? `${j.estimated_credits} reserved`}</td>
                  <td>
                    {j.operation === 'flow-extract' && j.status === 'completed' && !j.deleted_at && (
                      <Link
                        to={`/company/jobs/${j.id}/review`}
                        aria-label={`Review the extraction of item ${j.item_index}`}
                      >
                        Review
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
          {b.next_after !== null && (
            <p className="muted">The first 100 items are shown; the others are on the jobs page.</p>
          )}
        </>
      )}
    </>
  );
}
