import { useMemo } from 'react';
import type { Delivery, DeliveryDetail, Page } from '../../backend/types';
import { DeliveriesPanel, type DeliveriesApi } from '../../components/deliveries-panel';
import { useAccount } from '../../session';

/** /v1 deliveries with every attempt: `/api/company/deliveries[/{id}]`. No manual retry on /v1. */
export function CompanyDeliveriesPage() {
  const { api } = useAccount('company');
  const deliveries = useMemo<DeliveriesApi>(
    () => ({
      page: (before) =>
        api.get<Page<Delivery>>(`/deliveries?limit=25${before ? `&before=${encodeURIComponent(before)}` : ''}`),
      detail: (id) => api.get<DeliveryDetail>(`/deliveries/${encodeURIComponent(id)}`),
    }),
    [api],
  );
  return <DeliveriesPanel api={deliveries} />;
}
