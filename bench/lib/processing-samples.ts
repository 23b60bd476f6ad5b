import sharp from 'sharp';

/**
 * A photo-like JPEG of width × height for the compress benchmark: smooth colour gradients and waves with
 * per-pixel noise from a fixed seed, so every run compresses the same bytes and the encoder does real work
 * (a flat colour would compress to almost nothing in no time). Saved at quality 95, as a camera would.
 */
export async function sampleNoisyJpeg(width: number, height: number, seed = 12345): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let state = seed >>> 0;
  // xorshift32: cheap, deterministic, good enough for noise.
  const noise = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff - 0.5) * 48;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const n = noise();
      // A Buffer stores values modulo 256, so clamp first.
      raw[o] = Math.max(0, Math.min(255, (x / width) * 255 + n));
      raw[o + 1] = Math.max(0, Math.min(255, (y / height) * 255 + n));
      raw[o + 2] = Math.max(0, Math.min(255, 128 + 100 * Math.sin(x / 97 + y / 53) + n));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}
