import { useId, useState, type FormEvent } from 'react';
import type { ApiKey, KeyCreate, NewApiKey, Scope } from '../backend/api';
import { useAction, useLoad, when } from '../lib/hooks';
import { BusyButton, ConfirmButton } from './buttons';
import { EmptyState, ErrorNotice, Progress, SecretOnce, SuccessNotice } from './feedback';
import { DataTable } from './table-head';

export interface KeysApi {
  list(): Promise<ApiKey[]>;
  create(body: KeyCreate): Promise<NewApiKey>;
  revoke(id: string): Promise<ApiKey>;
}

/** API keys of either interface: the list, a form to create one (the secret shown once), and revocation. */
export function KeysPanel({ api, usedFor }: { api: KeysApi; usedFor: string }) {
  const keys = useLoad(api.list);
  const create = useAction();
  const revoke = useAction();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Record<Scope, boolean>>({ read: true, write: true });
  const [secret, setSecret] = useState<NewApiKey | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const chosen = (Object.keys(scopes) as Scope[]).filter((s) => scopes[s]);
    const key = await create.run(() => api.create({ name: name.trim(), scopes: chosen }));
    if (key) {
      setName('');
      setSecret(key);
      await keys.reload();
    }
  };

  const doRevoke = async (key: ApiKey) => {
    setDone(null);
    if (await revoke.run(() => api.revoke(key.id))) {
      setDone(`Key ${key.name} is revoked: requests with it are refused from now on.`);
      await keys.reload();
    }
  };

  const list = keys.data ?? [];
  return (
    <>
      {secret?.secret && (
        <SecretOnce
          title={`Key ${secret.name} is ready`}
          what="the key's secret"
          secret={secret.secret}
          onDone={() => setSecret(null)}
        />
      )}
      <section aria-labelledby={`${ids}-new`} className="card">
        <h2 id={`${ids}-new`}>Create a key</h2>
        <form onSubmit={(e) => void submit(e)} className="form">
          <div className="field">
            <label htmlFor={`${ids}-name`}>Name</label>
            <input
              id={`${ids}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={100}
              autoComplete="off"
              aria-describedby={`${ids}-name-hint`}
            />
            <p id={`${ids}-name-hint`} className="hint">
              Say where it is used, e.g. &ldquo;checkout server&rdquo;.
            </p>
          </div>
          <fieldset className="field">
            <legend>Scopes</legend>
            {(['read', 'write'] as const).map((s) => (
              <label key={s} className="check">
                <input
                  type="checkbox"
                  checked={scopes[s]}
                  onChange={(e) => setScopes({ ...scopes, [s]: e.target.checked })}
                />{' '}
                {s}
              </label>
            ))}
          </fieldset>
          <BusyButton type="submit" className="primary" busy={create.busy} busyLabel="Creating key…">
            Create key
          </BusyButton>
        </form>
        <ErrorNotice error={create.error} title="The key was not created" />
      </section>

      <section aria-labelledby={`${ids}-list`}>
        <h2 id={`${ids}-list`}>Your keys</h2>
        {done && <SuccessNotice>{done}</SuccessNotice>}
        <ErrorNotice error={revoke.error} title="The key was not revoked" />
        <ErrorNotice error={keys.error} title="Could not load the keys" />
        {keys.loading && !keys.data && <Progress label="Loading keys…" />}
        {keys.data && list.length === 0 && (
          <EmptyState title="No keys yet">
            Create a key above to call {usedFor}. Its secret is shown once, when you create it.
          </EmptyState>
        )}
        {list.length > 0 && (
          <DataTable caption="API keys" columns={['Name', 'Key', 'Scopes', 'Status', 'Created', 'Last used']} actions>
            <tbody>
              {list.map((k) => (
                <tr key={k.id}>
                  <th scope="row" className="wrap">
                    {k.name}
                  </th>
                  <td>
                    <code>
                      {k.prefix}…{k.last4}
                    </code>
                  </td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>
                    <span className={`badge badge-${k.status}`}>{k.status}</span>
                    {'usable' in k && k.usable === false && k.status === 'active' && (
                      <span className="badge badge-warn">over plan limit</span>
                    )}
                  </td>
                  <td>{when(k.created_at)}</td>
                  <td>{when(k.last_used_at)}</td>
                  <td>
                    {k.status === 'active' && (
                      <ConfirmButton
                        label={`Revoke key ${k.name}`}
                        confirmLabel="Yes, revoke"
                        busy={revoke.busy}
                        onConfirm={() => void doRevoke(k)}
                      >
                        Revoke
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </section>
    </>
  );
}
