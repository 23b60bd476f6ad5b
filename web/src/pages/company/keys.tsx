import { useMemo } from 'react';
import type { ApiKey, NewApiKey } from '../../backend/types';
import { KeysPanel, type KeysApi } from '../../components/keys-panel';
import { useAccount } from '../../session';

/** /v1 keys: `/api/company/keys` (billing administrators). */
export function CompanyKeysPage() {
  const { api } = useAccount('company');
  const keys = useMemo<KeysApi>(
    () => ({
      list: async () => (await api.get<{ data: ApiKey[] }>('/keys')).data,
      create: (body) => api.post<NewApiKey>('/keys', body),
      revoke: (id) => api.post<ApiKey>(`/keys/${encodeURIComponent(id)}/revoke`),
    }),
    [api],
  );
  return <KeysPanel api={keys} usedFor="the /v1 processing API" />;
}
