import { useMemo } from 'react';
import type { NewWebhook, Rotated, Webhook } from '../../backend/types';
import { WebhooksPanel, type WebhooksApi } from '../../components/webhooks-panel';
import { useAccount } from '../../session';

/** /v1 webhooks: registered with `POST /v1/webhooks` (a session route), managed under `/api/company/webhooks`. */
export function CompanyWebhooksPage() {
  const { api } = useAccount('company');
  const hooks = useMemo<WebhooksApi>(
    () => ({
      list: async () => ({ webhooks: (await api.get<{ data: Webhook[] }>('/webhooks')).data, eventTypes: null }),
      create: (url) => api.post<NewWebhook>('/v1/webhooks', { url }),
      rotate: (id) => api.post<Rotated>(`/webhooks/${encodeURIComponent(id)}/rotate`),
      disable: (id) => api.post<Webhook>(`/webhooks/${encodeURIComponent(id)}/disable`),
      remove: (id) => api.post(`/webhooks/${encodeURIComponent(id)}/delete`),
    }),
    [api],
  );
  return (
    <WebhooksPanel
      api={hooks}
      eventsHint="Every /v1 event type is sent to it; a job or batch names the webhook (webhook_id) and chooses what it is told."
    />
  );
}
