import { useMemo } from 'react';
import { DeliveriesPanel, type DeliveriesApi } from '../../components/deliveries-panel';
import { useAccount } from '../../session';

/** /v1 deliveries with every attempt: `/api/company/deliveries[/{id}]`. No manual retry on /v1. */
export function CompanyDeliveriesPage() {
  const { api } = useAccount('company');
  const deliveries = useMemo<DeliveriesApi>(
    () => ({
      page: (before) => api.get('/api/company/deliveries', { query: { limit: 25, before: before ?? undefined } }),
      detail: (id) => api.get('/api/company/deliveries/{delivery_id}', { path: { delivery_id: id } }),
    }),
    [api],
  );
  return <DeliveriesPanel api={deliveries} />;
}
