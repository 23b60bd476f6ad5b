import { fmt, percentile, table } from './measure.js';
import type { ProxiedCall } from './json-rpc-proxy.js';

/** The JSON-RPC calls of one watcher scan: it starts with eth_blockNumber (the final height), after eth_chainId once. */
export interface ScanCalls {
  calls: ProxiedCall[];
  /** Blocks its eth_getLogs covered (0 for a scan that was caught up and read nothing). */
  blocks: number;
  fromBlock: number | null;
  toBlock: number | null;
}

/**
 * Splits a proxy's call log into scans: each scan of `scanNetwork` asks eth_blockNumber exactly once, first
 * (an eth_chainId before it, asked once per endpoint, belongs to it too). Calls before the first eth_blockNumber
 * (the tail of a scan that began earlier) form a scan of their own whose first call is not eth_blockNumber.
 */
export function splitScans(calls: readonly ProxiedCall[]): ScanCalls[] {
  const scans: ProxiedCall[][] = [];
  for (const c of calls) {
    const current = scans.at(-1);
    const onlyChainId = current !== undefined && current.every((x) => x.method === 'eth_chainId');
    if (!current || (c.method === 'eth_blockNumber' && !onlyChainId)) scans.push([c]);
    else current.push(c);
  }
  return scans.map((s) => {
    const logs = s.filter((c) => c.method === 'eth_getLogs');
    const range = logs.map((c) => c.params[0] as { fromBlock?: string; toBlock?: string } | undefined);
    const from = range.length ? Math.min(...range.map((r) => Number(r?.fromBlock))) : null;
    const to = range.length ? Math.max(...range.map((r) => Number(r?.toBlock))) : null;
    return {
      calls: s,
      blocks: range.reduce((sum, r) => sum + Number(r?.toBlock) - Number(r?.fromBlock) + 1, 0),
      fromBlock: from,
      toBlock: to,
    };
  });
}

export interface LatencySample {
  /** Blocks mined after the one that made the transfer final, until the request was seen PAID. */
  blocks: number;
  /** From that block being mined to the request being seen PAID. */
  ms: number;
}

export interface ScanCase {
  label: string;
  /** AWAITING requests on the watched wallets when the range was mined. */
  open: number;
  wallets: number;
  payments: number;
  /** Scans that read a range (an eth_getLogs); idle scans (caught up) are reported apart. */
  working: ScanCalls[];
  idle: number;
  /** performance.now() span from the first call of the first working scan to the range being recorded. */
  seconds: number;
}

export interface Check {
  ok: boolean;
  text: string;
}

export interface WatcherBenchReport {
  machine: string;
  chain: string;
  watcher: string;
  database: string;
  latency: {
    n: number;
    warmup: number;
    everyBlocks: number;
    blockMs: number;
    confirmations: number;
    pollMs: number;
    samples: LatencySample[];
    minedSeconds: number;
    blocksMined: number;
  };
  cases: ScanCase[];
  scansPerCase: number;
  rangeBlocks: number;
  requestCreation: string;
  checks: Check[];
  warnings: { count: number; first: string[] };
}

const METHODS = ['eth_blockNumber', 'eth_getLogs', 'eth_getBlockByNumber'] as const;
const count = (scans: ScanCalls[], method?: string) =>
  scans.reduce((n, s) => n + s.calls.filter((c) => method === undefined || c.method === method).length, 0);
const callsPerScan = (c: ScanCase) => count(c.working) / c.working.length;

export const isHealthy = (r: WatcherBenchReport) => r.checks.length > 0 && r.checks.every((c) => c.ok);

export function formatReport(r: WatcherBenchReport): string {
  const l = r.latency;
  const q = (values: number[], p: number, digits: number) =>
    values.length ? percentile(values, p).toFixed(digits) : 'n/a';
  const blocks = l.samples.map((s) => s.blocks);
  const ms = l.samples.map((s) => s.ms);
  const latencyRows = [
    ['', 'p50', 'p95', 'max', 'min'],
    [
      'blocks after the final block',
      q(blocks, 0.5, 0),
      q(blocks, 0.95, 0),
      q(blocks, 1, 0),
      blocks.length ? String(Math.min(...blocks)) : 'n/a',
    ],
    [
      'ms after the final block',
      q(ms, 0.5, 1),
      q(ms, 0.95, 1),
      q(ms, 1, 1),
      ms.length ? Math.min(...ms).toFixed(1) : 'n/a',
    ],
  ];

  const secondsPerScan = (c: ScanCase) => c.seconds / c.working.length;
  const caseRows = r.cases.map((c) => {
    const other = count(c.working) - METHODS.reduce((n, m) => n + count(c.working, m), 0);
    return [
      c.label,
      String(c.open),
      String(c.wallets),
      String(c.working.reduce((n, s) => n + s.blocks, 0)),
      String(c.working.length),
      ...METHODS.map((m) => String(count(c.working, m))),
      String(other),
      String(count(c.working)),
      callsPerScan(c).toFixed(2),
      fmt.ms(secondsPerScan(c) * 1000),
    ];
  });
  const [small, large] = r.cases;
  const ratio = small && large ? callsPerScan(large) / callsPerScan(small) : Number.NaN;

  const lines = [
    '',
    `watcher benchmark: ${r.machine}`,
    `chain: ${r.chain}`,
    `watcher: ${r.watcher}`,
    `database: ${r.database}`,
    '',
    `1. detection latency: N=${l.samples.length} payments of the exact amount (+${l.warmup} warm-up), one every ${l.everyBlocks} blocks, a block mined every ${l.blockMs} ms`,
    `   from the block that makes the transfer final (its ${l.confirmations}${ordinal(l.confirmations)} confirmation) being mined to the request seen PAID (database polled every 10 ms)`,
    table(latencyRows),
    `   ${l.blocksMined} blocks mined in ${l.minedSeconds.toFixed(1)} s (one every ${((l.minedSeconds * 1000) / l.blocksMined).toFixed(0)} ms on average)`,
    `   a caught-up watcher scans once per poll (${l.pollMs} ms) plus the scan itself, so expect about ${(l.pollMs / 2).toFixed(0)} ms + one scan at p50 and at most`,
    `   ${l.pollMs} ms + one scan (${(l.pollMs / l.blockMs).toFixed(1)} blocks at this block interval); the confirmations come before that and are not counted here.`,
    '',
    `2. JSON-RPC calls per scan, counted by a proxy in front of the node: ${r.scansPerCase} x ${r.rangeBlocks} blocks mined at once, then the watcher scans them`,
    `   (ranges of ${r.rangeBlocks}); the same number of payments in each case, each in its own block`,
    table([
      [
        '',
        'open requests',
        'wallets',
        'blocks scanned',
        'scans',
        ...METHODS,
        'other',
        'calls',
        'calls/scan',
        'wall/scan',
      ],
      ...caseRows,
    ]),
    '',
    `ratio calls per scan ${large?.label ?? '?'} / ${small?.label ?? '?'}: ${fmt.ratio(ratio)}`,
    `   idle scans (caught up, nothing new: one eth_blockNumber each) are left out: ${r.cases.map((c) => `${c.label} ${c.idle}`).join(', ')}`,
    '   a scan = eth_blockNumber + ONE eth_getLogs (USDC contract, Transfer topic, the watched wallets) + one eth_getBlockByNumber',
    '   per block holding a matching transfer; open requests are matched in PostgreSQL, never on the node.',
    '   wall/scan (first call of the first scan to the range recorded, / scans) is mostly the Temporal round trip between two',
    '   activities and moves by 2-3x between repetitions on a busy machine: read the calls, not this column.',
    `   ${r.requestCreation}`,
    '',
    ...r.checks.map((c) => `check ${c.ok ? 'ok    ' : 'FAILED'} ${c.text}`),
    ...(r.warnings.count > 0
      ? [`the worker logged ${r.warnings.count} warning/error lines; first:`, ...r.warnings.first.map((x) => `  ${x}`)]
      : []),
    isHealthy(r) ? 'result: OK' : 'result: SOMETHING WENT WRONG (see the checks above)',
  ];
  return `${lines.join('\n')}\n`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}
