/**
 * Run before each client test file (jest.config.js, setupFiles). In the files that run in Node
 * (`@jest-environment node`: real servers, the season chain, the device database) a timer does not
 * keep the test worker's process alive. Their stores schedule timers that outlive the file: RTK
 * Query removes an unused answer a minute after its last subscriber left, so every season load
 * leaves one per request (season.test.ts alone 172). About 400 were pending when jest ended its
 * two workers, so neither exited and jest killed them ("A worker process has failed to exit
 * gracefully"; the workers' size was the other cause: jest.config.js, workerIdleMemoryLimit).
 * Unreferenced, such a timer still fires while the worker runs (the worker's channel to jest
 * keeps it alive), and no longer holds it at the end. jsdom's window clears its own timers when a
 * file ends.
 */
type Timer = { unref?: () => unknown };

for (const name of ['setTimeout', 'setInterval'] as const) {
  const schedule = globalThis[name] as (...args: unknown[]) => Timer;
  const unreferenced = (...args: unknown[]) => {
    const timer = schedule(...args);
    // A number in jsdom's window (nothing to unreference); an object in Node.
    timer?.unref?.();
    return timer;
  };
  // What Node's setTimeout carries besides being called (util.promisify's custom form).
  Object.assign(unreferenced, schedule);
  (globalThis as Record<string, unknown>)[name] = unreferenced;
}
