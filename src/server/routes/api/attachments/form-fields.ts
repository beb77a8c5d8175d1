/**
 * Reading the text fields of a multipart form with the same clarity as JSON schema errors
 * ("tableId must be a positive integer"), and the request fingerprint used for Idempotency-Key:
 * a multipart request has no JSON body, so "the same request" means the same fields and the same
 * file bytes (SHA-256 of each file, computed while it streamed in).
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { MultipartForm } from '../../../attachments/upload';
import { invalid } from '../../../domain-errors';

export function intField(form: MultipartForm, name: string): number {
  const raw = form.fields[name];
  if (raw === undefined) throw invalid(`field ${name} is required`);
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < 1) throw invalid(`field ${name} must be a positive integer`);
  return value;
}

export function optionalIntField(form: MultipartForm, name: string): number | undefined {
  return form.fields[name] === undefined ? undefined : intField(form, name);
}

export function jsonField(form: MultipartForm, name: string): Record<string, unknown> {
  const raw = form.fields[name];
  if (raw === undefined) throw invalid(`field ${name} (JSON) is required`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(`field ${name} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`field ${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** Only the named fields may appear (no silent extras, e.g. a misspelt slot). */
export function assertOnlyFields(form: MultipartForm, allowed: string[]): void {
  const extra = Object.keys(form.fields).find((name) => !allowed.includes(name));
  if (extra) throw invalid(`field ${extra} is not allowed`);
}

export function multipartFingerprint(request: FastifyRequest, form: MultipartForm): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  for (const name of Object.keys(form.fields).sort()) hash.update(`${name}=${form.fields[name]}\n`);
  for (const file of form.files) hash.update(`${file.fieldName}:${file.name}:${file.size}:${file.sha256}\n`);
  return hash.digest('hex');
}
