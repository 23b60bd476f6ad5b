import { useId, useState, type FormEvent } from 'react';
import type { NewWebhook, Rotated, Webhook } from '../backend/api';
import { useAction, useLoad, when } from '../lib/hooks';
import { BusyButton, ConfirmButton } from './buttons';
import { EmptyState, ErrorNotice, Progress, SecretOnce, SuccessNotice } from './feedback';
import { DataTable } from './table-head';

export interface WebhooksApi {
  list(): Promise<{ webhooks: Webhook[]; eventTypes: string[] | null }>;
  /** `events`: the chosen event types where the interface filters by type (/proof), else ignored. */
  create(url: string, events: string[]): Promise<NewWebhook>;
  rotate(id: string): Promise<Rotated>;
  disable(id: string): Promise<Webhook>;
  remove(id: string): Promise<unknown>;
}

type Shown = { title: string; secret: string };

/** Webhook destinations of either interface: register (secret shown once), rotate (new secret once), disable, delete. */
export function WebhooksPanel({ api, eventsHint }: { api: WebhooksApi; eventsHint: string }) {
  const hooks = useLoad(api.list);
  const create = useAction();
  const change = useAction();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<Set<string> | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();

  const eventTypes = hooks.data?.eventTypes ?? null;
  const chosen = events ?? new Set(eventTypes ?? []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const created = await create.run(() => api.create(url.trim(), [...chosen]));
    if (created) {
      setUrl('');
      if (created.secret) setShown({ title: `Webhook ${created.url} is registered`, secret: created.secret });
      await hooks.reload();
    }
  };

  const act = async (w: Webhook, what: 'rotate' | 'disable' | 'remove') => {
    setDone(null);
    if (what === 'rotate') {
      const r = await change.run(() => api.rotate(w.id));
      if (r?.secret)
        setShown({ title: `New signing secret for ${w.url} (version ${r.key_version})`, secret: r.secret });
    } else if (what === 'disable') {
      if (await change.run(() => api.disable(w.id))) setDone(`${w.url} is disabled: nothing more is delivered to it.`);
    } else if (await change.run(() => api.remove(w.id))) {
      setDone(`${w.url} is deleted. Its delivery history is kept.`);
    }
    await hooks.reload();
  };

  const list = hooks.data?.webhooks ?? [];
  return (
    <>
      {shown && (
        <SecretOnce title={shown.title} what="the signing secret" secret={shown.secret} onDone={() => setShown(null)} />
      )}
      <section aria-labelledby={`${ids}-new`} className="card">
        <h2 id={`${ids}-new`}>Register a webhook</h2>
        <form onSubmit={(e) => void submit(e)} className="form">
          <div className="field">
            <label htmlFor={`${ids}-url`}>URL</label>
            <input
              id={`${ids}-url`}
              type="url"
              inputMode="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              placeholder="https://example.com/hooks/paycore"
              aria-describedby={`${ids}-url-hint`}
            />
            <p id={`${ids}-url-hint`} className="hint">
              A public HTTPS address. Deliveries are signed with a secret shown once, when you register it.
            </p>
          </div>
          {eventTypes ? (
            <fieldset className="field">
              <legend>Events</legend>
              {eventTypes.map((t) => (
                <label key={t} className="check">
                  <input
                    type="checkbox"
                    checked={chosen.has(t)}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(t);
                      else next.delete(t);
                      setEvents(next);
                    }}
                  />{' '}
                  <code>{t}</code>
                </label>
              ))}
            </fieldset>
          ) : (
            <p className="hint">{eventsHint}</p>
          )}
          <BusyButton type="submit" className="primary" busy={create.busy} busyLabel="Registering…">
            Register webhook
          </BusyButton>
        </form>
        <ErrorNotice error={create.error} title="The webhook was not registered" />
      </section>

      <section aria-labelledby={`${ids}-list`}>
        <h2 id={`${ids}-list`}>Registered webhooks</h2>
        {done && <SuccessNotice>{done}</SuccessNotice>}
        <ErrorNotice error={change.error} />
        <ErrorNotice error={hooks.error} title="Could not load the webhooks" />
        {hooks.loading && !hooks.data && <Progress label="Loading webhooks…" />}
        {change.busy && <Progress label="Working…" />}
        {hooks.data && list.length === 0 && (
          <EmptyState title="No webhooks yet">Register a URL above to be told about events as they happen.</EmptyState>
        )}
        {list.length > 0 && (
          <DataTable caption="Webhooks" columns={['URL', 'Events', 'Status', 'Secret version', 'Created']} actions>
            <tbody>
              {list.map((w) => (
                <tr key={w.id}>
                  <th scope="row" className="wrap">
                    {w.url}
                  </th>
                  <td className="wrap">{w.events.join(', ')}</td>
                  <td>
                    <span className={`badge badge-${w.status}`}>{w.status}</span>
                    {'usable' in w && w.usable === false && w.status === 'enabled' && (
                      <span className="badge badge-warn">over plan limit</span>
                    )}
                  </td>
                  <td>{w.key_version}</td>
                  <td>{when(w.created_at)}</td>
                  <td>
                    <div className="actions">
                      {w.status === 'enabled' && (
                        <>
                          <ConfirmButton
                            label={`Rotate secret of ${w.url}`}
                            confirmLabel="Yes, rotate"
                            busy={change.busy}
                            onConfirm={() => void act(w, 'rotate')}
                          >
                            Rotate secret
                          </ConfirmButton>
                          <ConfirmButton
                            label={`Disable ${w.url}`}
                            confirmLabel="Yes, disable"
                            busy={change.busy}
                            onConfirm={() => void act(w, 'disable')}
                          >
                            Disable
                          </ConfirmButton>
                        </>
                      )}
                      <ConfirmButton
                        label={`Delete ${w.url}`}
                        confirmLabel="Yes, delete"
                        busy={change.busy}
                        onConfirm={() => void act(w, 'remove')}
                      >
                        Delete
                      </ConfirmButton>
                    </div>
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
