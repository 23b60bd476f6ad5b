import { useCallback, useId, useState, type FormEvent } from 'react';
import type { SavedWorkflow, SavedWorkflowInput } from '../../backend/api';
import { BusyButton, ConfirmButton } from '../../components/buttons';
import { EmptyState, ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable } from '../../components/table-head';

const EMPTY: SavedWorkflowInput = { name: '', fields: [], instructions: null };

/** Saved extraction workflows: `/api/company/workflows` (every member reads; billing administrators change them). */
export function CompanyWorkflowsPage() {
  const account = useAccount('company');
  const { api } = account;
  const admin = account.role === 'billing_admin';
  const list = useLoad(useCallback(async () => (await api.get('/api/company/workflows')).data, [api]));
  const save = useAction();
  const change = useAction();
  const [editing, setEditing] = useState<SavedWorkflow | null>(null);
  const [name, setName] = useState('');
  const [fields, setFields] = useState('');
  const [instructions, setInstructions] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();

  const edit = (w: SavedWorkflow | null) => {
    const v = w ?? { ...EMPTY };
    setEditing(w);
    setName(v.name);
    setFields(v.fields.join('\n'));
    setInstructions(v.instructions ?? '');
    setDone(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const body: SavedWorkflowInput = {
      name: name.trim(),
      fields: fields
        .split('\n')
        .map((f) => f.trim())
        .filter(Boolean),
      instructions: instructions.trim() ? instructions.trim() : null,
    };
    const saved = await save.run(() =>
      editing
        ? api.patch('/api/company/workflows/{workflow_id}', { path: { workflow_id: editing.id }, body: body })
        : api.post('/api/company/workflows', { body: body }),
    );
    if (saved) {
      setDone(
        editing
          ? `${saved.name} is saved (revision ${saved.revision}).`
          : `${saved.name} is created: use its id ${saved.id} as workflow_id in flow-extract requests.`,
      );
      edit(null);
      await list.reload();
    }
  };

  const remove = async (w: SavedWorkflow) => {
    setDone(null);
    if (
      await change.run(() => api.post('/api/company/workflows/{workflow_id}/delete', { path: { workflow_id: w.id } }))
    )
      setDone(`${w.name} is deleted. Jobs that used it keep their results.`);
    if (editing?.id === w.id) edit(null);
    await list.reload();
  };

  return (
    <>
      {admin && (
        <section aria-labelledby={`${ids}-form`} className="card">
          <h2 id={`${ids}-form`}>{editing ? `Edit ${editing.name}` : 'Create a saved workflow'}</h2>
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
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-fields`}>Fields to extract</label>
              <textarea
                id={`${ids}-fields`}
                value={fields}
                onChange={(e) => setFields(e.target.value)}
                rows={4}
                required
                aria-describedby={`${ids}-fields-hint`}
              />
              <p id={`${ids}-fields-hint`} className="hint">
                One field name per line (1 to 30), e.g. invoice_number.
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${ids}-instructions`}>Instructions (optional)</label>
              <textarea
                id={`${ids}-instructions`}
                value={instructions}
                onChange={(e) => setInstructions(e.target.value)}
                rows={3}
                maxLength={4000}
              />
            </div>
            <div className="row">
              <BusyButton type="submit" className="primary" busy={save.busy} busyLabel="Saving…">
                {editing ? 'Save changes' : 'Create workflow'}
              </BusyButton>
              {editing && (
                <button type="button" onClick={() => edit(null)}>
                  Cancel
                </button>
              )}
            </div>
          </form>
          <ErrorNotice error={save.error} title="The workflow was not saved" />
        </section>
      )}
      <section aria-labelledby={`${ids}-list`}>
        <h2 id={`${ids}-list`}>Saved workflows</h2>
        {done && <SuccessNotice>{done}</SuccessNotice>}
        <ErrorNotice error={change.error} />
        <ErrorNotice error={list.error} title="Could not load the saved workflows" />
        {list.loading && !list.data && <Progress label="Loading saved workflows…" />}
        {list.data && list.data.length === 0 && (
          <EmptyState title="No saved workflows yet">
            {admin
              ? 'Create one above: a named set of fields that flow-extract requests reuse by id.'
              : 'A billing administrator of your company can create them.'}
          </EmptyState>
        )}
        {list.data && list.data.length > 0 && (
          <DataTable
            caption="Saved workflows"
            columns={['Name', 'Id', 'Fields', 'Revision', 'Updated']}
            actions={admin}
          >
            <tbody>
              {list.data.map((w) => (
                <tr key={w.id}>
                  <th scope="row" className="wrap">
                    {w.name}
                  </th>
                  <td>
                    <code>{w.id}</code>
                  </td>
                  <td className="wrap">{w.fields.join(', ')}</td>
                  <td>{w.revision}</td>
                  <td>{when(w.updated_at)}</td>
                  {admin && (
                    <td>
                      <div className="actions">
                        <button type="button" aria-label={`Edit ${w.name}`} onClick={() => edit(w)}>
                          Edit
                        </button>
                        <ConfirmButton
                          label={`Delete ${w.name}`}
                          confirmLabel="Yes, delete"
                          busy={change.busy}
                          onConfirm={() => void remove(w)}
                        >
                          Delete
                        </ConfirmButton>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </section>
    </>
  );
}
