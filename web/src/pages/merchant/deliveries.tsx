import { useMemo } from 'react';
import type { Delivery, Page } from '../../backend/types';
import { DeliveriesPanel, type DeliveriesApi } from '../../components/deliveries-panel';
import { useAccount } from '../../session';

/** /proof deliveries: `GET /api/integrations/deliveries` and the manual retry. Per-attempt detail waits for its route. */
export function MerchantDeliveriesPage() {
  const { api } = useAccount('merchant');
  const deliveries = useMemo<DeliveriesApi>(
    () => ({
      page: (before) => api.get<Page<Delivery>>(`/deliveries?limit=25${before ? `&before=${encodeURIComponent(before)}` : ''}`),
      retry: (id) => api.post<Delivery>(`/deliveries/${encodeURIComponent(id)}/retry`),
    }),
    [api],
  );
  return <DeliveriesPanel api={deliveries} />;
}
