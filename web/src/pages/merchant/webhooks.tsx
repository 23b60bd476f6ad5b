import { useMemo } from 'react';
import { isProofEventType } from '../../backend/api';
import { WebhooksPanel, type WebhooksApi } from '../../components/webhooks-panel';
import { useAccount } from '../../session';

/** /proof webhook destinations: `GET /api/integrations` lists them and the event types; `/api/integrations/webhooks…` changes them. */
export function MerchantWebhooksPage() {
  const { api } = useAccount('merchant');
  const hooks = useMemo<WebhooksApi>(
    () => ({
      list: async () => {
        const o = await api.get('/api/integrations');
        return { webhooks: o.webhooks, eventTypes: o.event_types };
      },
      create: (url, events) =>
        api.post('/api/integrations/webhooks', { body: { url, events: events.filter(isProofEventType) } }),
      rotate: (id) => api.post('/api/integrations/webhooks/{id}/rotate', { path: { id } }),
      disable: (id) => api.post('/api/integrations/webhooks/{id}/disable', { path: { id } }),
      remove: (id) => api.post('/api/integrations/webhooks/{id}/delete', { path: { id } }),
    }),
    [api],
  );
  return <WebhooksPanel api={hooks} eventsHint="" />;
}
