/**
 * Image checks and thumbnails with sharp. The header is read first and the pixel count compared
 * with the limit before anything is decoded, so a "pixel flood" (a small file that claims, say,
 * 100,000 × 100,000 pixels) is refused without allocating its bitmap; sharp's own
 * `limitInputPixels` is set as a second guard for formats whose header lies.
 */
import sharp from 'sharp';

export class ImageError extends Error {
  constructor(
    readonly kind: 'too-large' | 'unreadable',
    message: string,
  ) {
    super(message);
    this.name = 'ImageError';
  }
}

export interface ImageInfo {
  width: number;
  height: number;
}

export async function inspectImage(file: string | Buffer, maxPixels: number): Promise<ImageInfo> {
  let meta: sharp.Metadata;
  try {
    // limitInputPixels: false here because metadata() only reads the header; the bound is ours.
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageError('unreadable', 'image cannot be read');
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= 0 || height <= 0) throw new ImageError('unreadable', 'image has no dimensions');
  // Animated images decode every frame: count them all.
  const pixels = width * height * Math.max(1, meta.pages ?? 1);
  if (pixels > maxPixels) {
    throw new ImageError(
      'too-large',
      `image has ${width}×${height}${(meta.pages ?? 1) > 1 ? `×${meta.pages}` : ''} pixels, more than the limit of ${maxPixels}`,
    );
  }
  return { width, height };
}

/**
 * A JPEG thumbnail whose longest side is at most `size` pixels (never enlarged), turned upright
 * by the EXIF orientation and flattened on white (JPEG has no transparency). Only the first frame
 * of an animation is used.
 */
export async function makeThumbnail(file: string | Buffer, size: number, maxPixels: number): Promise<Buffer> {
  try {
    return await sharp(file, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize(size, size, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: false })
      .toBuffer();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) throw new ImageError('too-large', 'image has more pixels than the limit');
    throw new ImageError('unreadable', 'image cannot be decoded');
  }
}
