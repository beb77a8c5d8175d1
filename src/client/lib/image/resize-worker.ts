/// <reference lib="webworker" />
/**
 * The worker a photo is resized in (resize-off-page.ts): one photo, then it closes. Decoding,
 * scaling and encoding take the page's main thread out of reach of the farmer's taps otherwise.
 */
import { resizeImage } from './resize';
import type { ResizeAnswer, ResizeRequest } from './resize-off-page';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = ({ data }: MessageEvent<ResizeRequest>) => {
  void resizeImage(data.input, data.options)
    .then(
      (blob): ResizeAnswer => ({ blob }),
      (error: unknown): ResizeAnswer => ({ error: String(error) }),
    )
    .then((answer) => scope.postMessage(answer))
    .finally(() => scope.close());
};
