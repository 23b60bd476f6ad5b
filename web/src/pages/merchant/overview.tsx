import { useCallback } from 'react';
import type { MerchantOverview } from '../../backend/types';
import { ErrorNotice, Progress } from '../../components/feedback';
import { useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';

/** Plan and usage: `GET /api/integrations` (entitlements and counts). */
export function MerchantOverviewPage() {
  const { api } = useAccount('merchant');
  const overview = useLoad(useCallback(() => api.get<MerchantOverview>(''), [api]));
  const e = overview.data?.entitlements;
  return (
    <>
      <ErrorNotice error={overview.error} title="Could not load your plan" />
      {overview.error?.code === 'customer_access_required' && (
        <p>Management needs an active plan or trial. Ask the platform's support to extend your plan; buying a plan here comes with the plans page.</p>
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
              {e.usage.requests} of {e.requests_per_period ?? '—'}
            </dd>
          </div>
          <div>
            <dt>Invoices this period</dt>
            <dd>
              {e.usage.invoices} of {e.invoices_per_period ?? '—'}
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
    </>
  );
}
