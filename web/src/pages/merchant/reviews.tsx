import { useCallback, useId } from 'react';
import { BusyButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress } from '../../components/feedback';
import { usePagedList, when } from '../../lib/hooks';
import { formatAtomic } from '../../lib/usdc';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

/** What each review reason means for the merchant. */
const REASONS: Record<string, string> = {
  unexpected_payer: 'The amount arrived from an address other than the expected payer.',
  after_expiry: 'The payment arrived after the request expired.',
  invoice_voided: 'The amount arrived after its invoice was voided.',
};

/** Requests in REVIEW (`GET /reviews`): each with its reason and every transfer the watcher attributed to it. */
export function MerchantReviewsPage() {
  const { api } = useAccount('merchant');
  const ids = useId();
  const { first, more, rows, cursor, loadMore } = usePagedList(
    useCallback(
      (before: string | null) =>
        api.get('/api/integrations/reviews', { query: { limit: 25, before: before ?? undefined } }),
      [api],
    ),
  );
  return (
    <section aria-labelledby={`${ids}-list`}>
      <h2 id={`${ids}-list`}>Payments that need a person</h2>
      <p className="hint">
        A payment goes to review when it cannot be confirmed automatically. The money is in your wallet: settle with the
        payer yourself (a refund or a new request).
      </p>
      <ErrorNotice error={first.error ?? more.error} title="Could not load the review queue" />
      {first.loading && !first.data && <Progress label="Loading the review queue…" />}
      {first.data && rows.length === 0 && (
        <EmptyState title="Nothing to review">
          Payments that arrive late, for a voided invoice or from an unexpected address appear here with the transfers
          that were seen.
        </EmptyState>
      )}
      {rows.map((r) => (
        <article key={r.id} className="card" aria-labelledby={`${ids}-${r.id}`}>
          <h3 id={`${ids}-${r.id}`}>
            {r.description} <span className="muted small">{r.id}</span>
          </h3>
          <p>
            <span className="badge badge-review">{r.review_reason ?? 'review'}</span>{' '}
            {REASONS[r.review_reason ?? ''] ?? ''}
          </p>
          <p>
            Asked for {r.amount_usdc} USDC to <code className="wrap">{r.pay_to}</code> on {r.network}
            {r.expected_payer ? (
              <>
                {' '}
                from <code className="wrap">{r.expected_payer}</code>
              </>
            ) : null}
            ; open until {when(r.expires_at)}.
          </p>
          {r.evidence.length === 0 ? (
            <p className="muted">No transfer is attributed to it.</p>
          ) : (
            <DataTable
              caption={`Transfers seen for ${r.id}`}
              columns={['Transaction', 'From', 'Amount (USDC)', 'Block', 'Decision']}
              showCaption
              className="nested"
            >
              <tbody>
                {r.evidence.map((e) => (
                  <tr key={`${e.tx_hash}:${e.log_index}`}>
                    <td className="wrap">
                      <code>{e.tx_hash}</code>
                    </td>
                    <td className="wrap">
                      <code>{e.from}</code>
                    </td>
                    <td>{formatAtomic(e.amount_atomic)}</td>
                    <td>
                      {e.block_number} ({when(e.block_time)})
                    </td>
                    <td>
                      {e.decision}
                      {e.reason ? `: ${e.reason}` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </article>
      ))}
      {cursor && (
        <BusyButton busy={more.busy} busyLabel="Loading more…" onClick={() => void loadMore()}>
          Load more
        </BusyButton>
      )}
    </section>
  );
}
