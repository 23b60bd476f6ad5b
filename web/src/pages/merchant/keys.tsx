import { useMemo } from 'react';
import type { ApiKey, MerchantOverview, NewApiKey } from '../../backend/types';
import { KeysPanel, type KeysApi } from '../../components/keys-panel';
import { useAccount } from '../../session';

/** /proof/v1 keys: listed by `GET /api/integrations`, created and revoked under `/api/integrations/keys`. */
export function MerchantKeysPage() {
  const { api } = useAccount('merchant');
  const keys = useMemo<KeysApi>(
    () => ({
      list: async () => (await api.get<MerchantOverview>('')).keys,
      create: (body) => api.post<NewApiKey>('/keys', body),
      revoke: (id) => api.post<ApiKey>(`/keys/${encodeURIComponent(id)}/revoke`),
    }),
    [api],
  );
  return <KeysPanel api={keys} usedFor="/proof/v1 (payment requests and invoices)" />;
}
