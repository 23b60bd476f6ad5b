import sharp, { type Sharp } from 'sharp';

/** The image file operations (sharp). Output format `jpg` is JPEG. */
export type ImageFormat = 'jpg' | 'png' | 'webp';

export interface ImageEdit {
  width?: number;
  height?: number;
  angle?: number;
  flip?: 'horizontal' | 'vertical' | 'both';
  format?: ImageFormat;
  /** left, top, width, height in pixels of the input. */
  crop?: [number, number, number, number];
}

const toFormat = (img: Sharp, format: ImageFormat, level: 'balanced' | 'strong' = 'balanced') => {
  const strong = level === 'strong';
  if (format === 'jpg') return img.jpeg({ quality: strong ? 60 : 80, mozjpeg: true });
  if (format === 'png')
    return img.png({ compressionLevel: 9, palette: strong, quality: strong ? 70 : 100, effort: 10 });
  return img.webp({ quality: strong ? 60 : 80, effort: 6 });
};

async function sourceFormat(input: Buffer): Promise<ImageFormat> {
  const { format } = await sharp(input).metadata();
  return format === 'png' ? 'png' : format === 'webp' ? 'webp' : 'jpg';
}

/**
 * image-edit: crop (of the input), then rotate, flip, then contain within width × height (aspect ratio kept,
 * never enlarged), then the output format (default: the input's).
 */
/** The crop does not fit in the image as displayed (the estimate checks it; an older upload may reach the runner). */
export class CropOutsideImage extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'CropOutsideImage';
  }
}

export async function editImage(input: Buffer, edit: ImageEdit): Promise<{ data: Buffer; format: ImageFormat }> {
  const meta = await sharp(input).metadata();
  let img = sharp(input, { failOn: 'error' }).rotate(); // honour EXIF orientation first
  if (edit.crop) {
    // The crop is taken of the image as displayed (after its EXIF orientation), as the upload reports its size.
    const [left, top, width, height] = edit.crop;
    const shown = meta.autoOrient ?? { width: meta.width ?? 0, height: meta.height ?? 0 };
    if (left + width > shown.width || top + height > shown.height) {
      throw new CropOutsideImage(`crop ${edit.crop.join(',')} is outside the ${shown.width}x${shown.height} image`);
    }
    img = img.extract({ left, top, width, height });
  }
  if (edit.angle)
    img = sharp(await img.toBuffer()).rotate(edit.angle, { background: { r: 255, g: 255, b: 255, alpha: 0 } });
  if (edit.flip === 'vertical' || edit.flip === 'both') img = img.flip();
  if (edit.flip === 'horizontal' || edit.flip === 'both') img = img.flop();
  if (edit.width && edit.height) img = img.resize(edit.width, edit.height, { fit: 'inside', withoutEnlargement: true });
  const format = edit.format ?? (await sourceFormat(input));
  return { data: await toFormat(img, format).toBuffer(), format };
}

/** image-compress: re-encodes in `format` (default: the input's) at the given level. */
export async function compressImage(
  input: Buffer,
  opts: { format?: ImageFormat; level?: 'balanced' | 'strong' },
): Promise<{ data: Buffer; format: ImageFormat }> {
  const format = opts.format ?? (await sourceFormat(input));
  return { data: await toFormat(sharp(input, { failOn: 'error' }).rotate(), format, opts.level).toBuffer(), format };
}

/** webp: converts to WebP. */
export async function toWebp(input: Buffer): Promise<{ data: Buffer; format: 'webp' }> {
  return { data: await toFormat(sharp(input, { failOn: 'error' }).rotate(), 'webp').toBuffer(), format: 'webp' };
}
