import { useCallback, useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { ExtractionReview, ReviewEvidence, ReviewFile } from '../../backend/api';
import { BusyButton } from '../../components/buttons';
import { ErrorNotice, Progress, SuccessNotice } from '../../components/feedback';
import { bytes, useAction, useLoad, when } from '../../lib/hooks';
import { useAccount } from '../../session';
import { DataTable, TableBox } from '../../components/table-head';

interface Editing {
  document: number;
  field: string;
  value: string;
}

function Files({ files, label }: { files: readonly ReviewFile[]; label: string }) {
  return (
    <ul className="files" aria-label={label}>
      {files.map((f) => (
        <li key={f.index}>
          <a href={f.download_path} download={f.name}>
            {f.name}
          </a>{' '}
          <span className="muted small">({bytes(f.bytes)})</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Where a value was read, as text: "page 2, x 72–140, y 300–312" (points from the top-left), "page 2" without a box,
 * or the e-invoice XML element (docs/processing.md "E-invoices").
 */
function placeOf(ev: ReviewEvidence): string {
  if (ev.source === 'xml') return `XML ${ev.file ? `${ev.file} ` : ''}${ev.path ?? ''}`;
  const b = ev.box;
  const n = (x: number) => String(Math.round(x));
  return b ? `page ${ev.page}, x ${n(b.x0)}–${n(b.x1)}, y ${n(b.y0)}–${n(b.y1)}` : `page ${ev.page}`;
}

/** A value's or a line's evidence: the snippet it was read from and where it is. */
function EvidenceCell({ evidence }: { evidence: ReviewEvidence | null }) {
  if (!evidence) return <span className="muted">—</span>;
  return (
    <>
      <q>{evidence.snippet}</q> <span className="muted small">{placeOf(evidence)}</span>
    </>
  );
}

/**
 * The review of a completed flow-extract job (`GET /api/company/jobs/{id}/extraction`): each document's fields with
 * the value, what the engine read, the evidence (snippet, page and box) and the flag (the evidence check's or the
 * document checks', e.g. totals that do not add up); each line item with where the line is; a scalar field is corrected with
 * the expected form shown, sent with the current revision (the API's 409 and 422 messages are shown as they are);
 * the regenerated exports are then offered beside the originals. Line items are read-only. Every member may review.
 */
export function CompanyReviewPage() {
  const { id = '' } = useParams();
  return <ReviewView key={id} id={id} />; // another job's review starts afresh (no edit or revision carried over)
}

function ReviewView({ id }: { id: string }) {
  const { api } = useAccount('company');
  const loaded = useLoad(
    useCallback(() => api.get('/api/company/jobs/{job_id}/extraction', { path: { job_id: id } }), [api, id]),
  );
  const [latest, setLatest] = useState<ExtractionReview | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useAction();
  const ids = useId();
  const review = latest ?? loaded.data;

  const start = (document: number, field: string, value: string | null) => {
    save.clear();
    setSaved(null);
    setEditing({ document, field, value: value ?? '' });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing || !review) return;
    const value = editing.value.trim() === '' ? null : editing.value;
    const body = {
      revision: review.revision,
      corrections: [{ document: editing.document, field: editing.field, value }],
    };
    const next = await save.run(() =>
      api.post('/api/company/jobs/{job_id}/extraction/corrections', { path: { job_id: id }, body: body }),
    );
    if (next) {
      setLatest(next);
      setSaved(`${editing.field} is corrected (revision ${next.revision}); the exports were regenerated.`);
      setEditing(null);
    }
  };

  const reload = async () => {
    setLatest(null);
    save.clear();
    await loaded.reload();
  };

  return (
    <>
      <p>
        <Link to={`/company/jobs/${id}`}>Back to the job</Link>
      </p>
      <ErrorNotice error={loaded.error} title="Could not load the review" />
      {loaded.loading && !review && <Progress label="Loading the review…" />}
      {review && (
        <>
          <p>
            Job <code>{review.job_id}</code> · revision {review.revision} ·{' '}
            {review.review_required ? (
              <span className="badge badge-warn">needs review</span>
            ) : (
              <span className="badge badge-completed">nothing flagged</span>
            )}
            {review.expires_at && <span className="muted small"> · results kept until {when(review.expires_at)}</span>}
          </p>
          {saved && (
            <SuccessNotice>
              <p>{saved}</p>
              <p>Download the regenerated files below.</p>
            </SuccessNotice>
          )}
          {review.documents.map((d) => (
            <section key={d.index} aria-labelledby={`${ids}-doc-${d.index}`} className="card">
              <h2 id={`${ids}-doc-${d.index}`}>
                {d.document}{' '}
                <span className="muted small">
                  ({d.pages} page{d.pages === 1 ? '' : 's'})
                </span>
              </h2>
              {d.review_reasons.length > 0 && (
                <div className="notice notice-info">
                  <p className="notice-title">Why this document needs review</p>
                  <ul>
                    {d.review_reasons.map((r, i) => (
                      <li key={i}>{r}</li>
                    ))}
                  </ul>
                </div>
              )}
              <DataTable
                caption={`Fields of ${d.document}`}
                columns={['Field', 'Value', 'Extracted', 'Evidence', 'Flag']}
                actions
              >
                <tbody>
                  {review.fields.map((f) => {
                    const v = d.fields[f]!;
                    const open = editing?.document === d.index && editing.field === f;
                    return (
                      <tr key={f}>
                        <th scope="row">
                          <code>{f}</code>
                        </th>
                        <td className="wrap">
                          {v.value ?? <span className="muted">none</span>}
                          {v.corrected && <span className="badge badge-completed">corrected</span>}
                        </td>
                        <td className="wrap">{v.extracted_value ?? <span className="muted">none</span>}</td>
                        <td className="wrap">
                          <EvidenceCell evidence={v.evidence} />
                        </td>
                        <td>
                          {v.flagged ? (
                            <span className="badge badge-warn">{v.reason ?? 'flagged'}</span>
                          ) : (
                            <span className="muted">—</span>
                          )}
                        </td>
                        <td>
                          {open ? (
                            <form
                              onSubmit={(e) => void submit(e)}
                              className="form inline-form"
                              aria-label={`Correct ${f} of ${d.document}`}
                            >
                              <div className="field">
                                <label htmlFor={`${ids}-edit`}>New value of {f}</label>
                                <input
                                  id={`${ids}-edit`}
                                  value={editing.value}
                                  onChange={(e) => setEditing({ ...editing, value: e.target.value })}
                                  aria-describedby={`${ids}-edit-hint`}
                                  autoComplete="off"
                                  autoFocus
                                />
                                <p id={`${ids}-edit-hint`} className="hint">
                                  {review.forms[f] ? `Give ${review.forms[f]}.` : ''} Leave it empty when the document
                                  does not give it.
                                </p>
                              </div>
                              <div className="row">
                                <BusyButton type="submit" className="primary" busy={save.busy} busyLabel="Saving…">
                                  Save correction
                                </BusyButton>
                                <button type="button" onClick={() => setEditing(null)}>
                                  Cancel
                                </button>
                              </div>
                            </form>
                          ) : (
                            <button
                              type="button"
                              aria-label={`Correct ${f} of ${d.document}`}
                              onClick={() => start(d.index, f, v.value)}
                            >
                              Correct
                            </button>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </DataTable>
              {save.error && editing?.document === d.index && (
                <>
                  <ErrorNotice error={save.error} title="The correction was not saved" />
                  {save.error.status === 409 && (
                    <button type="button" onClick={() => void reload()}>
                      Load the current revision
                    </button>
                  )}
                </>
              )}
              {d.items.length > 0 && (
                <TableBox captionId={`${ids}-items-${d.index}`}>
                  <table className="nested">
                    <caption id={`${ids}-items-${d.index}`}>Line items of {d.document} (read-only)</caption>
                    <thead>
                      <tr>
                        <th scope="col">#</th>
                        {Object.keys(d.items[0]!).map((c) => (
                          <th scope="col" key={c}>
                            {c}
                          </th>
                        ))}
                        <th scope="col">Evidence</th>
                      </tr>
                    </thead>
                    <tbody>
                      {d.items.map((item, n) => (
                        <tr key={n}>
                          <th scope="row">{n + 1}</th>
                          {Object.entries(item).map(([c, cell]) => (
                            <td key={c} className={cell.flagged ? 'flagged' : undefined}>
                              {cell.value ?? <span className="muted">—</span>}
                              {cell.flagged && <span className="badge badge-warn">{cell.reason ?? 'flagged'}</span>}
                            </td>
                          ))}
                          <td className="wrap">
                            <EvidenceCell evidence={d.lines?.[n] ?? null} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableBox>
              )}
            </section>
          ))}
          <section aria-labelledby={`${ids}-files`}>
            <h2 id={`${ids}-files`}>Files</h2>
            {review.files.reviewed.length > 0 ? (
              <>
                <h3>Reviewed (revision {review.revision})</h3>
                <Files files={review.files.reviewed} label="Reviewed files" />
              </>
            ) : (
              <p className="muted">
                After a correction, the exports are regenerated with it and offered here beside the originals.
              </p>
            )}
            <h3>As extracted</h3>
            <Files files={review.files.original} label="Original files" />
          </section>
          {review.corrections.length > 0 && (
            <section aria-labelledby={`${ids}-log`}>
              <h2 id={`${ids}-log`}>Corrections</h2>
              <DataTable
                caption="Corrections, every revision"
                columns={['Revision', 'Document', 'Field', 'Before', 'After', 'By', 'When']}
              >
                <tbody>
                  {review.corrections.map((c) => (
                    <tr key={c.id}>
                      <th scope="row">{c.revision}</th>
                      <td className="wrap">{review.documents[c.document]?.document ?? c.document}</td>
                      <td>
                        <code>{c.field}</code>
                      </td>
                      <td className="wrap">{c.previous_value ?? '—'}</td>
                      <td className="wrap">{c.value ?? '—'}</td>
                      <td>{c.corrected_by}</td>
                      <td>{when(c.corrected_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            </section>
          )}
        </>
      )}
    </>
  );
}
