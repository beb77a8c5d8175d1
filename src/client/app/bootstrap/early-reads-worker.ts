/// <reference lib="webworker" />
/**
 * The worker the early reads (early-reads.ts) hand their last two waves to. On a first visit the
 * forms' answer came in while the page's main thread ran the app's largest script and its first
 * render, and the next wave left only after those; here it leaves as soon as the answer is in.
 */
import { readUnderLinks, type WorkerReads } from './worker-reads';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = ({ data }: MessageEvent<WorkerReads>) => {
  void readUnderLinks(data, (message) => scope.postMessage(message), fetch.bind(scope)).finally(() => scope.close());
};
