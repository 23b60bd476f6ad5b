import { useMemo } from 'react';
import type { MerchantOverview, NewWebhook, Rotated, Webhook } from '../../backend/types';
import { WebhooksPanel, type WebhooksApi } from '../../components/webhooks-panel';
import { useAccount } from '../../session';

/** /proof webhook destinations: `GET /api/integrations` lists them and the event types; `/api/integrations/webhooks…` changes them. */
export function MerchantWebhooksPage() {
  const { api } = useAccount('merchant');
  const hooks = useMemo<WebhooksApi>(
    () => ({
      list: async () => {
        const o = await api.get<MerchantOverview>('');
        return { webhooks: o.webhooks, eventTypes: o.event_types };
      },
      create: (url, events) => api.post<NewWebhook>('/webhooks', { url, events }),
      rotate: (id) => api.post<Rotated>(`/webhooks/${encodeURIComponent(id)}/rotate`),
      disable: (id) => api.post<Webhook>(`/webhooks/${encodeURIComponent(id)}/disable`),
      remove: (id) => api.post(`/webhooks/${encodeURIComponent(id)}/delete`),
    }),
    [api],
  );
  return <WebhooksPanel api={hooks} eventsHint="" />;
}
