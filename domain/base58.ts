const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const VALUES = new Map([...ALPHABET].map((c, i) => [c, i]));

/**
 * Bytes encoded by a base58 (Bitcoin alphabet) string, or null when it holds a character outside the alphabet.
 * Leading `1`s are leading zero bytes; the empty string is no bytes.
 */
export function base58Decode(text: string): Uint8Array | null {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const littleEndian: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    let carry = VALUES.get(text[i]!);
    if (carry === undefined) return null;
    for (let j = 0; j < littleEndian.length; j++) {
      carry += littleEndian[j]! * 58;
      littleEndian[j] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) littleEndian.push(carry & 0xff);
  }
  const out = new Uint8Array(zeros + littleEndian.length);
  littleEndian.forEach((byte, j) => (out[out.length - 1 - j] = byte));
  return out;
}
