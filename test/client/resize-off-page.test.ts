import { describe, expect, it, jest } from '@jest/globals';
import type { ResizeEnv } from '../../src/client/lib/image/resize';
import { resizePhoto, type ResizeAnswer, type ResizeRequest, type ResizeWorker } from '../../src/client/lib/image/resize-off-page';

/** A worker stand-in: `answer` decides what it does with the request it is sent. */
function fakeWorker(answer: (worker: ResizeWorker, request: ResizeRequest) => void) {
  const sent: ResizeRequest[] = [];
  const worker: ResizeWorker = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    postMessage(request) {
      sent.push(request);
      queueMicrotask(() => answer(worker, request));
    },
    terminate: jest.fn(),
  };
  return { worker, sent };
}

const reply = (worker: ResizeWorker, data: ResizeAnswer) => worker.onmessage!(new MessageEvent('message', { data }));

/** Browser image APIs on the page, counting the resizes made there. */
function pageEnv() {
  const resized: number[] = [];
  const onPage = new Blob(['on the page'], { type: 'image/jpeg' });
  const env: ResizeEnv = {
    createImageBitmap: async () => ({ width: 4000, height: 3000, close: () => undefined }),
    createCanvas: (width) => ({
      canvas: { getContext: () => ({ drawImage: () => undefined, fillRect: () => undefined, fillStyle: '', imageSmoothingQuality: 'low' }) },
      toBlob: async () => {
        resized.push(width);
        return onPage;
      },
    }),
  };
  return { env, resized, onPage };
}

describe('resizePhoto', () => {
  const photo = new Blob(['a photo'], { type: 'image/jpeg' });

  it('sends the photo and the size to a worker and gives back its JPEG; the worker is ended', async () => {
    const fromWorker = new Blob(['from the worker'], { type: 'image/jpeg' });
    const { worker, sent } = fakeWorker((w) => reply(w, { blob: fromWorker }));
    const page = pageEnv();
    await expect(resizePhoto(photo, { maxSide: 1600 }, page.env, () => worker)).resolves.toBe(fromWorker);
    expect(sent).toEqual([{ input: photo, options: { maxSide: 1600 } }]);
    expect(worker.terminate).toHaveBeenCalledTimes(1);
    expect(page.resized).toEqual([]);
  });

  it.each([
    ['the worker could not resize it', (w: ResizeWorker) => reply(w, { error: 'InvalidStateError' })],
    ['the worker failed (its script did not load)', (w: ResizeWorker) => w.onerror!(new Event('error', { cancelable: true }))],
    ['its answer could not be read', (w: ResizeWorker) => w.onmessageerror!(new Event('messageerror'))],
  ])('resizes on the page when %s', async (_case, answer) => {
    const { worker } = fakeWorker(answer);
    const page = pageEnv();
    await expect(resizePhoto(photo, { maxSide: 1600 }, page.env, () => worker)).resolves.toBe(page.onPage);
    expect(page.resized).toEqual([1600]);
    expect(worker.terminate).toHaveBeenCalledTimes(1);
  });

  it('resizes on the page when no worker can start', async () => {
    const page = pageEnv();
    const refused = () => {
      throw new DOMException('refused', 'SecurityError');
    };
    await expect(resizePhoto(photo, { maxSide: 1600 }, page.env, refused)).resolves.toBe(page.onPage);
    await expect(resizePhoto(photo, { maxSide: 1600 }, page.env, () => null)).resolves.toBe(page.onPage);
    expect(page.resized).toEqual([1600, 1600]);
  });

  it('with only the page stand-ins given, resizes on the page', async () => {
    const page = pageEnv();
    await expect(resizePhoto(photo, { maxSide: 800 }, page.env)).resolves.toBe(page.onPage);
    expect(page.resized).toEqual([800]);
  });
});
