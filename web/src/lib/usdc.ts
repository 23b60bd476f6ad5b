/** Integer atomic USDC (6 decimals) as a decimal string, without floating point (amounts can exceed 2^53). */
export function formatAtomic(atomic: string): string {
  const v = BigInt(atomic);
  const whole = v / 1_000_000n;
  const frac = (v % 1_000_000n).toString().padStart(6, '0');
  return `${whole}.${frac}`;
}
