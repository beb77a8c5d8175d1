/**
 * Image resize: scales a photo so its longer side is at most `maxSide` and outputs
 * JPEG. EXIF orientation is applied while decoding (createImageBitmap with imageOrientation
 * 'from-image'), so a portrait phone photo stays upright after the EXIF data is gone. Uses
 * OffscreenCanvas where available (also in workers), else a DOM canvas.
 *
 * The browser APIs come in through `env`, so the arithmetic and the calls are unit-tested; the
 * pixels themselves are checked in the browser tests of the forms issue.
 */

export interface ResizeOptions {
  /** Longest side of the result in pixels; smaller images are not enlarged. */
  maxSide: number;
  /** JPEG quality 0..1 (default 0.85: photos of plants stay sharp at a fraction of the size). */
  quality?: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The size that fits within maxSide × maxSide keeping the aspect ratio (never upscales). */
export function fitWithin(width: number, height: number, maxSide: number): Size {
  if (!(width > 0) || !(height > 0)) throw new RangeError('image has no size');
  if (!(maxSide > 0)) throw new RangeError('maxSide must be positive');
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

interface Drawable {
  getContext(kind: '2d'): Pick<CanvasRenderingContext2D, 'drawImage' | 'fillStyle' | 'fillRect' | 'imageSmoothingQuality'> | null;
}

export interface ResizeEnv {
  createImageBitmap: (blob: Blob, options: ImageBitmapOptions) => Promise<Pick<ImageBitmap, 'width' | 'height' | 'close'>>;
  /** Makes a canvas of the given size and a function that encodes it. */
  createCanvas: (width: number, height: number) => { canvas: Drawable; toBlob: (type: string, quality: number) => Promise<Blob> };
}

function browserResizeEnv(): ResizeEnv {
  return {
    createImageBitmap: (blob, options) => createImageBitmap(blob, options),
    createCanvas(width, height) {
      if (typeof OffscreenCanvas !== 'undefined') {
        const canvas = new OffscreenCanvas(width, height);
        return { canvas: canvas as unknown as Drawable, toBlob: (type, quality) => canvas.convertToBlob({ type, quality }) };
      }
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      return {
        canvas,
        toBlob: (type, quality) =>
          new Promise<Blob>((resolve, reject) =>
            canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas could not encode the image'))), type, quality),
          ),
      };
    },
  };
}

export async function resizeImage(input: Blob, { maxSide, quality = 0.85 }: ResizeOptions, env: ResizeEnv = browserResizeEnv()): Promise<Blob> {
  const bitmap = await env.createImageBitmap(input, { imageOrientation: 'from-image' });
  try {
    const { width, height } = fitWithin(bitmap.width, bitmap.height, maxSide);
    const { canvas, toBlob } = env.createCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas context');
    // JPEG has no transparency: paint white first so transparent PNGs do not turn black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap as unknown as CanvasImageSource, 0, 0, width, height);
    return await toBlob('image/jpeg', quality);
  } finally {
    bitmap.close();
  }
}
