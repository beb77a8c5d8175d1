/**
 * Clean-up that must be finished before the client hears the answer. The write helper
 * (http/idempotency.ts runWrite) sends the reply itself as soon as the transaction commits, so
 * work placed after it in a handler would race the client's next request (a test, or a phone
 * that lists attachments right after deleting one). Tasks queued here run in the route's
 * `onSend` hook — after the commit, before the first byte is written — or, when the handler
 * fails before sending, in its `finally`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const pending = new WeakMap<FastifyRequest, Array<() => Promise<void>>>();

export function beforeResponse(request: FastifyRequest, task: () => Promise<void>): void {
  const tasks = pending.get(request) ?? [];
  tasks.push(task);
  pending.set(request, tasks);
}

/** Runs and forgets the queued tasks; a failing task is logged, never turned into an error answer. */
export async function runBeforeResponse(request: FastifyRequest): Promise<void> {
  const tasks = pending.get(request);
  if (!tasks) return;
  pending.delete(request);
  for (const task of tasks) {
    try {
      await task();
    } catch (error) {
      request.log.warn({ err: error }, 'clean-up after an attachment request failed');
    }
  }
}

export async function beforeResponseHook(request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> {
  await runBeforeResponse(request);
  return payload;
}
