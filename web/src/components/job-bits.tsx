import type { Job, ResultFile } from '../backend/api';
import { bytes } from '../lib/hooks';

/** A job's or batch's state as a badge. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}

/** The session's download path of a job's result file (the record's `download_path` is the /v1 one, for API keys). */
export const sessionDownload = (jobId: string, index: number) =>
  `/api/company/jobs/${encodeURIComponent(jobId)}/results/${index}`;

/** A job's result files as download links (same origin: the session cookie authenticates them). */
export function ResultFiles({
  job,
  files,
}: {
  job: Pick<Job, 'id'>;
  files: readonly Pick<ResultFile, 'name' | 'bytes'>[];
}) {
  return (
    <ul className="files">
      {files.map((f, i) => (
        <li key={`${i}-${f.name}`}>
          <a href={sessionDownload(job.id, i)} download={f.name}>
            {f.name}
          </a>{' '}
          <span className="muted small">({bytes(f.bytes)})</span>
        </li>
      ))}
    </ul>
  );
}

/** A progress bar of the part done, with its numbers in words for screen readers. */
export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  return (
    <div className="bar-row">
      <progress max={total || 1} value={done} aria-label={label} />
      <span>
        {done} of {total}
      </span>
    </div>
  );
}
