import { useMemo } from 'react';
import { KeysPanel, type KeysApi } from '../../components/keys-panel';
import { useAccount } from '../../session';

/** /v1 keys: `/api/company/keys` (billing administrators). */
export function CompanyKeysPage() {
  const { api } = useAccount('company');
  const keys = useMemo<KeysApi>(
    () => ({
      list: async () => (await api.get('/api/company/keys')).data,
      create: (body) => api.post('/api/company/keys', { body: body }),
      revoke: (id) => api.post('/api/company/keys/{key_id}/revoke', { path: { key_id: id } }),
    }),
    [api],
  );
  return <KeysPanel api={keys} usedFor="the /v1 processing API" />;
}
