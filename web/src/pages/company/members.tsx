import { useCallback, useId, useState, type FormEvent } from 'react';
import type { Invitation, Member, Role } from '../../backend/api';
import { BusyButton, ConfirmButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

const ROLE_NAMES: Record<Role, string> = { member: 'Member', billing_admin: 'Billing administrator' };

/** Members (remove) and invitations (invite: e-mailed to the invitee, whose link accepts it; revoke): `/api/company/members`, `/invitations`. */
export function CompanyMembersPage() {
  const account = useAccount('company');
  const { api } = account;
  const team = useLoad(
    useCallback(async () => {
      const [members, invitations] = await Promise.all([
        api.get('/api/company/members'),
        api.get('/api/company/invitations'),
      ]);
      return { members: members.data, invitations: invitations.data };
    }, [api]),
  );
  const invite = useAction();
  const change = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const created = await invite.run(() =>
      api.post('/api/company/invitations', { body: { email: email.trim(), role } }),
    );
    if (created) {
      setEmail('');
      setDone(
        `An invitation was e-mailed to ${created.email}. They accept it from the link in that e-mail until ${when(created.expires_at)}.`,
      );
      await team.reload();
    }
  };

  const remove = async (m: Member) => {
    setDone(null);
    const r = await change.run(() =>
      api.post('/api/company/members/{member_id}/remove', { path: { member_id: m.id } }),
    );
    if (r) setDone(`${m.email} is removed; ${r.revoked_keys} of their keys revoked and their sessions ended.`);
    await team.reload();
  };

  const revoke = async (i: Invitation) => {
    setDone(null);
    if (
      await change.run(() =>
        api.post('/api/company/invitations/{invitation_id}/revoke', { path: { invitation_id: i.id } }),
      )
    )
      setDone(`The invitation of ${i.email} is revoked.`);
    await team.reload();
  };

  return (
    <>
      <section aria-labelledby={`${ids}-new`} className="card">
        <h2 id={`${ids}-new`}>Invite a member</h2>
        <form onSubmit={(e) => void submit(e)} className="form">
          <div className="field">
            <label htmlFor={`${ids}-email`}>E-mail address</label>
            <input
              id={`${ids}-email`}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-role`}>Role</label>
            <select
              id={`${ids}-role`}
              value={role}
              onChange={(e) => setRole(e.target.value as Role)}
              aria-describedby={`${ids}-role-hint`}
            >
              <option value="member">{ROLE_NAMES.member}</option>
              <option value="billing_admin">{ROLE_NAMES.billing_admin}</option>
            </select>
            <p id={`${ids}-role-hint`} className="hint">
              Billing administrators manage keys, members, webhooks and saved workflows.
            </p>
          </div>
          <BusyButton type="submit" className="primary" busy={invite.busy} busyLabel="Inviting…">
            Invite
          </BusyButton>
        </form>
        <p className="hint">
          The invitation is e-mailed to that address: only the person who reads it can accept it, with a password of
          their choice. Nobody else sees its link, you included.
        </p>
        <ErrorNotice error={invite.error} title="The invitation was not sent" />
      </section>

      {done && <SuccessNotice>{done}</SuccessNotice>}
      <ErrorNotice error={change.error} />
      <ErrorNotice error={team.error} title="Could not load the team" />
      {team.loading && !team.data && <Progress label="Loading the team…" />}

      {team.data && (
        <section aria-labelledby={`${ids}-members`}>
          <h2 id={`${ids}-members`}>Members</h2>
          <DataTable caption="Members of the company" columns={['E-mail', 'Role', 'Joined']} actions>
            <tbody>
              {team.data.members.map((m) => (
                <tr key={m.id}>
                  <th scope="row" className="wrap">
                    {m.email}
                    {m.email === account.email && <span className="muted"> (you)</span>}
                  </th>
                  <td>{ROLE_NAMES[m.role]}</td>
                  <td>{when(m.created_at)}</td>
                  <td>
                    {m.email !== account.email && (
                      <ConfirmButton
                        label={`Remove ${m.email}`}
                        confirmLabel="Yes, remove"
                        busy={change.busy}
                        onConfirm={() => void remove(m)}
                      >
                        Remove
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </section>
      )}

      {team.data && (
        <section aria-labelledby={`${ids}-invitations`}>
          <h2 id={`${ids}-invitations`}>Open invitations</h2>
          {team.data.invitations.length === 0 ? (
            <EmptyState title="No open invitations">
              Invite a colleague above; the invitation stays open until it is accepted, revoked or expires.
            </EmptyState>
          ) : (
            <DataTable caption="Open invitations" columns={['E-mail', 'Role', 'Expires']} actions>
              <tbody>
                {team.data.invitations.map((i) => (
                  <tr key={i.id}>
                    <th scope="row" className="wrap">
                      {i.email}
                    </th>
                    <td>{ROLE_NAMES[i.role]}</td>
                    <td>{when(i.expires_at)}</td>
                    <td>
                      <ConfirmButton
                        label={`Revoke the invitation of ${i.email}`}
                        confirmLabel="Yes, revoke"
                        busy={change.busy}
                        onConfirm={() => void revoke(i)}
                      >
                        Revoke
                      </ConfirmButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
        </section>
      )}
    </>
  );
}
