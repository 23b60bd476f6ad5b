import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router';
import type { LedgerEntry } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { UsageChart } from '../../components/usage-chart';
import { useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

const PAGE = 50;

const KIND_TEXT: Record<LedgerEntry['kind'], string> = {
  grant: 'Credits added',
  reserve: 'Reserved for a job',
  charge: 'Charged (job completed)',
  release: 'Released (job did not complete)',
};

/**
 * The wallet (`GET /api/company/credits`): available and reserved credits, a chart of use per day drawn from the
 * ledger, and the ledger itself, oldest first, a page at a time (the API's feed: `after` the last id read).
 */
export function CompanyCreditsPage() {
  const { api, role } = useAccount('company');
  const first = useLoad(useCallback(() => api.get('/api/company/credits', { query: { limit: PAGE } }), [api]));
  const [later, setLater] = useState<{ rows: LedgerEntry[]; cursor: number; done: boolean } | null>(null);
  const more = useAction();
  const ids = useId();
  const entries = [...(first.data?.ledger.data ?? []), ...(later?.rows ?? [])];
  const cursor = later ? later.cursor : (first.data?.ledger.next_cursor ?? 0);
  const mayHaveMore = later ? !later.done : (first.data?.ledger.data.length ?? 0) === PAGE;

  const loadMore = async () => {
    const next = await more.run(() => api.get('/api/company/credits', { query: { limit: PAGE, after: cursor } }));
    if (next)
      setLater({
        rows: [...(later?.rows ?? []), ...next.ledger.data],
        cursor: next.ledger.next_cursor,
        done: next.ledger.data.length < PAGE,
      });
  };
  const refresh = async () => {
    setLater(null);
    await first.reload();
  };

  return (
    <>
      <ErrorNotice error={first.error ?? more.error} title="Could not load the credits" />
      {first.loading && !first.data && <Progress label="Loading credits…" />}
      {first.data && (
        <>
          <dl className="facts">
            <div>
              <dt>Available</dt>
              <dd>{first.data.available.toLocaleString()} credits</dd>
            </div>
            <div>
              <dt>Reserved by running jobs</dt>
              <dd>{first.data.reserved.toLocaleString()} credits</dd>
            </div>
          </dl>
          {role === 'billing_admin' && (
            <p>
              <Link to="/company/buy-credits">Buy credits</Link> (a pack paid in USDC)
            </p>
          )}
          <section aria-labelledby={`${ids}-chart`}>
            <h2 id={`${ids}-chart`}>Use over time</h2>
            <UsageChart entries={entries} />
          </section>
          <section aria-labelledby={`${ids}-ledger`}>
            <h2 id={`${ids}-ledger`}>Ledger</h2>
            {entries.length === 0 ? (
              <EmptyState title="No movements yet">
                Credits appear here when they are added to your wallet; each job then reserves its estimate and is
                charged when it completes (see the <Link to="/company/jobs">jobs</Link>).
              </EmptyState>
            ) : (
              <DataTable caption="Ledger entries, oldest first" columns={['#', 'Movement', 'Credits', 'Job', 'When']}>
                <tbody>
                  {entries.map((e) => (
                    <tr key={e.id} className={`ledger-${e.kind}`}>
                      <th scope="row">{e.id}</th>
                      <td className="wrap">
                        {KIND_TEXT[e.kind]}
                        {e.reason && <span className="muted small"> · {e.reason}</span>}
                      </td>
                      <td>{e.amount.toLocaleString()}</td>
                      <td>{e.job_id ? <Link to={`/company/jobs/${e.job_id}`}>{e.job_id}</Link> : '—'}</td>
                      <td>{when(e.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            )}
            <div className="row">
              {mayHaveMore && (
                <BusyButton busy={more.busy} busyLabel="Loading more entries…" onClick={() => void loadMore()}>
                  Load more entries
                </BusyButton>
              )}
              <BusyButton busy={first.loading} busyLabel="Refreshing…" onClick={() => void refresh()}>
                Refresh
              </BusyButton>
            </div>
          </section>
        </>
      )}
    </>
  );
}
