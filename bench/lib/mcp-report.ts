import { fmt, percentile, table } from './measure.js';
import type { PhaseSample } from './x402-timing.js';
import {
  reportHead,
  reportTail,
  THROUGHPUT_HEADER,
  throughputRow,
  type Check,
  type ThroughputSide,
} from './x402-report.js';

export type Transport = 'mcp' | 'http';

/** One measured paid call: the client's end-to-end time and what the server spent in the payment phases. */
export interface McpPaidCall {
  /** MCP: payingMcpClient.callPaid (unpaid call, signing, paid call); HTTP: @x402/fetch until the body is read. */
  e2eMs: number;
  sample: PhaseSample;
}

export interface McpBenchReport {
  machine: string;
  database: string;
  chain: string;
  tool: string;
  paidWarmup: number;
  paid: Record<Transport, McpPaidCall[]>;
  concurrency: number;
  warmupSeconds: number;
  /** The throughput rounds in the order they ran (the sides alternate). */
  throughput: Array<ThroughputSide & { side: 'health' | 'toolsList' }>;
  checks: Check[];
  appWarnings: { count: number; first: string[] };
}

export const isHealthyMcp = (r: McpBenchReport) => r.checks.every((c) => c.ok);

const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
/** Expected answers per second over all rounds of a side. */
const rateOf = (rounds: ThroughputSide[]) =>
  rounds.reduce((a, s) => a + s.result.ok, 0) / rounds.reduce((a, s) => a + s.result.seconds, 0);

export function formatMcpReport(r: McpBenchReport): string {
  const e2e = (t: Transport) => r.paid[t].map((c) => c.e2eMs);
  const phases = (t: Transport) => r.paid[t].map((c) => c.sample.ms.verify + c.sample.ms.read + c.sample.ms.settle);
  const rest = (t: Transport) =>
    r.paid[t].map((c) => c.e2eMs - c.sample.ms.verify - c.sample.ms.read - c.sample.ms.settle);
  const ratio = (pick: (t: Transport) => number[], q: number) =>
    fmt.ratio(percentile(pick('mcp'), q) / percentile(pick('http'), q));
  const latencyRow = (label: string, pick: (t: Transport) => number[]) => [
    label,
    fmt.ms(percentile(pick('mcp'), 0.5)),
    fmt.ms(percentile(pick('http'), 0.5)),
    ratio(pick, 0.5),
    fmt.ms(percentile(pick('mcp'), 0.95)),
    fmt.ms(percentile(pick('http'), 0.95)),
    ratio(pick, 0.95),
    fmt.ratio(mean(pick('mcp')) / mean(pick('http'))),
  ];
  const health = r.throughput.filter((s) => s.side === 'health');
  const toolsList = r.throughput.filter((s) => s.side === 'toolsList');

  const lines = [
    ...reportHead('MCP benchmark', r),
    `1. paid ${r.tool}: N=${r.paid.mcp.length} MCP + N=${r.paid.http.length} HTTP, interleaved one by one (+${r.paidWarmup} warm-up each), a fresh authorization and a never-read transaction each`,
    '   MCP: official SDK client (Streamable HTTP, initialized once), payingMcpClient: tools/call -> PaymentRequired result -> sign -> tools/call with _meta["x402/payment"]',
    '   HTTP: @x402/fetch: GET /x402/v1/usdc/verify -> 402 -> sign -> GET with PAYMENT-SIGNATURE',
    table([
      ['', 'MCP p50', 'HTTP p50', 'ratio', 'MCP p95', 'HTTP p95', 'ratio', 'ratio of means'],
      latencyRow('end to end', e2e),
      latencyRow('  server: verify + chain read + settle', phases),
      latencyRow('  rest (transport, client, rate limit, DB)', rest),
    ]),
    '   (ratio = MCP / HTTP; percentiles of parts do not add up)',
    '',
    `2. unpaid throughput: raw keep-alive requests (node:http on its own thread, no SDK), ${r.concurrency} in flight, ${r.warmupSeconds} s warm-up per round, rounds alternated`,
    '   tools/list = POST /mcp {"jsonrpc":"2.0","id":1,"method":"tools/list"} (stateless server: no initialize needed)',
    table([THROUGHPUT_HEADER, ...r.throughput.map(throughputRow)]),
    '',
    `tools/list ${fmt.rate(rateOf(toolsList))}/s, /x402/health ${fmt.rate(rateOf(health))}/s: ratio tools/list / health ${fmt.ratio(rateOf(toolsList) / rateOf(health))}`,
    '',
    ...reportTail(r.checks, r.appWarnings),
  ];
  return `${lines.join('\n')}\n`;
}
