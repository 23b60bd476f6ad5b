const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Bytes encoded by a base58 (Bitcoin alphabet) string, or null when it is not base58. */
export function base58Decode(s: string): Uint8Array | null {
  if (s.length === 0) return null;
  let value = 0n;
  for (const c of s) {
    const digit = INDEX.get(c);
    if (digit === undefined) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.push(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const c of s) {
    if (c !== '1') break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}
