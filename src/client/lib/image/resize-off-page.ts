/**
 * A new photo's resize, off the page's main thread: a phone photo of 12 megapixels takes about a
 * second to decode, scale and encode on a mid-range phone, and on the page its scaling draw and
 * encoding held the main thread for 200–450 ms at a time, so a tap on the next answer waited for
 * them. A worker of its own (resize-worker.ts) does the same work (resize.ts) with
 * OffscreenCanvas. Where the browser has no OffscreenCanvas or the worker cannot run (its script
 * failed to load, it died), the photo is resized on the page as before: the photo is never lost
 * to where it is resized.
 */
import { resizeImage, type ResizeEnv, type ResizeOptions } from './resize';

/** What the page sends the worker. */
export interface ResizeRequest {
  input: Blob;
  options: ResizeOptions;
}

/** What the worker answers: the JPEG, or why the image could not be resized. */
export type ResizeAnswer = { blob: Blob } | { error: string };

/** The part of a Worker this module uses. */
export interface ResizeWorker {
  onmessage: ((event: MessageEvent<ResizeAnswer>) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessageerror: ((event: Event) => void) | null;
  postMessage(message: ResizeRequest): void;
  terminate(): void;
}

function startResizeWorker(): ResizeWorker | null {
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  return new Worker(new URL('./resize-worker.ts', import.meta.url), { name: 'photo-resize' }) as ResizeWorker;
}

/** Resizes in the worker; rejects when the worker could not answer with a JPEG. */
function inWorker(worker: ResizeWorker, request: ResizeRequest): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) => {
    worker.onmessage = ({ data }) => ('blob' in data ? resolve(data.blob) : reject(new Error(data.error)));
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error('the resize worker failed'));
    };
    worker.onmessageerror = () => reject(new Error('the resize worker sent what could not be read'));
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}

/**
 * Scales `input` to a JPEG whose longer side is at most `options.maxSide`, in a worker when one
 * can run, else on the page. `env` (browser image APIs on the page) is the tests' stand-in for
 * jsdom, which decodes no images: given alone, the resize runs on the page.
 */
export async function resizePhoto(
  input: Blob,
  options: ResizeOptions,
  env?: ResizeEnv,
  startWorker: () => ResizeWorker | null = env ? () => null : startResizeWorker,
): Promise<Blob> {
  let worker: ResizeWorker | null = null;
  try {
    worker = startWorker();
  } catch {
    // Refused by the browser (a policy, a sandbox): on the page.
  }
  if (!worker) return resizeImage(input, options, env);
  try {
    return await inWorker(worker, { input, options });
  } catch {
    return resizeImage(input, options, env);
  }
}
