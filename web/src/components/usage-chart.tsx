import { useId } from 'react';
import type { LedgerEntry } from '../backend/api';
import { TableHead } from './table-head';

/** Credits charged per day (UTC), from the ledger entries loaded so far, oldest day first. */
export function dailyUse(entries: readonly LedgerEntry[]): Array<{ day: string; used: number }> {
  const byDay = new Map<string, number>();
  for (const e of entries) {
    if (e.kind !== 'charge') continue;
    const day = e.created_at.slice(0, 10);
    byDay.set(day, (byDay.get(day) ?? 0) + e.amount);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, used]) => ({ day, used }));
}

const W = 640;
const H = 220;
const PAD = { top: 16, right: 16, bottom: 40, left: 48 };

/**
 * A bar chart of credits used per day, drawn here as SVG (no chart library, nothing fetched; colours come from the
 * stylesheet's classes, so the CSP needs no inline style). The numbers are also in a table for screen readers.
 */
export function UsageChart({ entries }: { entries: readonly LedgerEntry[] }) {
  const ids = useId();
  const days = dailyUse(entries);
  if (days.length === 0)
    return (
      <p className="muted">
        No credits have been used yet: the chart shows the credits charged per day once jobs complete.
      </p>
    );
  const max = Math.max(...days.map((d) => d.used));
  const top = niceCeil(max);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / days.length;
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const ticks = [0, top / 2, top];
  const labelEvery = Math.ceil(days.length / 8);
  const total = days.reduce((s, d) => s + d.used, 0);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${ids}-title ${ids}-desc`} className="chart-svg">
        <title id={`${ids}-title`}>Credits used per day</title>
        <desc id={`${ids}-desc`}>
          {`${total} credits used over ${days.length} day${days.length === 1 ? '' : 's'}, from ${days[0]!.day} to ${days.at(-1)!.day}; at most ${max} in a day.`}
        </desc>
        {ticks.map((t) => (
          <g key={t}>
            <line className="chart-grid" x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
            <text className="chart-label" x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
              {formatTick(t)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <rect
                className="chart-bar"
                x={x}
                y={y(d.used)}
                width={barW}
                height={Math.max(1, PAD.top + plotH - y(d.used))}
              >
                <title>{`${d.day}: ${d.used} credits`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text className="chart-label" x={x + barW / 2} y={H - PAD.bottom + 16} textAnchor="middle">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        <line className="chart-axis" x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} />
      </svg>
      <figcaption className="muted small">Credits charged per day (UTC) in the ledger entries loaded below.</figcaption>
      <table className="visually-hidden">
        <TableHead caption="Credits used per day" columns={['Day', 'Credits used']} showCaption />
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.used}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** A round axis maximum at or above `v` (1, 2 or 5 times a power of ten). */
function niceCeil(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const formatTick = (t: number) => (Number.isInteger(t) ? String(t) : t.toFixed(1));
