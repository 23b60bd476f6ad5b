/**
 * The geometry of the image operations, checked when a request is quoted so that a job never fails on a size the
 * request already decided: a crop must lie inside the image, and the output must fit its format.
 */
export type OutputFormat = 'jpg' | 'png' | 'webp';

/** Largest side each output format can encode (WebP 16383, JPEG 65535; PNG is bounded by the input limit). */
export const MAX_OUTPUT_SIDE: Readonly<Record<OutputFormat, number>> = { webp: 16_383, jpg: 65_535, png: 0x7fff_ffff };

export interface Size {
  width: number;
  height: number;
}

export interface GeometryIssue {
  path: string;
  message: string;
}

/** The output format when none is asked for: the input's, JPEG for anything but PNG and WebP (as the runner does). */
export function defaultOutputFormat(mimeType: string): OutputFormat {
  return mimeType === 'image/png' ? 'png' : mimeType === 'image/webp' ? 'webp' : 'jpg';
}

/** The canvas of an image rotated by `angle` degrees: its bounding box (right angles swap the sides). */
export function rotatedSize({ width, height }: Size, angle: number): Size {
  const a = ((angle % 360) + 360) % 360;
  if (a === 0 || a === 180) return { width, height };
  if (a === 90 || a === 270) return { width: height, height: width };
  const r = (a * Math.PI) / 180;
  const cos = Math.abs(Math.cos(r));
  const sin = Math.abs(Math.sin(r));
  return { width: Math.ceil(width * cos + height * sin), height: Math.ceil(width * sin + height * cos) };
}

/** Contained in the box, aspect ratio kept, never enlarged. */
export function containedSize({ width, height }: Size, box: Size): Size {
  const scale = Math.min(1, box.width / width, box.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export interface ImageRequest {
  operation: 'image-edit' | 'image-compress' | 'webp';
  options: {
    crop?: readonly [number, number, number, number];
    angle?: number;
    width?: number;
    height?: number;
    format?: OutputFormat;
  };
}

/**
 * What is wrong with an image request for a source of `size` pixels (as displayed) and type `mimeType`, in the order
 * the operation works: crop, rotate, contain, encode. `sourcePath` names the source in the request (`upload_ids.0`).
 */
export function imageRequestIssues(
  req: ImageRequest,
  size: Size,
  mimeType: string,
  sourcePath: string,
): GeometryIssue[] {
  const issues: GeometryIssue[] = [];
  const o = req.options;
  let out = size;
  if (req.operation === 'image-edit' && o.crop) {
    const [left, top, width, height] = o.crop;
    if (left + width > size.width || top + height > size.height) {
      issues.push({
        path: 'options.crop',
        message: `crop [${o.crop.join(', ')}] is outside the ${size.width}x${size.height} image: left + width must be at most ${size.width} and top + height at most ${size.height}`,
      });
      return issues;
    }
    out = { width, height };
  }
  if (req.operation === 'image-edit' && o.angle) out = rotatedSize(out, o.angle);
  if (req.operation === 'image-edit' && o.width && o.height)
    out = containedSize(out, { width: o.width, height: o.height });
  const format = req.operation === 'webp' ? 'webp' : (o.format ?? defaultOutputFormat(mimeType));
  const max = MAX_OUTPUT_SIDE[format];
  if (out.width > max || out.height > max) {
    const path =
      req.operation !== 'webp' && o.format
        ? 'options.format'
        : req.operation === 'image-edit' && o.angle
          ? 'options.angle'
          : sourcePath;
    issues.push({
      path,
      message:
        `the output would be ${out.width}x${out.height} pixels; ${format === 'jpg' ? 'JPEG' : format.toUpperCase()} holds at most ${max} pixels a side` +
        (req.operation === 'image-edit'
          ? ' (resize with width and height, or choose another format)'
          : req.operation === 'webp'
            ? ' (make it smaller first with image-edit)'
            : ' (choose another format)'),
    });
  }
  return issues;
}
