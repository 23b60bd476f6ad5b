import { useCallback, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Network } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { PaymentFields, PurchaseHistory, PurchasePanel, useFollowedPurchase } from '../../components/purchase-panel';
import { useAction, useLoad } from '../../lib/hooks';
import { useAccount } from '../../session';

/**
 * Buying a credit pack paid in USDC to the platform's wallet (`GET /api/company/credit-packs`, `POST …/purchases`,
 * followed with `GET …/purchases` until it is paid, underpaid, in review or expired): the same purchase as a merchant's
 * plan (components/purchase-panel.tsx). The credits available are shown above and loaded again when a purchase is paid.
 * Card checkout is not offered here (`card_checkout: false`): an operator grants credits bought by card.
 */
export function CompanyBuyCreditsPage() {
  const { api } = useAccount('company');
  const ids = useId();
  const credits = useLoad(useCallback(() => api.get('/api/company/credits', { query: { limit: 1 } }), [api]));
  const offer = useLoad(useCallback(() => api.get('/api/company/credit-packs'), [api]));
  const purchases = useLoad(
    useCallback(() => api.get('/api/company/credit-packs/purchases', { query: { limit: 10 } }), [api]),
  );
  const buy = useAction();
  const [pack, setPack] = useState('');
  const [network, setNetwork] = useState<Network | ''>('');
  const [payer, setPayer] = useState('');
  const [currentId, setCurrentId] = useState<string | null>(null);
  const { list, current } = useFollowedPurchase(purchases, currentId, credits.reload);

  const packs = offer.data?.packs ?? [];
  const networks = offer.data?.purchase_networks ?? [];
  const chosenPack = pack || packs[0]?.id || '';
  const chosenNetwork = network || networks[0] || '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!chosenPack || !chosenNetwork) return;
    const started = await buy.run(() =>
      api.post('/api/company/credit-packs/purchases', {
        body: { pack: chosenPack, network: chosenNetwork, payer: payer.trim() },
      }),
    );
    if (started) {
      setCurrentId(started.id);
      await purchases.reload();
    }
  };

  return (
    <>
      <ErrorNotice error={credits.error} title="Could not load your credits" />
      {credits.data && (
        <dl className="facts">
          <div>
            <dt>Available</dt>
            <dd>{credits.data.available.toLocaleString()} credits</dd>
          </div>
          <div>
            <dt>Reserved by running jobs</dt>
            <dd>{credits.data.reserved.toLocaleString()} credits</dd>
          </div>
        </dl>
      )}
      <section aria-labelledby={`${ids}-buy`} className="card">
        <h2 id={`${ids}-buy`}>Buy a credit pack</h2>
        <ErrorNotice error={offer.error} title="Could not load the packs on offer" />
        {offer.data && !offer.data.card_checkout && (
          <div className="notice notice-info">
            <p className="notice-title">Card checkout is not available</p>
            <p>
              Packs are paid here in USDC. To pay by card, ask the platform's support: an operator adds the credits to
              your wallet once the card payment is settled.
            </p>
          </div>
        )}
        {offer.loading && !offer.data && <Progress label="Loading the packs on offer…" />}
        {offer.data &&
          (networks.length === 0 || packs.length === 0 ? (
            <EmptyState title="Credits cannot be bought here yet">
              No network is set up to receive payments for credits. Ask the platform's support: they can add credits to
              your wallet.
            </EmptyState>
          ) : (
            <form className="form" onSubmit={(e) => void submit(e)}>
              <p className="hint">
                Paid in USDC to the platform's wallet; the credits are added to your wallet once the payment is final on
                the chain. Credits do not expire.
              </p>
              <div className="field">
                <label htmlFor={`${ids}-pack`}>Pack</label>
                <select id={`${ids}-pack`} value={chosenPack} onChange={(e) => setPack(e.target.value)}>
                  {packs.map((p) => (
                    <option key={p.id} value={p.id}>
                      {BigInt(p.credits).toLocaleString()} credits: {p.price_usdc} USDC
                    </option>
                  ))}
                </select>
              </div>
              <PaymentFields
                ids={ids}
                networks={networks}
                network={chosenNetwork}
                onNetwork={setNetwork}
                payer={payer}
                onPayer={setPayer}
              />
              <BusyButton type="submit" className="primary" busy={buy.busy} busyLabel="Starting the purchase…">
                Continue to payment
              </BusyButton>
            </form>
          ))}
        <ErrorNotice error={buy.error} title="The purchase was not started" />
      </section>

      {current && <PurchasePanel purchase={current} />}

      <PurchaseHistory
        title="Your credit pack purchases"
        purchases={purchases}
        list={list}
        current={current}
        onShow={setCurrentId}
        empty="Choose a pack above to buy one."
      />
      <p>
        <Link to="/company/credits">See how your credits are used (the ledger)</Link>
      </p>
    </>
  );
}
