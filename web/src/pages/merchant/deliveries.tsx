import { useMemo } from 'react';
import type { Delivery, DeliveryDetail, Page } from '../../backend/types';
import { DeliveriesPanel, type DeliveriesApi } from '../../components/deliveries-panel';
import { useAccount } from '../../session';

/** /proof deliveries: `GET /api/integrations/deliveries` and every attempt (`GET /api/integrations/deliveries/{id}`) and the manual retry. */
export function MerchantDeliveriesPage() {
  const { api } = useAccount('merchant');
  const deliveries = useMemo<DeliveriesApi>(
    () => ({
      page: (before) =>
        api.get<Page<Delivery>>(`/deliveries?limit=25${before ? `&before=${encodeURIComponent(before)}` : ''}`),
      detail: (id) => api.get<DeliveryDetail>(`/deliveries/${encodeURIComponent(id)}`),
      retry: (id) => api.post<Delivery>(`/deliveries/${encodeURIComponent(id)}/retry`),
    }),
    [api],
  );
  return <DeliveriesPanel api={deliveries} />;
}
