import { useMemo } from 'react';
import { DeliveriesPanel, type DeliveriesApi } from '../../components/deliveries-panel';
import { useAccount } from '../../session';

/** /proof deliveries: `GET /api/integrations/deliveries` and every attempt (`GET /api/integrations/deliveries/{id}`) and the manual retry. */
export function MerchantDeliveriesPage() {
  const { api } = useAccount('merchant');
  const deliveries = useMemo<DeliveriesApi>(
    () => ({
      page: (before) => api.get('/api/integrations/deliveries', { query: { limit: 25, before: before ?? undefined } }),
      detail: (id) => api.get('/api/integrations/deliveries/{id}', { path: { id } }),
      retry: (id) => api.post('/api/integrations/deliveries/{id}/retry', { path: { id } }),
    }),
    [api],
  );
  return <DeliveriesPanel api={deliveries} />;
}
