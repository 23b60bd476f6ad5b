import { useMemo } from 'react';
import { KeysPanel, type KeysApi } from '../../components/keys-panel';
import { useAccount } from '../../session';

/** /proof/v1 keys: listed by `GET /api/integrations`, created and revoked under `/api/integrations/keys`. */
export function MerchantKeysPage() {
  const { api } = useAccount('merchant');
  const keys = useMemo<KeysApi>(
    () => ({
      list: async () => (await api.get('/api/integrations')).keys,
      create: (body) => api.post('/api/integrations/keys', { body: body }),
      revoke: (id) => api.post('/api/integrations/keys/{id}/revoke', { path: { id } }),
    }),
    [api],
  );
  return <KeysPanel api={keys} usedFor="/proof/v1 (payment requests and invoices)" />;
}
