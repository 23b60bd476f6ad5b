import { useCallback, useId, useState, type FormEvent } from 'react';
import type { PaidPlan, Network, PlanInfo } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { PaymentFields, PurchaseHistory, PurchasePanel, useFollowedPurchase } from '../../components/purchase-panel';
import { useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';

/**
 * Plan and usage (`GET /api/integrations`, `GET /plan`) and buying or renewing a plan paid in USDC to the platform's
 * wallet (`POST /plan/purchases`, followed with `GET /plan/purchases/{id}` until it is paid, underpaid, in review or
 * expired). The purchase part works without an active plan or trial: that is when it is needed most.
 */
export function MerchantOverviewPage() {
  const { api } = useAccount('merchant');
  const overview = useLoad(useCallback(() => api.get('/api/integrations'), [api]));
  const plan = useLoad(useCallback(() => api.get('/api/integrations/plan'), [api]));
  const e = overview.data?.entitlements;
  const { reload: reloadOverview } = overview;
  const { reload: reloadPlan } = plan;
  const reloadAll = useCallback(async () => {
    await Promise.all([reloadOverview(), reloadPlan()]);
  }, [reloadOverview, reloadPlan]);
  return (
    <>
      <ErrorNotice
        error={overview.error?.code === 'customer_access_required' ? null : overview.error}
        title="Could not load your plan"
      />
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

function BuyPlan({ info, onGranted }: { info: PlanInfo; onGranted: () => Promise<void> }) {
  const { api } = useAccount('merchant');
  const ids = useId();
  const purchases = useLoad(
    useCallback(() => api.get('/api/integrations/plan/purchases', { query: { limit: 10 } }), [api]),
  );
  const buy = useAction();
  const [choice, setChoice] = useState<PaidPlan>(info.paid_plan ?? 'starter');
  const [network, setNetwork] = useState<Network | ''>(info.purchase_networks[0] ?? '');
  const [payer, setPayer] = useState('');
  const [currentId, setCurrentId] = useState<string | null>(null);
  // The purchase followed until it is settled; when it is paid, the plan and usage above are loaded again.
  const { list, current } = useFollowedPurchase(purchases, currentId, onGranted);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!network) return;
    const started = await buy.run(() =>
      api.post('/api/integrations/plan/purchases', { body: { plan: choice, network, payer: payer.trim() } }),
    );
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
          <EmptyState title="Plans cannot be bought here yet">
            No network is set up to receive plan payments. Ask the platform's support: they can grant a plan.
          </EmptyState>
        ) : (
          <form className="form" onSubmit={(e) => void submit(e)}>
            <p className="hint">
              A plan runs {info.prices[0]?.period_days ?? 30} days from its payment; a renewal starts where the running
              period ends, so no day is lost. Paid in USDC.
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
            <PaymentFields
              ids={ids}
              networks={info.purchase_networks}
              network={network}
              onNetwork={setNetwork}
              payer={payer}
              onPayer={setPayer}
            />
            <BusyButton type="submit" className="primary" busy={buy.busy} busyLabel="Starting the purchase…">
              Continue to payment
            </BusyButton>
          </form>
        )}
        <ErrorNotice error={buy.error} title="The purchase was not started" />
      </section>

      {current && <PurchasePanel purchase={current} />}

      <PurchaseHistory
        title="Your plan purchases"
        purchases={purchases}
        list={list}
        current={current}
        onShow={setCurrentId}
        empty="Choose a plan above to buy one."
      />
    </>
  );
}
