import { useMemo } from 'react';
import { WebhooksPanel, type WebhooksApi } from '../../components/webhooks-panel';
import { useAccount } from '../../session';

/** /v1 webhooks: registered with `POST /v1/webhooks` (a session route), managed under `/api/company/webhooks`. */
export function CompanyWebhooksPage() {
  const { api } = useAccount('company');
  const hooks = useMemo<WebhooksApi>(
    () => ({
      list: async () => ({ webhooks: (await api.get('/api/company/webhooks')).data, eventTypes: null }),
      create: (url) => api.post('/v1/webhooks', { body: { url } }),
      rotate: (id) => api.post('/api/company/webhooks/{webhook_id}/rotate', { path: { webhook_id: id } }),
      disable: (id) => api.post('/api/company/webhooks/{webhook_id}/disable', { path: { webhook_id: id } }),
      remove: (id) => api.post('/api/company/webhooks/{webhook_id}/delete', { path: { webhook_id: id } }),
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
