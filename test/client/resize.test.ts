import { describe, expect, it, jest } from '@jest/globals';
import { fitWithin, resizeImage, type ResizeEnv } from '../../src/client/lib/image/resize';

describe('fitWithin', () => {
  it('scales the longer side down to maxSide and keeps the aspect ratio', () => {
    expect(fitWithin(4000, 3000, 1600)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(3000, 4000, 1600)).toEqual({ width: 1200, height: 1600 });
    expect(fitWithin(1000, 1000, 500)).toEqual({ width: 500, height: 500 });
  });

  it('never enlarges a small image', () => {
    expect(fitWithin(800, 600, 1600)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(1600, 900, 1600)).toEqual({ width: 1600, height: 900 });
  });

  it('keeps at least one pixel on a very thin image', () => {
    expect(fitWithin(10000, 1, 100)).toEqual({ width: 100, height: 1 });
  });

  it('rejects sizes that are not positive', () => {
    expect(() => fitWithin(0, 10, 10)).toThrow(RangeError);
    expect(() => fitWithin(10, 10, 0)).toThrow(RangeError);
  });
});

describe('resizeImage', () => {
  function fakeEnv(width: number, height: number) {
    const drawImage = jest.fn();
    const fillRect = jest.fn();
    const close = jest.fn();
    const toBlob = jest.fn(async (type: string) => new Blob(['jpeg'], { type }));
    const createImageBitmap = jest.fn(async (_blob: Blob, _options: ImageBitmapOptions) => ({ width, height, close }));
    const createCanvas = jest.fn((w: number, h: number) => ({
      canvas: { getContext: () => ({ drawImage, fillRect, fillStyle: '', imageSmoothingQuality: 'low' as ImageSmoothingQuality }) },
      toBlob: (type: string, _quality: number) => toBlob(type),
      size: { w, h },
    }));
    const env = { createImageBitmap, createCanvas } as unknown as ResizeEnv;
    return { env, drawImage, fillRect, close, toBlob, createImageBitmap, createCanvas };
  }

  it('decodes with EXIF orientation, draws at the fitted size and outputs JPEG', async () => {
    const fake = fakeEnv(3000, 4000);
    const out = await resizeImage(new Blob(['png'], { type: 'image/png' }), { maxSide: 1000, quality: 0.8 }, fake.env);
    expect(fake.createImageBitmap).toHaveBeenCalledWith(expect.any(Blob), { imageOrientation: 'from-image' });
    expect(fake.createCanvas).toHaveBeenCalledWith(750, 1000);
    expect(fake.fillRect).toHaveBeenCalledWith(0, 0, 750, 1000);
    expect(fake.drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 750, 1000);
    expect(out.type).toBe('image/jpeg');
    expect(fake.close).toHaveBeenCalledTimes(1);
  });

  it('releases the decoded bitmap when encoding fails', async () => {
    const fake = fakeEnv(100, 100);
    fake.toBlob.mockRejectedValueOnce(new Error('encode failed'));
    await expect(resizeImage(new Blob(['x']), { maxSide: 50 }, fake.env)).rejects.toThrow('encode failed');
    expect(fake.close).toHaveBeenCalledTimes(1);
  });
});
