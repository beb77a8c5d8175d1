/**
 * Who is calling. The authentication layer (token, basic credentials or the demo `none` mode)
 * turns a request into a Principal; the access layer then resolves the caller's roles and farmer
 * record from the database. Routes never look at headers themselves.
 */
import type { FastifyRequest } from 'fastify';

export interface Principal {
  /** Stable subject id from the identity provider (`sub`), or the basic-auth user name. */
  subject: string;
  /** E-mail, used to match the farmers record and EqualsUserEmail filters. */
  email: string;
  name?: string;
  via: 'token' | 'basic' | 'none';
}

/**
 * Resolves the caller of a request. Returns null when the request carries no credentials and
 * throws an HttpError(401) when it carries bad ones (expired, forged, wrong issuer/audience).
 */
export type Authenticate = (request: FastifyRequest) => Promise<Principal | null>;
