/** Reads the credentials of a request: `Authorization: Bearer …` or `Basic …`, nothing else. */
import type { FastifyRequest } from 'fastify';

export type Credentials = { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string } | { kind: 'other' };

export function credentialsOf(request: FastifyRequest): Credentials | null {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return null;
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return { kind: 'other' };
  const scheme = match[1]!.toLowerCase();
  const value = match[2]!;
  if (scheme === 'bearer') return { kind: 'bearer', token: value };
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { kind: 'other' };
    return { kind: 'basic', user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return { kind: 'other' };
}
