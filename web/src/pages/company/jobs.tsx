import { useCallback, useId } from 'react';
import { Link, useParams } from 'react-router';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { ResultFiles, StatusBadge } from '../../components/job-bits';
import { useLoad, usePagedList, usePolling, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

export const unfinished = (status: string) => status === 'queued' || status === 'processing';

/** How a client submits work: shown where a list is empty. */
export function HowToSubmit({ what }: { what: 'jobs' | 'batches' }) {
  return (
    <>
      <p>
        {what === 'jobs' ? 'Jobs' : 'Batches'} are submitted by your software with an API key (a billing administrator
        creates keys on the API keys page): upload each file with <code>POST /v1/uploads</code>, then send{' '}
        {what === 'jobs' ? <code>POST /v1/jobs</code> : <code>POST /v1/batches</code>} with the operation and the upload
        ids, an <code>Authorization: Bearer sk_live_…</code> header and an <code>Idempotency-Key</code>.
      </p>
      <p>They appear here as soon as they are accepted, and this page follows them while they run.</p>
    </>
  );
}

/** The company's jobs, newest first, followed while any is queued or processing. */
export function CompanyJobsPage() {
  const { api } = useAccount('company');
  const { first, more, rows, cursor, loadMore, refresh } = usePagedList(
    useCallback(
      (before: string | null) => api.get('/api/company/jobs', { query: { limit: 25, before: before ?? undefined } }),
      [api],
    ),
  );
  const ids = useId();
  const running = (first.data?.data ?? []).filter((j) => unfinished(j.status)).length;
  // Followed while any runs, and while the list is empty (the first one appears as soon as it is accepted).
  usePolling(running > 0 || (first.data !== null && rows.length === 0), first.loading, first.reload);
  return (
    <section aria-labelledby={`${ids}-list`}>
      <h2 id={`${ids}-list`}>All jobs</h2>
      <ErrorNotice error={first.error ?? more.error} title="Could not load the jobs" />
      {first.loading && !first.data && <Progress label="Loading jobs…" />}
      {running > 0 && (
        <Progress
          ongoing
          label={`${running === 1 ? 'A job is' : `${running} jobs are`} running; this list follows them.`}
        />
      )}
      {first.data && rows.length === 0 && (
        <EmptyState title="No jobs yet">
          <HowToSubmit what="jobs" />
        </EmptyState>
      )}
      {rows.length > 0 && (
        <DataTable caption="Jobs, newest first" columns={['Job', 'Operation', 'Status', 'Credits', 'Batch', 'Created']}>
          <tbody>
            {rows.map((j) => (
              <tr key={j.id}>
                <th scope="row">
                  <Link to={`/company/jobs/${j.id}`}>{j.id}</Link>
                </th>
                <td>{j.operation}</td>
                <td>
                  <StatusBadge status={j.status} />
                </td>
                <td>{j.charged_credits ?? `${j.estimated_credits} reserved`}</td>
                <td>{j.batch_id ? <Link to={`/company/batches/${j.batch_id}`}>{j.batch_id}</Link> : '—'}</td>
                <td>{when(j.created_at)}</td>
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
          <BusyButton busy={more.busy} busyLabel="Loading older jobs…" onClick={() => void loadMore()}>
            Load older jobs
          </BusyButton>
        )}
      </div>
    </section>
  );
}

/** One job: its state (followed while it runs), its error, its result files, and its review for flow-extract. */
export function CompanyJobPage() {
  const { id = '' } = useParams();
  return <JobView key={id} id={id} />; // another job is a new page: its own load and polling
}

function JobView({ id }: { id: string }) {
  const { api } = useAccount('company');
  const job = useLoad(useCallback(() => api.get('/api/company/jobs/{job_id}', { path: { job_id: id } }), [api, id]));
  usePolling(job.data !== null && unfinished(job.data.status), job.loading, job.reload);
  const j = job.data;
  return (
    <>
      <p>
        <Link to="/company/jobs">All jobs</Link>
      </p>
      <ErrorNotice error={job.error} title="Could not load the job" />
      {job.loading && !j && <Progress label="Loading the job…" />}
      {j && (
        <>
          {unfinished(j.status) && <Progress ongoing label={`The job is ${j.status}; this page follows it.`} />}
          <dl className="facts">
            <div>
              <dt>Job</dt>
              <dd className="wrap">
                <code>{j.id}</code>
              </dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={j.status} />
              </dd>
            </div>
            <div>
              <dt>Operation</dt>
              <dd>{j.operation}</dd>
            </div>
            <div>
              <dt>Credits</dt>
              <dd>{j.charged_credits === null ? `${j.estimated_credits} reserved` : `${j.charged_credits} charged`}</dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>{when(j.created_at)}</dd>
            </div>
            <div>
              <dt>Finished</dt>
              <dd>{when(j.finished_at)}</dd>
            </div>
          </dl>
          {j.batch_id && (
            <p>
              Item of batch <Link to={`/company/batches/${j.batch_id}`}>{j.batch_id}</Link>.
            </p>
          )}
          {j.status === 'failed' && (
            <div className="notice notice-error">
              <p className="notice-title">The job failed ({j.error_code})</p>
              <p>{j.error}</p>
            </div>
          )}
          <h2>Results</h2>
          {j.result ? (
            <>
              <ResultFiles job={j} files={j.result.files} />
              <p className="muted small">Kept until {when(j.result.expires_at)}.</p>
            </>
          ) : (
            <p className="muted">
              {unfinished(j.status)
                ? 'The results appear here when the job has completed.'
                : 'This job has no results.'}
            </p>
          )}
          {j.operation === 'flow-extract' && j.status === 'completed' && (
            <p>
              <Link to={`/company/jobs/${j.id}/review`} className="button-link">
                Review the extraction
              </Link>
            </p>
          )}
        </>
      )}
    </>
  );
}
